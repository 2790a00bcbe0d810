package synaps

import (
	"io"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// An abort during compaction cancels it: the compact response says so,
// then the abort is answered.
func TestAbortCancelsACompaction(t *testing.T) {
	// Paced so that the answer takes a moment and the summary a minute.
	p := faux.New(faux.Options{ChunkSize: 40, TokensPerSecond: 400}, faux.Response{Text: strings.Repeat("a long answer ", 20)})
	p.Push(faux.Response{Text: strings.Repeat("a very slow summary ", 1200)})
	r := newRig(t, rigConfig{faux: p, compaction: agentCompaction()})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "p", "message": "hi"})
	r.until(responseTo("prompt", "p"))
	r.send(map[string]any{"type": "compact", "id": "c"})
	if f := r.next(); !responseTo("compact.disclosure", "c")(f) {
		t.Fatalf("disclosure: %v", f)
	}
	r.send(map[string]any{"type": "prompt", "id": "busy", "message": "now?"})
	r.send(map[string]any{"type": "abort", "id": "x"})
	got := r.until(responseTo("abort", "x"))
	if types(got) != "error response(compact) response(abort)" {
		t.Fatalf("frames: %s %v", types(got), got)
	}
	if got[0].str("id") != "busy" || got[1]["ok"] != false || got[1]["cancelled"] != true {
		t.Fatalf("frames: %v", got)
	}
}

// Commands that fail answer with ok:false and say why.
func TestFailuresAnswerOKFalse(t *testing.T) {
	r := newRig(t, rigConfig{})
	r.ready()
	r.send(map[string]any{"type": "set_model", "id": "m", "model": "no-such-model"})
	if f := r.next(); !responseTo("set_model", "m")(f) || f["ok"] != false || !strings.Contains(f.str("error"), "no-such-model") {
		t.Fatalf("set_model: %v", f)
	}
	r.send(map[string]any{"type": "prompt", "id": "e", "message": "   "})
	if f := r.next(); !responseTo("prompt", "e")(f) || f["ok"] != false || f.str("outcome") != "rejected" {
		t.Fatalf("empty prompt: %v", f)
	}
	r.send(map[string]any{"type": "compact", "id": "c"})
	r.next() // the disclosure
	if f := r.next(); !responseTo("compact", "c")(f) || f["ok"] != false || f.str("error") == "" {
		t.Fatalf("compacting an empty conversation: %v", f)
	}
}

// follow_up while idle starts a turn answered under its own name.
func TestFollowUpWhileIdleIsAPrompt(t *testing.T) {
	p := faux.New(faux.Options{}, faux.Response{Text: "sure", Usage: &core.Usage{Input: 2, Output: 1}})
	r := newRig(t, rigConfig{faux: p})
	r.ready()
	r.send(map[string]any{"type": "follow_up", "id": "f", "message": "more"})
	got := r.until(responseTo("follow_up", "f"))
	if types(got) != "text_delta agent_end response(follow_up)" || got[2]["ok"] != true {
		t.Fatalf("frames: %s", types(got))
	}
}

// endless is an input with no newline for n bytes, then a short line.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	for i := range k {
		p[i] = 'x'
	}
	e.n -= k
	return k, nil
}

// An abort while a tool runs cancels the turn too.
func TestAbortDuringAToolCall(t *testing.T) {
	p := faux.New(faux.Options{})
	p.Push(faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "call_1", Name: "bash", Arguments: []byte(`{"command":"echo started; sleep 30"}`)}}})
	r := newRig(t, rigConfig{faux: p, mode: approval.ModeYolo})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "p", "message": "run"})
	r.until(func(f frame) bool { return f.event().str("type") == "toolcall_input" })
	r.send(map[string]any{"type": "abort", "id": "x"})
	got := r.until(responseTo("abort", "x"))
	n := len(got)
	if n < 3 || got[n-3].str("type") != "agent_end" || got[n-2]["cancelled"] != true {
		t.Fatalf("frames: %s %v", types(got), got[n-2])
	}
}
