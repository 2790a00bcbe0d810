package session

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestContextEditLeavesItsTargetOut: pi 0.87's context_edit with a null
// replacement leaves its target out of the context, written and read back
// alike, while the target stays in the session.
func TestContextEditLeavesItsTargetOut(t *testing.T) {
	store := Store{Dir: t.TempDir()}
	f := store.Create("/p")
	if _, err := f.AppendMessage(&core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}); err != nil {
		t.Fatal(err)
	}
	failed, err := f.AppendMessage(&core.AssistantMessage{StopReason: core.StopError, ErrorMessage: "503"})
	if err != nil {
		t.Fatal(err)
	}
	e, err := f.AppendContextEdit(failed)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := e.MarshalJSON(); !contains(string(b), `"type":"context_edit"`, `"targetId":"`+failed+`"`, `"replacement":null`) {
		t.Errorf("entry: %s", b)
	}
	if _, err := f.AppendMessage(&core.AssistantMessage{StopReason: core.StopEnd, Content: []core.Content{core.TextBlock("ok")}}); err != nil {
		t.Fatal(err)
	}
	check := func(name string, g *File) {
		ctx := g.Context()
		if len(ctx.Messages) != 2 || ctx.Messages[1].(*core.AssistantMessage).StopReason != core.StopEnd {
			t.Errorf("%s: context %d messages, want the user's and the answer", name, len(ctx.Messages))
		}
		if _, err := g.Entry(failed); err != nil {
			t.Errorf("%s: the edited entry is gone: %v", name, err)
		}
	}
	check("written", f)
	g, err := Open(f.FilePath())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	check("read back", g)
	if _, err := f.AppendContextEdit("nope"); err == nil {
		t.Error("an edit of an unknown entry was appended")
	}
}

func contains(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
