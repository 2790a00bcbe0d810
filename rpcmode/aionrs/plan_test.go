package aionrs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// set_mode "plan" enters plan mode: a write is refused without a
// tool_request, the plan is a tool_request that tool_approve with scope
// "always" accepts (going on in auto_edit), and set_mode does not release
// it by itself.
func TestSetModePlan(t *testing.T) {
	fp := faux.New(faux.Options{},
		toolCall("t1", "write", `{"path":"a.txt","content":"x"}`),
		toolCall("t2", approval.ExitPlanModeTool, `{"plan":"1. Write a.txt"}`),
		faux.Response{Text: "accepted"},
		toolCall("t3", "write", `{"path":"a.txt","content":"x"}`),
		faux.Response{Text: "written"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"set_mode","mode":"plan"}`)
	if f := r.expect("config_changed"); f.str("capabilities.current_mode") != "plan" || r.gate.Mode() != approval.ModePlan {
		t.Fatalf("config_changed = %v, gate %s", f, r.gate.Mode())
	}
	r.send(`{"type":"message","msg_id":"m1","input":"plan it"}`)
	fs := r.until("tool_request")
	if last := fs[len(fs)-1]; last.str("call_id") != "t2" || last.str("tool.name") != approval.ExitPlanModeTool || !strings.Contains(frameText(last), "1. Write a.txt") {
		t.Fatalf("tool_request = %v (frames %s)", last, types(fs))
	}
	refused := false
	for _, f := range fs {
		refused = refused || f.str("call_id") == "t1" && f.str("type") == "tool_result" && strings.Contains(frameText(f), "plan mode")
	}
	if !refused || countType(fs, "tool_request") != 1 {
		t.Errorf("the write was not refused unasked for plan mode: %s", types(fs))
	}
	if _, err := os.Stat(filepath.Join(r.dir, "a.txt")); err == nil {
		t.Fatal("a.txt was written in plan mode")
	}
	// A mode switch does not accept a plan.
	r.send(`{"type":"set_mode","mode":"yolo"}`)
	r.expect("config_changed")
	r.send(`{"type":"set_mode","mode":"plan"}`)
	r.expect("config_changed")
	r.send(`{"type":"tool_approve","call_id":"t2","scope":"always"}`)
	r.until("stream_end")
	if r.gate.Mode() != approval.ModeAutoEdit {
		t.Fatalf("mode after accepting with scope always: %s", r.gate.Mode())
	}
	r.send(`{"type":"message","msg_id":"m2","input":"do it"}`)
	fs = r.until("stream_end")
	if countType(fs, "tool_request") != 0 {
		t.Errorf("asked after the plan was accepted: %s", types(fs))
	}
	if b, err := os.ReadFile(filepath.Join(r.dir, "a.txt")); err != nil || string(b) != "x" {
		t.Fatalf("a.txt = %q, %v", b, err)
	}
}

func frameText(f frame) string {
	b, _ := json.Marshal(f)
	return string(b)
}
