package synaps

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/session"
)

// TestGetMessagesStreamed: get_messages of a resumed session whose tool
// outputs stay in the session file writes the bytes the whole encoding
// wrote, the outputs read back as the frame is written.
func TestGetMessagesStreamed(t *testing.T) {
	dir := t.TempDir()
	f := session.Store{Dir: dir}.Create(dir)
	big := strings.Repeat("output <line> & \"more\" é\n", 4000) // 100 KB: kept in the file
	for _, m := range []core.Message{
		&core.UserMessage{Content: []core.Content{core.TextBlock("run <it>")}, Timestamp: 1},
		&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, ID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command":"x"}`)}},
			Provider: "faux", Model: "faux-1", StopReason: core.StopToolUse, Timestamp: 2},
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", Content: []core.Content{core.TextBlock(big)}, Timestamp: 3},
		&core.AssistantMessage{Content: []core.Content{core.TextBlock("done")}, Provider: "faux", Model: "faux-1", StopReason: core.StopEnd, Timestamp: 4},
	} {
		if _, err := f.AppendMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	path := f.FilePath()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fresh := session.Store{Dir: dir}.Create(dir)
	t.Cleanup(func() { fresh.Close() })
	r := newRig(t, rigConfig{cwd: t.TempDir(), conversations: agent.NewFileConversations(session.Store{Dir: dir}, dir, fresh)})
	if err := r.sess.OpenConversation(filepath.Clean(path)); err != nil {
		t.Fatal(err)
	}
	r.ready()
	msgs := r.sess.Messages()
	if tr, ok := msgs[2].(*core.ToolResultMessage); !ok || !core.HasStored(tr.Content) {
		t.Fatalf("the tool output is not kept in the file: %#v", msgs[2])
	}
	r.send(map[string]any{"type": "get_messages", "id": "m"})
	id := "m"
	got := r.rawLine()
	if want := string(responseFrame(&id, "get_messages", body{"ok": true, "messages": msgs})); got != want {
		t.Errorf("streamed frame differs from the whole one (%d and %d bytes)\n got: %.300s\nwant: %.300s", len(got), len(want), got, want)
	}
	if !strings.Contains(got, `output \u003cline\u003e \u0026 \"more\" é\n`) {
		t.Errorf("the tool output is missing: %.300s", got)
	}
}
