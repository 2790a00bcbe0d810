package pi

import (
	"bufio"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// TestExtensionUIFramesArePi087s compares cairn's extension_ui_request
// frames, byte for byte but the random ids, with those pi 0.87.1 wrote
// for an extension making the same calls (testdata/extui/pi087.jsonl,
// recorded from pi --mode rpc with a TypeScript extension calling
// ctx.ui.select, confirm, setStatus, setWidget, setTitle and
// setEditorText).
func TestExtensionUIFramesArePi087s(t *testing.T) {
	f, err := os.Open("testdata/extui/pi087.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		want = append(want, sc.Text())
	}
	frames := []any{
		questionFrame(core.Question{ID: "x", Kind: core.QuestionSelect, Title: "Pick one", Options: []core.Option{{Value: "alpha", Label: "alpha"}, {Value: "beta", Label: "beta"}}, Timeout: 5 * time.Second}),
		questionFrame(core.Question{ID: "x", Kind: core.QuestionConfirm, Title: "Sure?", Message: "You picked beta", Timeout: 5 * time.Second}),
		extensionUIFrame(core.StatusChanged{Key: "k", Text: "picked beta true"}),
		extensionUIFrame(core.StatusChanged{Key: "k"}),
		extensionUIFrame(core.WidgetChanged{Key: "w", Lines: []string{"a", "b"}}),
		extensionUIFrame(core.WidgetChanged{Key: "w", Lines: []string{"c"}, Placement: core.WidgetBelowEditor}),
		extensionUIFrame(core.WidgetChanged{Key: "w"}),
		extensionUIFrame(core.TitleChanged{Title: "T"}),
		extensionUIFrame(core.EditorTextSet{Text: "E"}),
	}
	if len(frames) != len(want) {
		t.Fatalf("%d frames, %d recorded", len(frames), len(want))
	}
	id := regexp.MustCompile(`"id":"[^"]*"`)
	for i, fr := range frames {
		line, err := marshal(fr)
		if err != nil {
			t.Fatal(err)
		}
		got := id.ReplaceAllString(string(line), `"id":"ID"`)
		if w := id.ReplaceAllString(want[i], `"id":"ID"`); got != w {
			t.Errorf("frame %d:\n got %s\nwant %s", i, got, w)
		}
	}
}

// TestExtensionUIFramesArePis: a dialog an extension opens goes to a pi
// host exactly as pi 0.87.1 sends it: the title as the extension wrote
// it, pi's fields and no others. The TUI and ACP name the extension on the
// dialog; rpc cannot without changing pi's frame, which pi's hosts (and
// TestPiRpcClient087Extensions, against pi itself) read as pi writes it.
// README's deliberate differences say so.
func TestExtensionUIFramesArePis(t *testing.T) {
	for _, q := range []core.Question{
		{ID: "x", Kind: core.QuestionConfirm, Title: "Delete build/?", Message: "It is 3 MB", Extension: "guard"},
		{ID: "x", Kind: core.QuestionSelect, Title: "Delete build/?", Options: []core.Option{{Value: "a", Label: "a"}}, Extension: "guard"},
		{ID: "x", Kind: core.QuestionInput, Title: "Delete build/?", Extension: "guard"},
		{ID: "x", Kind: core.QuestionEditor, Title: "Delete build/?", Extension: "guard"},
	} {
		line, err := marshal(questionFrame(q))
		if err != nil {
			t.Fatal(err)
		}
		bare := q
		bare.Extension = ""
		plain, _ := marshal(questionFrame(bare))
		if string(line) != string(plain) {
			t.Errorf("an extension's dialog differs from pi's frame:\n%s\n%s", line, plain)
		}
	}
}
