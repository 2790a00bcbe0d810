package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestPlanResultCarriesThePlan(t *testing.T) {
	res := run(t, NewPlan(), map[string]any{"entries": []any{
		map[string]any{"content": "a", "status": "completed"},
		map[string]any{"content": "b", "status": "pending", "priority": "low"},
	}})
	if res.IsError || text(res) != "Plan updated: 1 of 2 steps completed." {
		t.Fatalf("result = %+v", res)
	}
	d := details[PlanDetails](t, res)
	want := []PlanEntry{{"a", "medium", "completed"}, {"b", "low", "pending"}}
	if len(d.Entries) != 2 || d.Entries[0] != want[0] || d.Entries[1] != want[1] {
		t.Errorf("entries = %+v", d.Entries)
	}
	if NewPlan().Category() != core.CategoryInfo {
		t.Error("a plan must need no approval")
	}
}

func TestPlanRejectsBadPlans(t *testing.T) {
	for args, want := range map[string]string{
		`{}`:                                 "entries is required",
		`{"entries":[{"status":"pending"}]}`: "entries[0].content is required",
		`{"entries":[{"content":" ","status":"pending"}]}`:                     "entries[0].content is required",
		`{"entries":[{"content":"a","status":"doing"}]}`:                       `entries[0].status must be pending, in_progress or completed, not "doing"`,
		`{"entries":[{"content":"a","status":"pending","priority":"urgent"}]}`: `entries[0].priority must be high, medium or low, not "urgent"`,
		`{"entries":"not a list"}`:                                             "Invalid arguments for plan",
	} {
		res, err := NewPlan().Execute(t.Context(), core.ToolCall{Arguments: json.RawMessage(args)}, nil)
		if err != nil || !res.IsError || !strings.Contains(text(res), want) {
			t.Errorf("%s: %+v %v, want an error containing %q", args, res, err, want)
		}
	}
	many := `{"entries":[` + strings.Repeat(`{"content":"a","status":"pending"},`, maxPlanEntries) + `{"content":"a","status":"pending"}]}`
	if _, err := ParsePlan(json.RawMessage(many)); err == nil || !strings.Contains(err.Error(), "at most 100") {
		t.Errorf("a plan of %d entries: %v", maxPlanEntries+1, err)
	}
}

func FuzzParsePlan(f *testing.F) {
	f.Add(`{"entries":[{"content":"a","status":"pending","priority":"high"}]}`)
	f.Add(`{"entries":[]}`)
	f.Add(`{"entries":[{"content":"","status":"x"}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, raw string) {
		entries, err := ParsePlan(json.RawMessage(raw))
		if err != nil {
			return
		}
		if len(entries) > maxPlanEntries {
			t.Fatalf("%d entries accepted", len(entries))
		}
		for _, e := range entries {
			if strings.TrimSpace(e.Content) == "" {
				t.Fatalf("empty content accepted: %q", raw)
			}
			switch e.Status {
			case "pending", "in_progress", "completed":
			default:
				t.Fatalf("status %q accepted", e.Status)
			}
			switch e.Priority {
			case "high", "medium", "low":
			default:
				t.Fatalf("priority %q accepted", e.Priority)
			}
		}
	})
}
