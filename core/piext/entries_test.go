package piext

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/session"
)

// TestAppendEntryKeptInSession: pi's appendEntry keeps a custom entry in
// the session (protocol v2's append_entry), and the session manager reads
// the session's entries back, its branch too.
func TestAppendEntryKeptInSession(t *testing.T) {
	api, _ := filepath.Abs("testdata/api/entries.ts")
	h := startHost(t, "tui", api)
	h.input(t, "/mark first")
	h.input(t, "/mark second")
	h.input(t, "/count")
	h.host.waitFor(t, "the count", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "marks: first,second; branch 2")
	})
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if len(h.host.entries) != 2 {
		t.Fatalf("entries %+v", h.host.entries)
	}
	c, ok := h.host.entries[1].Payload.(*session.CustomEntry)
	if !ok || c.CustomType != "mark" || string(c.Data) != `{"note":"second"}` {
		t.Errorf("entry %+v", h.host.entries[1].Payload)
	}
}

// todo.ts rebuilds its list from the todo results on the session's branch
// at session_start, as its comments describe.
func TestTodoStateFromSession(t *testing.T) {
	details := json.RawMessage(`{"action":"add","todos":[{"id":1,"text":"from the session","done":false}],"nextId":2}`)
	h := startHostWith(t, t.TempDir(), nil, []session.Payload{
		&session.MessageEntry{Message: &core.ToolResultMessage{ToolCallID: "c0", ToolName: "todo", Content: []core.Content{core.TextBlock("Added")}, Details: details}},
	}, "print", "todo.ts")
	if got := text(h.tool(t, "todo", `{"action": "list"}`)); !strings.Contains(got, "from the session") {
		t.Errorf("list: %q", got)
	}
}

// TestContextRewritesRequest: pi's context event (protocol v2) gets each
// request's messages in pi's form and may return others.
func TestContextRewritesRequest(t *testing.T) {
	ext, _ := filepath.Abs("testdata/api/context.ts")
	h := startHost(t, "print", ext)
	msgs := []core.Message{
		&core.UserMessage{Content: []core.Content{core.TextBlock("keep me")}},
		&core.UserMessage{Content: []core.Content{core.TextBlock("[private] drop me")}},
		&core.AssistantMessage{Content: []core.Content{core.TextBlock("an answer")}},
	}
	got, err := h.ic.Context(t.Context(), agent.ContextEvent{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d messages: %+v", len(got), got)
	}
	if u, ok := got[0].(*core.UserMessage); !ok || u.Text() != "keep me" {
		t.Errorf("first %+v", got[0])
	}
	if a, ok := got[1].(*core.AssistantMessage); !ok || a.Content[0].Text != "an answer" {
		t.Errorf("second %+v", got[1])
	}
}
