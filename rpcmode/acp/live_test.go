package acp

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// fixedLive serves the sessions it holds.
type fixedLive []LiveSession

func (f fixedLive) Sessions() []LiveSession { return f }

func (f fixedLive) Find(id string) (LiveSession, error) {
	for _, l := range f {
		if l.Host.Session.Conversation().ID == id {
			return l, nil
		}
	}
	return LiveSession{}, errors.New("no live session " + id)
}

// attachRig is a client attached with ServeLive.
func attachRig(t *testing.T, h Host, live Live) *rig {
	t.Helper()
	pr, pw := io.Pipe()
	r := &rig{t: t, cwd: h.Cwd, sess: h.Session, in: pw, out: newLineSink(), done: make(chan error, 1), nextID: 1}
	go func() { r.done <- ServeLive(context.Background(), pr, r.out, Host{Version: "test"}, live) }()
	t.Cleanup(func() { r.close() })
	r.result("initialize", map[string]any{"protocolVersion": 1})
	return r
}

// Issue 42: two clients attach to a session another front end owns. Each
// sees the prompts of the others; a question goes to both and the first
// answer wins (the other's request is withdrawn); a client that goes
// leaves the session and its turn running.
func TestAttachedClients(t *testing.T) {
	cwd := t.TempDir()
	fp := faux.New(faux.Options{},
		toolCallResponse("call_1", "bash", `{"command":"touch made"}`),
		faux.Response{Text: "made it"},
		faux.Response{Text: "second answer"},
		faux.Response{Text: "owner answer"},
	)
	h := rigHost(t, cwd, rigConfig{mode: approval.ModeDefault}, fp)
	t.Cleanup(h.Session.Close)
	if err := h.Session.NewConversation(""); err != nil {
		t.Fatal(err)
	}
	live := fixedLive{{Host: h, Front: "tui", Started: time.Now()}}
	sid := h.Session.Conversation().ID

	a := attachRig(t, h, live)
	listed := a.result("session/list", map[string]any{})
	if ss, _ := listed["sessions"].([]any); len(ss) != 1 || ss[0].(map[string]any)["sessionId"] != sid {
		t.Fatalf("session/list: %v", listed)
	}
	if got := a.result("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}); got["sessionId"] != sid {
		t.Fatalf("session/new attached to %v, want %s", got["sessionId"], sid)
	}
	b := attachRig(t, h, live)
	// Named from elsewhere, the session says where it works.
	elsewhere := t.TempDir()
	b.result("session/load", map[string]any{"sessionId": sid, "cwd": elsewhere, "mcpServers": []any{}})
	if !strings.Contains(b.out.dump(0), "this session works in "+cwd+", not in "+elsewhere) {
		t.Errorf("no notice of the session's own directory:\n%s", b.out.dump(0))
	}
	// A, already there, is told B came.
	a.update("agent_thought_chunk", map[string]any{"content.text": "cairn: An attached client (a client) joined this session\n"})

	p := a.prompt(sid, "make the file")
	reqA := a.request("session/request_permission")
	b.update("user_message_chunk", map[string]any{"content.text": "make the file"})
	reqB := b.request("session/request_permission")
	b.answer(reqB, selected(optionOfKind(t, reqB, "allow_once")))
	cancel := a.wait("$/cancel_request", func(l *line) bool { return l.get("method") == "$/cancel_request" })
	if cancel.get("params.requestId") != reqA.get("id") {
		t.Errorf("withdrew %v, want %v", cancel.get("params.requestId"), reqA.get("id"))
	}
	if r := a.response(p); r.str("result.stopReason") != "end_turn" {
		t.Fatalf("prompt: %s", r.text)
	}
	b.update("agent_message_chunk", map[string]any{"content.text": "made it"})
	if _, err := os.Stat(filepath.Join(cwd, "made")); err != nil {
		t.Errorf("the command allowed by the other client did not run: %v", err)
	}

	// A goes; the session is not aborted and B goes on.
	if err := a.close(); err != nil {
		t.Fatal(err)
	}
	if r := b.response(b.prompt(sid, "again")); r.str("result.stopReason") != "end_turn" {
		t.Fatalf("prompt after the other client left: %s", r.text)
	}
	// The owner's own prompt reaches B as the person's message.
	if err := h.Session.Prompt("from the owner", nil, agent.BehaviorNone); err != nil {
		t.Fatal(err)
	}
	b.update("user_message_chunk", map[string]any{"content.text": "from the owner"})
	b.update("agent_message_chunk", map[string]any{"content.text": "owner answer"})
}

// A client attached while a question waits is asked it too; the answer
// of either ends it.
func TestAttachSeesOpenQuestion(t *testing.T) {
	cwd := t.TempDir()
	fp := faux.New(faux.Options{}, toolCallResponse("call_1", "bash", `{"command":"touch late"}`), faux.Response{Text: "done late"})
	h := rigHost(t, cwd, rigConfig{mode: approval.ModeDefault}, fp)
	t.Cleanup(h.Session.Close)
	events, stop := h.Session.Subscribe()
	defer stop()
	if err := h.Session.Prompt("ask first", nil, agent.BehaviorNone); err != nil {
		t.Fatal(err)
	}
	waitQuestion(t, events)
	live := fixedLive{{Host: h, Front: "rpc", Started: time.Now()}}
	c := attachRig(t, h, live)
	sid := c.result("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})["sessionId"]
	c.update("user_message_chunk", map[string]any{"content.text": "ask first"})
	req := c.request("session/request_permission")
	// Loading it again on the same connection replays it, but does not
	// put the question a second time.
	c.result("session/load", map[string]any{"sessionId": sid, "cwd": cwd, "mcpServers": []any{}})
	c.wait("the commands after the second load", func(l *line) bool {
		return l.str("params.update.sessionUpdate") == "available_commands_update"
	})
	if n := strings.Count(c.out.dump(0), `"method":"session/request_permission"`); n != 1 {
		t.Fatalf("the open question was put %d times", n)
	}
	c.answer(req, selected(optionOfKind(t, req, "allow_once")))
	c.update("agent_message_chunk", map[string]any{"content.text": "done late"})
}

// The attach socket refuses what it cannot do, saying why.
func TestAttachRefusesResume(t *testing.T) {
	cwd := t.TempDir()
	h := rigHost(t, cwd, rigConfig{}, faux.New(faux.Options{}))
	t.Cleanup(h.Session.Close)
	c := attachRig(t, h, fixedLive{})
	l := c.response(c.call("session/resume", map[string]any{"sessionId": "x", "cwd": cwd, "mcpServers": []any{}}))
	if l.get("error") == nil {
		t.Errorf("session/resume on the attach socket: %s", l.text)
	}
	l = c.response(c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}))
	if l.get("error") == nil {
		t.Errorf("session/new with nothing running: %s", l.text)
	}
}

// waitQuestion waits for the session to ask something.
func waitQuestion(t *testing.T, events <-chan core.Event) {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case e := <-events:
			if _, ok := e.(core.Question); ok {
				return
			}
		case <-timeout:
			t.Fatal("the session asked nothing")
		}
	}
}

// A question an attached client cannot ask (an input dialog) is left to
// the owner, never dismissed by the client.
func TestAttachLeavesQuestionsItCannotAsk(t *testing.T) {
	cwd := t.TempDir()
	h := rigHost(t, cwd, rigConfig{}, faux.New(faux.Options{}))
	t.Cleanup(h.Session.Close)
	c := attachRig(t, h, fixedLive{{Host: h, Front: "tui", Started: time.Now()}})
	c.result("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	type result struct {
		ans core.Answer
		out core.Outcome
	}
	asked := make(chan result, 1)
	go func() {
		a, o := h.Session.Ask(context.Background(), core.Question{Kind: core.QuestionInput, Purpose: core.PurposeGeneral, Title: "Your name?"})
		asked <- result{a, o}
	}()
	// The owner answers; had the client dismissed it, Answer would fail.
	events, stop := h.Session.Subscribe()
	defer stop()
	var id string
	for _, q := range h.Session.OpenQuestions() {
		id = q.ID
	}
	timeout := time.After(waitLimit)
	for id == "" {
		select {
		case e := <-events:
			if q, ok := e.(core.Question); ok {
				id = q.ID
			}
		case <-timeout:
			t.Fatal("the question never opened")
		}
	}
	// A notice after it: once the client shows it, the client's writer
	// has handled the question.
	h.Session.Notify(core.NotifyInfo, "after the question")
	c.update("agent_thought_chunk", map[string]any{"content.text": "cairn: after the question\n"})
	if err := h.Session.Answer(id, core.Answer{Value: "Ada"}); err != nil {
		t.Fatalf("the owner could not answer: %v", err)
	}
	if r := <-asked; r.out != core.Answered || r.ans.Value != "Ada" {
		t.Errorf("got %+v", r)
	}
}
