package pi

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
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

// TestExtensionUIFramesNameTheExtension: a dialog an extension opens names
// it in the title, the one field every pi host shows, and the frame keeps
// pi 0.87.1's fields and no others.
func TestExtensionUIFramesNameTheExtension(t *testing.T) {
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
		var frame map[string]any
		if err := json.Unmarshal(line, &frame); err != nil {
			t.Fatal(err)
		}
		if title, _ := frame["title"].(string); !strings.HasPrefix(title, "Extension guard: Delete build/?") {
			t.Errorf("%s: title %q does not name the extension", line, title)
		}
		bare := q
		bare.Extension = ""
		plain, _ := marshal(questionFrame(bare))
		var want map[string]any
		_ = json.Unmarshal(plain, &want)
		for k := range frame {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: field %q is not pi's", line, k)
			}
		}
	}
}
