package toolview

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core/tools"
)

// joined renders a call and returns its text with every line's padding and
// break removed, so text wrapped over lines reads as it was written.
func joined(c Call, width int, expanded bool) string {
	var b strings.Builder
	for _, l := range plain(c, width, DefaultStyles(), expanded) {
		b.WriteString(strings.TrimSpace(l))
	}
	return b.String()
}

// TestExpandedShowsWhatCollapsedCuts: a command, a path, an output line and
// a line of code too long for the box are cut collapsed; expanded (ctrl+o)
// every character is on screen, wrapped within the width. Diff lines wrap
// even collapsed: a change is reviewed and approved whole.
func TestExpandedShowsWhatCollapsedCuts(t *testing.T) {
	long := "echo " + strings.Repeat("abcdefghij", 20) + " && rm -rf /tmp/the-end"
	path := "src/" + strings.Repeat("deeply/nested/", 10) + "file.go"
	output := "start " + strings.Repeat("0123456789", 25) + " finish"
	code := "package x // " + strings.Repeat("comment ", 30) + "done"
	const width = 60
	cases := []struct {
		name      string
		call      Call
		whole     string // every character of it on screen when expanded
		collapsed bool   // also whole when collapsed
	}{
		{"bash command", Call{Name: "bash", Args: mustArgs(map[string]any{"command": long}), State: Pending}, "$ " + long, false},
		{"bash output", Call{Name: "bash", Args: mustArgs(map[string]any{"command": "make"}), State: Done, Result: textResult(output, false, nil)}, output, false},
		{"edit path", Call{Name: "edit", Args: mustArgs(map[string]any{"path": path, "edits": []any{}}), State: Pending}, "edit " + path, false},
		{"write target", Call{Name: "write", Args: mustArgs(map[string]any{"path": path, "content": "x\n"}), State: Pending}, "write " + path, false},
		{"written code", Call{Name: "write", Args: mustArgs(map[string]any{"path": "x.txt", "content": code}), State: Pending}, code, false},
		{"diff line", Call{Name: "edit", Args: mustArgs(map[string]any{"path": "a.go"}), State: Done,
			Result: textResult("ok", false, tools.EditDetails{Diff: "- 3 " + output + "\n+ 3 " + long})}, output, true},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			want := strings.ReplaceAll(tt.whole, " ", "")
			if got := strings.ReplaceAll(joined(tt.call, width, true), " ", ""); !strings.Contains(got, want) {
				t.Errorf("expanded, the box does not hold all of %q:\n%s", tt.whole, strings.Join(plain(tt.call, width, DefaultStyles(), true), "\n"))
			}
			if tt.collapsed {
				if got := strings.ReplaceAll(joined(tt.call, width, false), " ", ""); !strings.Contains(got, want) {
					t.Errorf("collapsed, the box does not hold all of %q:\n%s", tt.whole, strings.Join(plain(tt.call, width, DefaultStyles(), false), "\n"))
				}
			}
			for _, expanded := range []bool{false, true} {
				for i, l := range strings.Split(Render(tt.call, width, DefaultStyles(), expanded), "\n") {
					if w := ansi.StringWidth(l); w != width {
						t.Errorf("expanded %v: line %d is %d cells wide, want %d", expanded, i, w, width)
					}
				}
			}
		})
	}
}

func mustArgs(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestDiffNumbersNeverJumpBack: the tool numbers unchanged and removed
// lines in the old file and added ones in the new; drawn as one column
// that reads 4 5 5 6 6. Two gutters, old and new, each count up.
func TestDiffNumbersNeverJumpBack(t *testing.T) {
	diff := "  4 a\n- 5 b\n+ 5 c\n+ 6 d\n  6 e\n    ...\n  9 f"
	c := Call{Name: "edit", Args: mustArgs(map[string]any{"path": "a.go"}), State: Done,
		Result: textResult("ok", false, tools.EditDetails{Diff: diff})}
	got := plain(c, 40, DefaultStyles(), false)[1:]
	want := []string{
		"  4  4   a",
		"  5    - b",
		"     5 + c",
		"     6 + d",
		"  6  7   e",
		"       …",
		"  9 10   f",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
