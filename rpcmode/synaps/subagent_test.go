package synaps

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/subagent"
)

func taskCall(id, description, prompt string) core.Content {
	args, _ := json.Marshal(subagent.Args{Description: description, Prompt: prompt, SubagentType: "explore"})
	return core.Content{Type: core.ContentToolCall, ID: id, Name: subagent.ToolName, Arguments: args}
}

// Two task calls in one answer: each child is reported as seed 002 says,
// subagent_start, subagent_update, subagent_done in that order, with its
// fields; both tasks' results follow, and agent_end's usage counts the
// children's.
func TestSubagentEventsAsTheSeedDefinesThem(t *testing.T) {
	child := core.Usage{Input: 100, Output: 20, TotalTokens: 120}
	own := core.Usage{Input: 10, Output: 2, TotalTokens: 12}
	p := faux.New(faux.Options{ChunkSize: 4},
		faux.Response{Content: []core.Content{taskCall("t1", "find the first thing", "Find one."), taskCall("t2", "find the second thing", "Find two.")}, Usage: &own},
		faux.Response{Text: "Found it in one.go, line 3.", Usage: &child},
		faux.Response{Text: "Found it in one.go, line 3.", Usage: &child},
		faux.Response{Text: "done", Usage: &own},
	)
	r := newRig(t, rigConfig{faux: p, extra: []core.Tool{subagent.New(subagent.Options{})}})
	r.ready()
	r.send(map[string]any{"type": "prompt", "id": "p1", "message": "find both"})
	got := r.until(responseTo("prompt", "p1"))
	type seen struct {
		types []string
		start frame
		done  frame
	}
	by := map[float64]*seen{}
	var order []float64
	results := 0
	for _, f := range got {
		typ := f.str("type")
		if typ == "message_update" && f.event().str("type") == "toolcall_result" {
			results++
		}
		if typ != "subagent_start" && typ != "subagent_update" && typ != "subagent_done" {
			continue
		}
		id, ok := f["subagent_id"].(float64)
		if !ok || f.str("agent_name") != "explore" {
			t.Fatalf("frame without a numeric subagent_id or agent_name explore: %v", f)
		}
		s := by[id]
		if s == nil {
			s = &seen{}
			by[id] = s
			order = append(order, id)
		}
		s.types = append(s.types, typ)
		switch typ {
		case "subagent_start":
			s.start = f
		case "subagent_done":
			s.done = f
		case "subagent_update":
			if st := f.str("status"); st != "running" && st != "tool_call" {
				t.Errorf("subagent_update status %q", st)
			}
		}
	}
	if len(by) != 2 {
		t.Fatalf("%d subagents reported, want 2: %s", len(by), types(got))
	}
	for _, id := range order {
		s := by[id]
		if len(s.types) < 3 || s.types[0] != "subagent_start" || s.types[len(s.types)-1] != "subagent_done" ||
			slices.Index(s.types, "subagent_update") != 1 {
			t.Errorf("subagent %v: frames %v, want start, update..., done", id, s.types)
		}
		if p := s.start.str("task_preview"); p != "find the first thing" && p != "find the second thing" {
			t.Errorf("task_preview = %q", p)
		}
		if s.done.str("result_preview") != "Found it in one.go, line 3." {
			t.Errorf("result_preview = %q", s.done.str("result_preview"))
		}
		if d, ok := s.done["duration_secs"].(float64); !ok || d < 0 {
			t.Errorf("duration_secs = %v", s.done["duration_secs"])
		}
		if len(s.start) != 4 || len(s.done) != 5 {
			t.Errorf("start %v, done %v: want exactly the seed's fields", s.start, s.done)
		}
	}
	if results != 2 {
		t.Errorf("%d toolcall_result frames, want 2", results)
	}
	end := got[len(got)-2]
	if end.str("type") != "agent_end" {
		t.Fatalf("before the response: %v", end)
	}
	usage, _ := end["usage"].(map[string]any)
	if usage["input_tokens"] != float64(2*own.Input+2*child.Input) {
		t.Errorf("agent_end usage = %v, want the children's input tokens counted (%d)", usage, 2*own.Input+2*child.Input)
	}
}
