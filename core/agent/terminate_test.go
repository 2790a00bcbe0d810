package agent

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// terminating is a tool whose result asks to end the run when its call's
// arguments say so (pi's terminate hint).
func terminating() *fakeTool {
	return &fakeTool{name: "out", run: func(_ context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
		r := core.TextResult("saved")
		r.Terminate = string(call.Arguments) == `{"end":true}`
		return r, nil
	}}
}

// TestTerminatingToolEndsTheRun: when every result of an answer's tool
// calls asks to terminate, the model is not asked again (pi's agent loop);
// one call that does not keeps the run going.
func TestTerminatingToolEndsTheRun(t *testing.T) {
	f := newFixture(t, Config{Tools: []core.Tool{terminating()}},
		faux.Response{Content: []core.Content{toolCall("c1", "out", `{"end":true}`), toolCall("c2", "out", `{"end":true}`)}},
		faux.Response{Text: "not asked"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	f.untilSettled()
	if f.fp.Calls() != 1 {
		t.Errorf("%d requests, want 1: the tools ended the run", f.fp.Calls())
	}
	if msgs := f.s.Messages(); len(msgs) != 4 {
		t.Errorf("%d messages, want the prompt, the answer and two results", len(msgs))
	}

	g := newFixture(t, Config{Tools: []core.Tool{terminating()}},
		faux.Response{Content: []core.Content{toolCall("c1", "out", `{"end":true}`), toolCall("c2", "out", `{}`)}},
		faux.Response{Text: "read them"})
	_ = g.s.Prompt("go", nil, BehaviorNone)
	g.untilSettled()
	if g.fp.Calls() != 2 {
		t.Errorf("%d requests, want 2: one call did not ask to terminate", g.fp.Calls())
	}
}
