package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/scripts/screenshot/termimage"
)

// TestDemo plays `cairn --demo` as a newcomer would: the first prompt reads,
// edits (approved), runs the checks and answers; the second gets the tour;
// a third hears that the script has ended. No answer fails, each final one
// is tagged as scripted, and the project cairn was started in is untouched.
// With -screenshots DIR it also writes the demo's screenshots.
func TestDemo(t *testing.T) {
	h := newHarness(t, xtermTerminal)
	var fonts *termimage.Fonts
	if *screenshotDir != "" {
		var err error
		if fonts, err = termimage.LoadFonts(16); err != nil {
			t.Fatal(err)
		}
	}
	shoot := func(p *pane, name string) {
		if fonts != nil {
			writeShot(t, p, filepath.Join(*screenshotDir, name), fonts)
		}
	}
	p := h.tmux.start("demo", shotCols, shotRows, h.project, cairnBin, "--demo")
	p.waitText("Demo: cairn is playing a script")

	p.typeText("make Greet use the name")
	p.keys("Enter")
	p.waitText("edit greet.go", approvalPrompt)
	shoot(p, "demo-edit-approval.png")
	p.answerApproval(approvalPrompt, "y")
	p.answerApproval(approvalPrompt, "y")
	p.waitText("PASS  2 checks")
	p.waitText("for a short tour", "scripted (faux)")
	p.waitGone("Working")
	shoot(p, "demo-answer.png")

	p.typeText("what else?")
	p.keys("Enter")
	p.waitText("What you just saw", "start cairn without --demo.")
	p.waitGone("Working")

	p.typeText("and now?")
	p.keys("Enter")
	screen := p.waitText("The demo script has ended")
	p.waitGone("Working")
	if strings.Contains(screen+p.history(), "no more scripted responses") {
		t.Fatalf("the demo ran out of script:\n%s", frame(screen))
	}

	p.keys("C-d")
	if status, _ := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s", status)
	}
	if entries, _ := os.ReadDir(h.project); len(entries) != 0 {
		t.Fatalf("the demo wrote into the directory it was started in: %v", entries)
	}
}
