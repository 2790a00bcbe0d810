package aionrs

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/subagent"
)

// A task call's subagent shows as the call's tool_running, then info
// frames with its progress (agent, task, step), then its tool_result with
// the child's answer.
func TestSubagentProgressAsInfo(t *testing.T) {
	args, _ := json.Marshal(subagent.Args{Description: "look around", Prompt: "Look.", SubagentType: "explore"})
	fp := faux.New(faux.Options{ChunkSize: 4},
		faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "t1", Name: subagent.ToolName, Arguments: args}}},
		faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: "l1", Name: "ls", Arguments: json.RawMessage(`{}`)}}},
		faux.Response{Text: "Nothing here."},
		faux.Response{Text: "done"},
	)
	r := newRig(t, rigConfig{faux: fp, mode: approval.ModeAuto, extra: []core.Tool{subagent.New(subagent.Options{})}})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"look"}`)
	fs := r.until("stream_end")
	running, result := -1, -1
	var infos []string
	for i, f := range fs {
		switch f.str("type") {
		case "tool_running":
			if f.str("call_id") == "t1" {
				running = i
			}
		case "tool_result":
			if f.str("call_id") == "t1" {
				result = i
			}
		case "info":
			if running >= 0 && result < 0 {
				infos = append(infos, f.str("message"))
			}
		}
	}
	if running < 0 || result < running {
		t.Fatalf("tool_running at %d, tool_result at %d: %s", running, result, types(fs))
	}
	joined := strings.Join(infos, "\n")
	if len(infos) < 3 || !strings.Contains(joined, "explore: look around") || !strings.Contains(joined, "ls") {
		t.Errorf("info frames while the child ran = %q", infos)
	}
	if !strings.Contains(strings.ToLower(joined), "done") {
		t.Errorf("no info frame says the child is done: %q", infos)
	}
}
