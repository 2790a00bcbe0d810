package agent

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/core/toolset"
)

// resultOf returns the result text of the call with id among events.
func resultOf(events []core.Event, id string) (string, bool) {
	for _, e := range events {
		if end, ok := e.(core.ToolExecutionEnd); ok && end.ToolCallID == id {
			return core.PlainText(end.Result.Content), end.Result.IsError
		}
	}
	return "", false
}

// In plan mode a write the model proposes is neither declared nor asked
// about, and does not run; the plan it presents is asked about, and once
// accepted (with auto_edit) the next run writes without asking.
func TestPlanModeThenAcceptedPlanWrites(t *testing.T) {
	dir := t.TempDir()
	gate, err := approval.Open(approval.Config{Mode: approval.ModePlan, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	reg := toolset.Static(append(tools.New(dir), gate.ExitPlanTool()))
	var seen requests
	f := newFixture(t, Config{Toolset: toolset.FilterDeclared(reg, gate.Declares), Approver: gate})
	write := `{"path":"a.txt","content":"planned"}`
	f.fp.PushStep(
		seen.step(faux.Response{Content: []core.Content{toolCall("w1", "write", write)}}),
		seen.step(faux.Response{Content: []core.Content{toolCall("p1", approval.ExitPlanModeTool, `{"plan":"1. Write a.txt"}`), toolCall("w2", "write", write)}}),
		seen.step(faux.Response{Text: "plan accepted"}),
	)
	if err := f.s.Prompt("add a.txt", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	events := f.until(func(e core.Event) bool { _, ok := e.(core.Question); return ok })
	q := events[len(events)-1].(core.Question)
	if q.ToolCallID != "p1" || !approval.PlanQuestion(q) || !strings.Contains(q.Message, "1. Write a.txt") {
		t.Fatalf("the first question is %+v, want the plan's", q)
	}
	if err := f.s.Answer(q.ID, core.Answer{Value: string(approval.OptionPlanAutoEdit)}); err != nil {
		t.Fatal(err)
	}
	events = append(events, f.untilSettled()...)
	for _, id := range []string{"w1", "w2"} {
		// w2 came in the same answer as the plan: it was judged in plan
		// mode, before the plan was accepted.
		text, isErr := resultOf(events, id)
		if !isErr || !strings.Contains(text, "plan mode") {
			t.Errorf("write %s in plan mode: %q (error %v)", id, text, isErr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a.txt exists after plan mode: %v", err)
	}
	if text, isErr := resultOf(events, "p1"); isErr || !strings.Contains(text, "auto_edit") {
		t.Errorf("exit_plan_mode result %q (error %v)", text, isErr)
	}
	if got := seen.get(0); slices.Contains(got, "write") || slices.Contains(got, "edit") || !slices.Contains(got, approval.ExitPlanModeTool) || !slices.Contains(got, "read") {
		t.Errorf("tools declared in plan mode: %v", got)
	}
	if gate.Mode() != approval.ModeAutoEdit {
		t.Fatalf("mode %s after accepting", gate.Mode())
	}

	f.fp.PushStep(
		seen.step(faux.Response{Content: []core.Content{toolCall("w3", "write", write)}}),
		seen.step(faux.Response{Text: "written"}),
	)
	if err := f.s.Prompt("go ahead", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	events = f.untilSettled()
	for _, e := range events {
		if q, ok := e.(core.Question); ok {
			t.Errorf("asked %q after the plan was accepted in auto_edit", q.Title)
		}
	}
	if text, isErr := resultOf(events, "w3"); isErr {
		t.Fatalf("write after the plan: %q", text)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "planned" {
		t.Fatalf("a.txt: %q, %v", b, err)
	}
	if got := seen.get(3); !slices.Contains(got, "write") || slices.Contains(got, approval.ExitPlanModeTool) {
		t.Errorf("tools declared after plan mode: %v", got)
	}
}
