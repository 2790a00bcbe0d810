package synaps

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// Check 1: ready{session_id, model, protocol_version:1} comes first, fast.
func TestReadyComesFirst(t *testing.T) {
	start := time.Now()
	r := newRig(t, rigConfig{})
	f := r.ready()
	if time.Since(start) > 2*time.Second {
		t.Errorf("ready took %v", time.Since(start))
	}
	if f["protocol_version"] != float64(1) || f.str("model") != faux.Model.ID || f.str("session_id") != r.sess.Conversation().ID || f.str("session_id") == "" {
		t.Fatalf("ready = %v", f)
	}
}

// Check 2: every command but shutdown gets a response with its id and a
// flattened body.
func TestEveryCommandGetsItsResponse(t *testing.T) {
	r := newRig(t, rigConfig{})
	r.ready()
	cases := []struct {
		cmd  map[string]any
		keys []string
	}{
		{map[string]any{"type": "get_state", "id": "a"}, []string{"streaming", "model", "session_id", "message_count"}},
		{map[string]any{"type": "get_session_stats", "id": "b"}, []string{"input_tokens", "output_tokens", "cost", "message_count", "model", "session_id"}},
		{map[string]any{"type": "get_messages", "id": "c"}, []string{"messages"}},
		{map[string]any{"type": "get_available_models", "id": "d"}, []string{"models"}},
		{map[string]any{"type": "set_model", "id": "e", "model": faux.Model.ID}, []string{"model"}},
		{map[string]any{"type": "abort", "id": "f"}, nil},
		{map[string]any{"type": "new_session", "id": "g"}, []string{"session_id"}},
		{map[string]any{"type": "tools_list", "id": "h"}, []string{"tools"}},
	}
	for _, c := range cases {
		r.send(c.cmd)
		f := r.next()
		id, command := c.cmd["id"].(string), c.cmd["type"].(string)
		if f.str("type") != "response" || f.str("id") != id || f.str("command") != command || f["ok"] != true {
			t.Errorf("%s: got %v", command, f)
			continue
		}
		for _, k := range c.keys {
			if _, ok := f[k]; !ok {
				t.Errorf("%s: response lacks top-level %q: %v", command, k, f)
			}
		}
	}
	// tools_list also without an id, as the bridge sends it.
	r.raw(`{"type":"tools_list"}` + "\n")
	f := r.next()
	if f.str("command") != "tools_list" || f["id"] != nil || f["ok"] != true {
		t.Fatalf("tools_list without id: %v", f)
	}
	tools, _ := f["tools"].([]any)
	names := map[string]bool{}
	for _, x := range tools {
		tool := frame(x.(map[string]any))
		if tool.str("name") == "" || tool.str("description") == "" || tool["input_schema"] == nil {
			t.Errorf("tool entry %v lacks name, description or input_schema", tool)
		}
		names[tool.str("name")] = true
	}
	for _, want := range []string{"read", "bash", "edit", "write"} {
		if !names[want] {
			t.Errorf("tools_list lacks %s: %v", want, names)
		}
	}
}

// Check 3: malformed frames and frames over 1 MiB get error{id:null} and
// the child stays alive.
func TestBadFramesGetErrorsAndServingGoesOn(t *testing.T) {
	r := newRig(t, rigConfig{})
	r.ready()
	bad := []string{
		"garbage",
		"[1,2]",
		"null",
		`{"type":"prompt","id":`,
		strings.Repeat("x", MaxFrameBytes+1),
		`{"id":"` + strings.Repeat("y", MaxFrameBytes) + `","type":"get_state"}`,
	}
	for _, line := range bad {
		r.raw(line + "\n")
		f := r.next()
		if f.str("type") != "error" || f["id"] != nil || f.str("message") == "" {
			t.Fatalf("for %.40q: got %v", line, f)
		}
		if _, ok := f["id"]; !ok {
			t.Fatalf("error frame has no id key: %v", f)
		}
	}
	// A frame exactly at the limit is served.
	pad := MaxFrameBytes - len(`{"type":"get_state","id":"ok","pad":""}`)
	r.raw(`{"type":"get_state","id":"ok","pad":"` + strings.Repeat("z", pad) + `"}` + "\r\n")
	if f := r.next(); f.str("id") != "ok" || f.str("type") != "response" {
		t.Fatalf("frame at the limit: %v", f)
	}
	// Valid JSON that is not a usable command names the problem and keeps
	// the id it could read.
	r.raw(`{"type":"frobnicate","id":"u"}` + "\n")
	if f := r.next(); f.str("type") != "error" || f.str("id") != "u" || !strings.Contains(f.str("message"), "frobnicate") {
		t.Fatalf("unknown command: %v", f)
	}
	r.raw(`{"type":"prompt","id":"m"}` + "\n")
	if f := r.next(); f.str("type") != "error" || f.str("id") != "m" || !strings.Contains(f.str("message"), `"message"`) {
		t.Fatalf("prompt without message: %v", f)
	}
	r.send(map[string]any{"type": "get_state", "id": "alive"})
	if f := r.next(); !responseTo("get_state", "alive")(f) {
		t.Fatalf("not alive after bad frames: %v", f)
	}
}

// Check 4: a prompt streams message_update frames, then agent_end{usage},
// then response{prompt, ok:true}; a second prompt meanwhile gets error{id}
// and the first carries on.
func TestPromptStreamsAndRefusesASecondOne(t *testing.T) {
	release := make(chan struct{})
	p := faux.New(faux.Options{ChunkSize: 4})
	p.PushStep(func(*provider.Request) (faux.Response, error) {
		<-release
		u := core.Usage{Input: 11, Output: 7, CacheRead: 3}
		return faux.Response{Thinking: "let me see", Text: "Hello there", Usage: &u}, nil
	})
	r := newRig(t, rigConfig{faux: p})
	var releaseOnce sync.Once
	free := func() { releaseOnce.Do(func() { close(release) }) }
	t.Cleanup(free) // before the rig's: a failed check must not leave the turn blocked
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "p1", "message": "hi"})
	r.send(map[string]any{"type": "follow_up", "id": "p2", "message": "and more"})
	if f := r.next(); f.str("type") != "error" || f.str("id") != "p2" || f.str("message") != busyMessage {
		t.Fatalf("second prompt: %v", f)
	}
	r.send(map[string]any{"type": "prompt", "id": "p3", "message": "and more"})
	if f := r.next(); f.str("type") != "error" || f.str("id") != "p3" {
		t.Fatalf("third prompt: %v", f)
	}
	// SynapsCLI's new_session_rejected_while_streaming: an error frame
	// carrying the id and "abort first", and the turn goes on.
	r.send(map[string]any{"type": "new_session", "id": "ns1"})
	if f := r.next(); f.str("type") != "error" || f.str("id") != "ns1" || !strings.Contains(f.str("message"), "abort first") {
		t.Fatalf("new_session during the turn: %v", f)
	}
	r.send(map[string]any{"type": "get_state", "id": "s"})
	if f := r.next(); !responseTo("get_state", "s")(f) || f["streaming"] != true {
		t.Fatalf("get_state during the turn: %v", f)
	}
	free()
	got := r.until(responseTo("prompt", "p1"))
	var text, thinking strings.Builder
	for _, f := range got {
		switch f.event().str("type") {
		case "text_delta":
			text.WriteString(f.event().str("delta"))
		case "thinking_delta":
			thinking.WriteString(f.event().str("delta"))
		}
	}
	if text.String() != "Hello there" || thinking.String() != "let me see" {
		t.Fatalf("streamed text %q thinking %q; frames %s", text.String(), thinking.String(), types(got))
	}
	n := len(got)
	end, resp := got[n-2], got[n-1]
	if end.str("type") != "agent_end" || resp["ok"] != true {
		t.Fatalf("turn ends with %s", types(got[n-2:]))
	}
	usage := frame(end["usage"].(map[string]any))
	if usage["input_tokens"] != float64(11) || usage["output_tokens"] != float64(7) || usage["cache_read_input_tokens"] != float64(3) || usage.str("model") != faux.Model.ID {
		t.Fatalf("usage = %v", usage)
	}
	for _, f := range got[:n-2] {
		if f.str("type") != "message_update" {
			t.Fatalf("before agent_end: %s", types(got))
		}
	}
	// Only one turn ran: the refused prompts reached no model.
	if p.Calls() != 1 {
		t.Fatalf("the model was asked %d times, want 1", p.Calls())
	}
}

// Tool calls stream as toolcall_start, input deltas, the input and the
// result. A call that needs approval is refused (nobody can be asked)
// and the model sees the refusal as an error result.
func TestToolCallsStreamAndUnapprovedOnesAreRefused(t *testing.T) {
	var mu sync.Mutex
	var seen *core.ToolResultMessage
	p := faux.New(faux.Options{ChunkSize: 5})
	p.Push(faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "call_1", Name: "bash", Arguments: []byte(`{"command":"touch pwned"}`)}}})
	p.PushStep(func(req *provider.Request) (faux.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		seen, _ = req.Messages[len(req.Messages)-1].(*core.ToolResultMessage)
		return faux.Response{Text: "ok"}, nil
	})
	cwd := t.TempDir()
	r := newRig(t, rigConfig{faux: p, cwd: cwd})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "t", "message": "run it"})
	got := r.until(responseTo("prompt", "t"))
	want := "toolcall_start toolcall_input_delta"
	if !strings.HasPrefix(types(got), want) || !strings.Contains(types(got), "toolcall_input toolcall_result text_delta agent_end response(prompt)") {
		t.Fatalf("frames: %s", types(got))
	}
	var input string
	for _, f := range got {
		e := f.event()
		switch e.str("type") {
		case "toolcall_start":
			if e.str("tool_id") != "call_1" || e.str("tool_name") != "bash" {
				t.Errorf("start = %v", e)
			}
		case "toolcall_input_delta":
			input += e.str("delta")
		case "toolcall_input":
			if cmd, _ := e["input"].(map[string]any)["command"].(string); cmd != "touch pwned" {
				t.Errorf("input = %v", e)
			}
		case "toolcall_result":
			if e.str("tool_id") != "call_1" || !strings.Contains(e.str("result"), "needs approval") {
				t.Errorf("result = %v", e)
			}
		}
	}
	if input != `{"command":"touch pwned"}` {
		t.Errorf("input deltas joined = %q", input)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen == nil || !seen.IsError {
		t.Fatalf("the model saw %+v, want an error result", seen)
	}
	if _, err := os.Stat(filepath.Join(cwd, "pwned")); err == nil {
		t.Fatal("the refused command ran")
	}
}

// With --approval yolo the host asked for unattended runs: the call runs.
func TestYoloRunsToolCalls(t *testing.T) {
	p := faux.New(faux.Options{})
	p.Push(faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "call_1", Name: "bash", Arguments: []byte(`{"command":"echo ran"}`)}}})
	p.Push(faux.Response{Text: "ok"})
	r := newRig(t, rigConfig{faux: p, mode: approval.ModeYolo})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "y", "message": "run it"})
	results := 0
	for _, f := range r.until(responseTo("prompt", "y")) {
		if e := f.event(); e.str("type") == "toolcall_result" {
			results++
			if strings.TrimSpace(e.str("result")) != "ran" {
				t.Fatalf("result = %q", e.str("result"))
			}
		}
	}
	if results != 1 {
		t.Fatalf("%d toolcall_result frames, want 1", results)
	}
}

// The error path: error{id}, then agent_end, then response{ok:false}.
func TestFailedTurnSaysSoInOrder(t *testing.T) {
	p := faux.New(faux.Options{}, faux.Response{Text: "partial", Error: "upstream exploded"})
	r := newRig(t, rigConfig{faux: p})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "e", "message": "hi"})
	got := r.until(responseTo("prompt", "e"))
	n := len(got)
	if n < 3 || got[n-3].str("type") != "error" || got[n-3].str("id") != "e" || got[n-2].str("type") != "agent_end" {
		t.Fatalf("frames: %s", types(got))
	}
	resp := got[n-1]
	if resp["ok"] != false || !strings.Contains(resp.str("error"), "upstream exploded") || resp.str("outcome") != "error" {
		t.Fatalf("response = %v", resp)
	}
	// The process carries on.
	r.send(map[string]any{"type": "get_state", "id": "s"})
	if f := r.next(); !responseTo("get_state", "s")(f) || f["streaming"] != false {
		t.Fatalf("after a failed turn: %v", f)
	}
}

// Check 5: abort gives agent_end, response(prompt, cancelled), then
// response(abort); an idle abort answers ok at once.
func TestAbortEndsTheTurnInOrder(t *testing.T) {
	p := faux.New(faux.Options{ChunkSize: 1, TokensPerSecond: 20}, faux.Response{Text: strings.Repeat("slow words ", 200)})
	p.Push(faux.Response{Text: "after"})
	r := newRig(t, rigConfig{faux: p})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "p", "message": "talk"})
	if f := r.next(); f.event().str("type") != "text_delta" {
		t.Fatalf("first frame of the turn: %v", f)
	}
	r.send(map[string]any{"type": "abort", "id": "x"})
	got := r.until(responseTo("abort", "x"))
	n := len(got)
	if n < 3 || got[n-3].str("type") != "agent_end" || !responseTo("prompt", "p")(got[n-2]) {
		t.Fatalf("frames: %s", types(got))
	}
	if got[n-2]["ok"] != true || got[n-2]["cancelled"] != true || got[n-1]["ok"] != true {
		t.Fatalf("responses: %v %v", got[n-2], got[n-1])
	}
	// Idle abort, and the session takes a new prompt.
	r.send(map[string]any{"type": "abort", "id": "y"})
	if f := r.next(); !responseTo("abort", "y")(f) || f["ok"] != true {
		t.Fatalf("idle abort: %v", f)
	}
	r.send(map[string]any{"type": "prompt", "id": "q", "message": "again"})
	got = r.until(responseTo("prompt", "q"))
	if got[len(got)-1]["ok"] != true || got[len(got)-1]["cancelled"] != nil {
		t.Fatalf("prompt after abort: %s %v", types(got), got[len(got)-1])
	}
}

// Check 6: new_session changes the session id; compact answers with the
// disclosure before the model is asked, then with the summary.
func TestNewSessionAndCompact(t *testing.T) {
	asked := make(chan struct{})
	p := faux.New(faux.Options{}, faux.Response{Text: strings.Repeat("a long answer ", 50)})
	p.PushStep(func(*provider.Request) (faux.Response, error) {
		close(asked)
		return faux.Response{Text: "SUMMARY: the user said hi."}, nil
	})
	r := newRig(t, rigConfig{faux: p, compaction: agentCompaction()})
	first := r.ready().str("session_id")
	r.send(map[string]any{"type": "prompt", "id": "p", "message": "hi"})
	r.until(responseTo("prompt", "p"))
	r.send(map[string]any{"type": "compact", "id": "c"})
	d := r.next()
	if !responseTo("compact.disclosure", "c")(d) || !strings.Contains(d.str("disclosure"), "faux") {
		t.Fatalf("first compact frame: %v", d)
	}
	f := r.next()
	if !responseTo("compact", "c")(f) || f["ok"] != true || !strings.Contains(f.str("summary"), "SUMMARY") || f.str("disclosure") != d.str("disclosure") {
		t.Fatalf("compact: %v", f)
	}
	select {
	case <-asked:
	default:
		t.Fatal("compact answered without asking the model")
	}
	r.send(map[string]any{"type": "new_session", "id": "n"})
	f = r.next()
	if !responseTo("new_session", "n")(f) || f.str("session_id") == "" || f.str("session_id") == first {
		t.Fatalf("new_session: %v (first %s)", f, first)
	}
	r.send(map[string]any{"type": "get_state", "id": "s"})
	if f := r.next(); f.str("session_id") != r.sess.Conversation().ID || f["message_count"] != float64(0) {
		t.Fatalf("state after new_session: %v", f)
	}
}

// Check 7 (in process): shutdown and EOF end Serve cleanly; shutdown
// aborts a running turn and its last frames are written first.
func TestShutdownAndEOFEndServing(t *testing.T) {
	t.Run("shutdown", func(t *testing.T) {
		p := faux.New(faux.Options{ChunkSize: 1, TokensPerSecond: 20}, faux.Response{Text: strings.Repeat("slow ", 400)})
		r := newRig(t, rigConfig{faux: p})
		r.ready()
		r.send(map[string]any{"type": "prompt", "id": "p", "message": "talk"})
		r.next()
		r.raw(`{"type":"shutdown"}` + "\n")
		got := r.until(responseTo("prompt", "p"))
		if got[len(got)-1]["cancelled"] != true || got[len(got)-2].str("type") != "agent_end" {
			t.Fatalf("frames: %s", types(got))
		}
		select {
		case err := <-r.done:
			r.done <- err
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Serve did not return within 5s of shutdown")
		}
	})
	t.Run("eof", func(t *testing.T) {
		r := newRig(t, rigConfig{})
		r.ready()
		if err := r.closeInput(); err != nil {
			t.Fatal(err)
		}
	})
}

// Attachments reach the model as a note naming them; bad paths are
// refused.
func TestAttachmentsBecomeANote(t *testing.T) {
	var mu sync.Mutex
	var text string
	p := faux.New(faux.Options{})
	p.PushStep(func(req *provider.Request) (faux.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		text = req.Messages[len(req.Messages)-1].(*core.UserMessage).Text()
		return faux.Response{Text: "seen"}, nil
	})
	r := newRig(t, rigConfig{faux: p})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "a", "message": "look", "attachments": []any{
		map[string]any{"path": "/tmp/a b.png", "mime": "image/png"}, map[string]any{"path": "/srv/notes.txt"}}})
	r.until(responseTo("prompt", "a"))
	mu.Lock()
	if text != "[user attached files: \"/tmp/a b.png\", \"/srv/notes.txt\"]\n\nlook" {
		t.Errorf("the model saw %q", text)
	}
	mu.Unlock()
	for _, bad := range []string{"relative.txt", "/etc/../etc/passwd"} {
		r.send(map[string]any{"type": "prompt", "id": "b", "message": "look", "attachments": []any{map[string]any{"path": bad}}})
		if f := r.next(); f.str("type") != "error" || f.str("id") != "b" || !strings.Contains(f.str("message"), "attachments[0]") {
			t.Errorf("%s: %v", bad, f)
		}
	}
}
