package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// strictTool declares its parameters as the built-in bash tool does.
type strictTool struct {
	mu   sync.Mutex
	runs []string
}

func (t *strictTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: "bash", Parameters: json.RawMessage(`{"type":"object","required":["command"],"properties":{"command":{"type":"string"},"timeout":{"type":"number"}}}`)}
}
func (t *strictTool) Category() core.ApprovalCategory { return core.CategoryExec }
func (t *strictTool) Kind() core.ToolKind             { return core.KindExecute }
func (t *strictTool) Execute(_ context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	t.mu.Lock()
	t.runs = append(t.runs, string(call.Arguments))
	t.mu.Unlock()
	return core.TextResult("ran"), nil
}

// recordingApprover allows everything and keeps the arguments it judged.
type recordingApprover struct {
	mu   sync.Mutex
	seen []string
}

func (a *recordingApprover) Check(_ context.Context, _ core.Tool, call core.ToolCall, _ core.Asker) approval.Decision {
	a.mu.Lock()
	a.seen = append(a.seen, string(call.Arguments))
	a.mu.Unlock()
	return approval.Decision{Allow: true, By: approval.ByRule}
}

func TestAmbiguousArgumentsAreRefusedBeforeTheGate(t *testing.T) {
	tests := []struct {
		name, args string
		want       string // in the result the model sees
	}{
		{"case variant beside the key", `{"command":"git status","Command":"touch x"}`, `"command" and "Command" differ only in case`},
		{"case variant alone", `{"Command":"touch x"}`, `"Command" is not a parameter; parameter names are case-sensitive: use "command"`},
		{"duplicate key", `{"command":"git status","command":"touch x"}`, `"command" appears twice`},
		{"unknown field", `{"command":"git status","cwd":"/"}`, `"cwd" is not a parameter`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, gate := &strictTool{}, &recordingApprover{}
			f := newFixture(t, Config{Tools: []core.Tool{tool}, Approver: gate},
				faux.Response{Content: []core.Content{toolCall("c1", "bash", tt.args)}},
				faux.Response{Text: "ok"})
			_ = f.s.Prompt("go", nil, BehaviorNone)
			evs := f.untilSettled()
			if len(tool.runs) != 0 || len(gate.seen) != 0 {
				t.Fatalf("the call reached the tool %q or the gate %q", tool.runs, gate.seen)
			}
			res := f.s.Messages()[2].(*core.ToolResultMessage)
			if !res.IsError || !strings.Contains(res.Text(), tt.want) {
				t.Fatalf("result = %q, want an error containing %q", res.Text(), tt.want)
			}
			// Hosts still see the call start and end.
			var starts, ends int
			for _, e := range evs {
				switch e.(type) {
				case core.ToolExecutionStart:
					starts++
				case core.ToolExecutionEnd:
					ends++
				}
			}
			if starts != 1 || ends != 1 {
				t.Fatalf("%d starts and %d ends, want one each: %s", starts, ends, names(evs))
			}
		})
	}
}

func TestGateEventsAndToolSeeTheSameCanonicalArguments(t *testing.T) {
	tool, gate := &strictTool{}, &recordingApprover{}
	f := newFixture(t, Config{Tools: []core.Tool{tool}, Approver: gate},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", "{ \"command\" : \"git \\u0073tatus\\ud800\" }")}},
		faux.Response{Text: "ok"})
	_ = f.s.Prompt("go", nil, BehaviorNone)
	evs := f.untilSettled()
	const want = `{"command":"git status` + "\uFFFD" + `"}`
	var announced string
	for _, e := range evs {
		if s, ok := e.(core.ToolExecutionStart); ok {
			announced = string(s.Args)
		}
	}
	if announced != want || len(gate.seen) != 1 || gate.seen[0] != want || len(tool.runs) != 1 || tool.runs[0] != want {
		t.Fatalf("announced %q, gate saw %q, tool got %q; want all %q", announced, gate.seen, tool.runs, want)
	}
}
