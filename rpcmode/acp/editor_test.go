package acp

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// The permission request keeps the card's own title (Zed keeps the last
// title a card was sent) and offers one "always" option, named for the
// rule it remembers for this session.
func TestPermissionKeepsCardTitleAndOneAlways(t *testing.T) {
	r, _, _, perm := editFlow(t, editCall("call_1", "a.txt", "one", "two"), faux.Response{Text: "done"})
	want := ""
	for _, l := range r.out.all() {
		if l.str("params.update.sessionUpdate") == "tool_call" && l.str("params.update.toolCallId") == "call_1" {
			want = l.str("params.update.title")
		}
	}
	if got := perm.str("params.toolCall.title"); got != want || strings.HasPrefix(got, "Allow") {
		t.Errorf("permission title = %q, want the card's %q", got, want)
	}
	var always []map[string]any
	for _, o := range perm.get("params.options").([]any) {
		if m := o.(map[string]any); m["kind"] == "allow_always" {
			always = append(always, m)
		}
	}
	if len(always) != 1 {
		t.Fatalf("allow_always options = %v, want exactly one", always)
	}
	if name, _ := always[0]["name"].(string); !strings.Contains(name, "a.txt") || !strings.Contains(name, "this session") {
		t.Errorf("always option name = %q, want it to say the file it allows and for how long", name)
	}
	if always[0]["optionId"] != "allow_session" {
		t.Errorf("always option = %v, want the session rule (nothing written to the project)", always[0])
	}
	r.answer(perm, selected("allow_session"))
	r.update("tool_call_update", map[string]any{"toolCallId": "call_1", "status": "completed"})
}

// Each retry is shown as it starts, so the editor is not left silent while
// cairn waits to try again.
func TestRetryIsVisible(t *testing.T) {
	r := newRig(t, rigConfig{retry: true})
	r.faux.PushStep(func(*provider.Request) (faux.Response, error) {
		return faux.Response{}, &provider.Error{Status: 500, Message: "internal server error", Retryable: true}
	})
	r.faux.Push(faux.Response{Text: "recovered"})
	sid := r.newSession()
	id := r.prompt(sid, "hi")
	thought := r.update("agent_thought_chunk", nil)
	if text := thought.str("params.update.content.text"); !strings.Contains(text, "retrying in 2s") || !strings.Contains(text, "attempt 1 of 2") || !strings.Contains(text, "internal server error") {
		t.Errorf("retry update = %q", text)
	}
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
}

// A binary attachment or an audio clip is left out with a notice to the
// person and a line the model reads; the prompt still runs.
func TestBinaryAttachmentsAreSkippedWithANotice(t *testing.T) {
	r := newRig(t, rigConfig{responses: []faux.Response{{Text: "read the text"}}})
	sid := r.newSession()
	id := r.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{
		map[string]any{"type": "text", "text": "summarise"},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///x/report.pdf", "blob": "JVBERi0=", "mimeType": "application/pdf"}},
		map[string]any{"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
	}})
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Fatalf("stopReason = %q, want the prompt to run", got)
	}
	var notices []string
	for _, l := range r.out.all() {
		if l.str("params.update.sessionUpdate") == "agent_message_chunk" && strings.Contains(l.str("params.update.content.text"), "left out") {
			notices = append(notices, l.str("params.update.content.text"))
		}
	}
	if len(notices) != 2 || !strings.Contains(notices[0], "report.pdf (application/pdf)") || !strings.Contains(notices[1], "audio clip (audio/wav)") {
		t.Errorf("notices = %q", notices)
	}
	u := r.sess.Messages()[0].(*core.UserMessage)
	if text := u.Text(); !strings.Contains(text, "summarise") || !strings.Contains(text, "report.pdf") || !strings.Contains(text, "left out") {
		t.Errorf("the model reads %q", text)
	}
}

// Images sent to a model that takes none are refused with a message,
// not dropped while the turn ends as if the model had seen them.
func TestImageToATextOnlyModelIsRefused(t *testing.T) {
	textOnly := faux.Model
	textOnly.ID, textOnly.Input = "faux-text", []string{"text"}
	r := newRig(t, rigConfig{models: []core.Model{textOnly}})
	sid := r.newSession()
	res := r.response(r.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{
		map[string]any{"type": "text", "text": "what is this"},
		map[string]any{"type": "image", "data": "aGk=", "mimeType": "image/png"},
	}}))
	if res.get("error.code") != float64(CodeInvalidParams) || !strings.Contains(res.str("error.message"), "does not take images") {
		t.Errorf("image to a text-only model: %s", res.text)
	}
	if n := len(r.sess.Messages()); n != 0 {
		t.Errorf("%d messages stored for a refused prompt", n)
	}
}

// An MCP tool's card names the tool, also when its arguments hold a
// command or a path that would otherwise be the whole title.
func TestMCPToolCardNamesTheTool(t *testing.T) {
	h := rigHost(t, t.TempDir(), rigConfig{}, faux.New(faux.Options{}))
	defer h.Session.Close()
	s := newServer(h, io.Discard)
	defer s.first.sub.Stop()
	for args, want := range map[string]string{
		`{"command":"ls -la"}`: "mcp__box__run ls -la",
		`{"path":"notes.md"}`:  "mcp__box__run notes.md",
		`{}`:                   "mcp__box__run",
	} {
		if _, title, _ := s.describe(s.first, "mcp__box__run", []byte(args), false); title != want {
			t.Errorf("title for %s = %q, want %q", args, title, want)
		}
	}
	if _, title, _ := s.describe(s.first, "bash", []byte(`{"command":"ls -la"}`), false); title != "ls -la" {
		t.Errorf("bash title = %q", title)
	}
}

// After session/load, an edit's card ends showing its diff, as it did
// live, not only the tool's "Successfully replaced" text.
func TestLoadReplaysEditDiffs(t *testing.T) {
	r := newRig(t, rigConfig{files: true, mode: approval.ModeYolo, responses: []faux.Response{
		editCall("call_e", "a.txt", "one", "two"), {Text: "edited"}}})
	writeFile(t, filepath.Join(r.cwd, "a.txt"), "one\n")
	sid := r.newSession()
	r.response(r.prompt(sid, "edit it"))
	from := len(r.out.all())
	r.result("session/load", map[string]any{"sessionId": sid, "cwd": r.cwd, "mcpServers": []any{}})
	var done *line
	for _, l := range r.out.all()[from:] {
		if l.str("params.update.toolCallId") == "call_e" && l.str("params.update.status") == "completed" {
			done = l
		}
	}
	if done == nil {
		t.Fatalf("no replayed completion of the edit:\n%s", r.out.dump(from))
	}
	content, _ := done.get("params.update.content").([]any)
	if len(content) != 1 || content[0].(map[string]any)["type"] != "diff" || content[0].(map[string]any)["newText"] != "two" {
		t.Errorf("replayed edit content = %v, want its diff", content)
	}
}

// An untrusted project's trust is offered once, through
// session/request_permission, without holding up the turn; accepting
// records it and says so in the session.
func TestTrustOfferedOnce(t *testing.T) {
	trusted := make(chan struct{}, 2)
	r := newRig(t, rigConfig{responses: []faux.Response{{Text: "first"}, {Text: "second"}},
		startNotice: "project /p is not trusted, so cairn ignores its AGENTS.md",
		trust:       func() error { trusted <- struct{}{}; return nil }})
	sid := r.newSession()
	id := r.prompt(sid, "one")
	offer := r.request("session/request_permission")
	if !strings.HasPrefix(offer.str("params.toolCall.toolCallId"), "cairn-trust-") || !strings.Contains(offer.text, "AGENTS.md") {
		t.Errorf("trust offer = %s", offer.text)
	}
	// The turn ends without the answer.
	if got := r.response(id).str("result.stopReason"); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	r.answer(offer, selected("trust_project"))
	// Set apart from the answer it follows ("first"), not glued to it.
	r.update("agent_message_chunk", map[string]any{"content.text": "\n\n> cairn: Trusted " + r.cwd + ": threads you open from now on use its files.\n\n"})
	select {
	case <-trusted:
	default:
		t.Error("accepting the offer did not record trust")
	}
	r.response(r.prompt(sid, "two"))
	for _, l := range r.out.all() {
		if l.get("method") == "session/request_permission" && l != offer {
			t.Errorf("trust offered again: %s", l.text)
		}
	}
}
