package e2e

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/scripts/screenshot/termimage"
)

// TestTUIBoxEdgesInTmux draws an edit's diff box inside tmux at 256
// colours and reads the pane back with its colours (capture-pane -e -N,
// which keeps trailing spaces): every row of the box has its background
// up to the same right edge. cairn used to leave the end of each row to an
// erase with the box colour set (the terminal's bce), which capture-pane
// drops and terminals without bce fill with the default background, so the
// box ended wherever each row's text ended.
func TestTUIBoxEdgesInTmux(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	writeFile(t, h.project+"/greet.go", greetGo)
	p := h.cairn("box", 80, 24)
	p.waitText("test-model")
	h.llm.queue(friendlierGreeting("call_1"), textReply("Done.", 4))
	p.typeText("make it friendlier")
	p.keys("Enter")
	p.waitText(approvalPrompt, "name :=")

	s, err := termimage.ParseString(p.screenANSIWhole(), 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	rows := boxRows(s)
	if len(rows) < 5 {
		t.Fatalf("found %d rows of the edit's box, want its header and diff lines:\n%s", len(rows), frame(p.screen()))
	}
	for _, r := range rows[1:] {
		if r.end != rows[0].end {
			t.Errorf("the box's background ends at column %d on row %d but at %d on row %d (ragged edge):\n%s",
				r.end, r.y, rows[0].end, rows[0].y, frame(p.screen()))
		}
	}
	p.answerApproval(approvalPrompt, "y")
	p.waitText("Done.")
}

// boxRow is one row of a box: its screen row and the last column that has
// the box's background.
type boxRow struct{ y, end int }

// boxRows finds the rows of the tool box whose header holds "edit
// greet.go": the rows around it that start with the header's background.
func boxRows(s *termimage.Screen) []boxRow {
	header := -1
	for y, row := range s.Cells {
		var line strings.Builder
		for _, c := range row {
			line.WriteString(c.Text)
		}
		if strings.Contains(line.String(), "edit greet.go") {
			header = y
			break
		}
	}
	if header < 0 {
		return nil
	}
	left := -1
	for x, c := range s.Cells[header] {
		if c.Style.BG.Mode != termimage.ColorDefault {
			left = x
			break
		}
	}
	if left < 0 {
		return nil
	}
	bg := s.Cells[header][left].Style.BG
	var rows []boxRow
	for y := header; y < len(s.Cells) && s.Cells[y][left].Style.BG == bg; y++ {
		end := left
		for x := left; x < len(s.Cells[y]); x++ {
			if s.Cells[y][x].Style.BG == bg {
				end = x
			}
		}
		rows = append(rows, boxRow{y: y, end: end})
	}
	return rows
}

// screenANSIWhole is screenANSI with each row's trailing spaces kept: a
// background colour that reaches the right edge is in them.
func (p *pane) screenANSIWhole() string {
	p.t.Helper()
	return p.s.must("capture-pane", "-p", "-e", "-N", "-t", p.target)
}
