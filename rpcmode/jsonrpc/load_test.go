//go:build unix

package jsonrpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// TestLoadAnswersAsJSONMarshalWrote: session.load's answer, written a
// message at a time, is byte for byte json.Marshal's encoding of the same
// values, and holds the prompts and answers of the loaded session, tool
// outputs (kept in the file) left out as before.
func TestLoadAnswersAsJSONMarshalWrote(t *testing.T) {
	dir := t.TempDir()
	f := session.Store{Dir: dir}.Create(dir)
	for i, m := range []core.Message{
		&core.UserMessage{Content: []core.Content{core.TextBlock("list <files> & more")}, Timestamp: 1000},
		&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, ID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}},
			Provider: "faux", Model: "faux-1", StopReason: core.StopToolUse, Timestamp: 2000},
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", Content: []core.Content{core.TextBlock(strings.Repeat("file\n", 5000))}, Timestamp: 3000},
		&core.AssistantMessage{Content: []core.Content{core.TextBlock("Here: \"a\" <b>\n```go\nx\n```")}, Provider: "faux", Model: "faux-1",
			Usage: core.Usage{Output: 7}, StopReason: core.StopEnd, Timestamp: 4000},
	} {
		if _, err := f.AppendMessage(m); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	stored := f.FilePath()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	path := serveOn(t, Config{NewAgent: func() (*Agent, error) {
		store := session.Store{Dir: dir}
		sess, err := agent.New(agent.Config{Model: faux.Model, Conversations: agent.NewFileConversations(store, dir, store.Create(dir)),
			Open: func(core.Model) (agent.Connection, error) {
				return agent.Connection{Provider: faux.New(faux.Options{})}, nil
			}})
		if err != nil {
			return nil, err
		}
		return &Agent{Session: sess, Dir: dir, Close: sess.Close}, nil
	}})
	nc, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	r := bufio.NewReader(nc)
	answer := func(request string, id string) []byte {
		t.Helper()
		if _, err := nc.Write([]byte(request + "\n")); err != nil {
			t.Fatal(err)
		}
		for {
			_ = nc.SetReadDeadline(time.Now().Add(waitLimit))
			line, err := r.ReadBytes('\n')
			if err != nil {
				t.Fatalf("no answer to %s: %v", request, err)
			}
			if bytes.Contains(line, []byte(`"id":`+id+`,`)) {
				return line
			}
		}
	}
	answer(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "1")
	got := answer(`{"jsonrpc":"2.0","id":2,"method":"session.load","params":{"path":`+string(mustJSON(t, stored))+`}}`, "2")

	// The old answer: the same values in a map, encoded whole.
	var v struct {
		Result struct {
			Loaded    bool                `json:"loaded"`
			Messages  []transcriptMessage `json:"messages"`
			Session   map[string]any      `json:"session"`
			SessionID string              `json:"session_id"`
		} `json:"result"`
	}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("not JSON: %v: %.300s", err, got)
	}
	res := v.Result
	whole := map[string]any{"loaded": res.Loaded, "session": res.Session, "session_id": res.SessionID, "messages": res.Messages}
	if want := encodeLine(response{JSONRPC: "2.0", ID: json.RawMessage(`2`), Result: whole}); string(got) != string(want) {
		t.Errorf("the answer is not what json.Marshal wrote\n got: %s\nwant: %s", got, want)
	}
	msgs, _ := json.Marshal(res.Messages)
	const want = `[{"role":"user","content":"list \u003cfiles\u003e \u0026 more","timestamp":"1970-01-01T00:00:01Z","token_count":null},` +
		`{"role":"assistant","content":"Here: \"a\" \u003cb\u003e\n` + "```go\\nx\\n```" + `","timestamp":"1970-01-01T00:00:04Z","token_count":7}]`
	if string(msgs) != want || !res.Loaded || res.Session["messages_count"] != float64(4) {
		t.Errorf("messages\n got: %s\nwant: %s\nsession: %v", msgs, want, res.Session)
	}

	// session.export, of the session open and of one named by its id:
	// the markdown as it was built whole.
	var md strings.Builder
	fmt.Fprintf(&md, "# Session %s\n", res.SessionID)
	for _, m := range res.Messages {
		role := "User"
		if m.Role == "assistant" {
			role = "Assistant"
		}
		fmt.Fprintf(&md, "\n## %s (%s)\n\n%s\n", role, m.Timestamp, m.Content)
	}
	for i, params := range []string{`{}`, `{"session_id":` + string(mustJSON(t, res.SessionID)) + `}`} {
		id := fmt.Sprint(3 + i)
		got := answer(`{"jsonrpc":"2.0","id":`+id+`,"method":"session.export","params":`+params+`}`, id)
		wantLine := encodeLine(response{JSONRPC: "2.0", ID: json.RawMessage(id), Result: map[string]any{"format": "markdown", "content": md.String()}})
		if string(got) != string(wantLine) {
			t.Errorf("session.export %s\n got: %s\nwant: %s", params, got, wantLine)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
