package tui

import (
	"bytes"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/themes"
)

// codeSample is Go with a comment, keywords, a type, a function call, a
// string and a number: one of each colour the syntax tokens give.
const codeSample = "// Greet says hello.\nfunc Greet(name string) int {\n\tfmt.Println(\"hi \" + name)\n\treturn 42\n}\n"

// codeScreen is highlighted code in each place cairn draws it: a code
// block of an answer, a file read, and an edit's diff.
func codeScreen(*rig) []tea.Msg {
	return []tea.Msg{replay(
		&core.UserMessage{Content: []core.Content{text("Show me Greet")}},
		answer(text("Here it is:\n\n```go\n"+codeSample+"```\n"),
			call("c1", "read", map[string]any{"path": "greet.go"}),
			call("c2", "edit", map[string]any{"path": "greet.go", "edits": []map[string]string{{"oldText": "42", "newText": "len(name)"}}}),
		),
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "read", Content: []core.Content{text(codeSample)}},
		&core.ToolResultMessage{ToolCallID: "c2", ToolName: "edit", Content: []core.Content{text("Successfully replaced 1 block(s) in greet.go.")},
			Details: mustJSON(map[string]any{"diff": "  3 \tfmt.Println(\"hi \" + name)\n- 4 \treturn 42\n+ 4 \treturn len(name)\n  5 }", "firstChangedLine": 4})},
	), key("ctrl+o")}
}

// screenAtProfile draws screen at width x height as a terminal with
// profile p receives it: in the theme's rendering for p, converted by
// colorprofile as Bubble Tea converts it.
func screenAtProfile(t *testing.T, th *themes.Theme, p colorprofile.Profile, screen func(*rig) []tea.Msg, width, height int) []byte {
	t.Helper()
	r := newRig(t, rigOptions{theme: th})
	r.m.opts.ColorProfile = p
	r.m.setTheme(th)
	frame := r.frame(width, height, "", screen(r)...)
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: p}
	if _, err := w.Write([]byte(frame)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCodeProfiles: golden screens of highlighted code (an answer's code
// block, a read file, an edit's diff) at true colour, 256 and 16 colours
// in both built-in themes, each profile in the colours its theme picks
// for it (run with -update to accept a deliberate change).
func TestCodeProfiles(t *testing.T) {
	for _, th := range []*themes.Theme{themes.Dark(), themes.Light()} {
		for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI} {
			t.Run(fmt.Sprintf("%s/%s", th.Name, p), func(t *testing.T) {
				golden.RequireEqual(t, screenAtProfile(t, th, p, codeScreen, 80, 40))
			})
		}
	}
}
