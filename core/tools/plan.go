package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// Plan is the plan tool: the model keeps a short list of the steps of its
// work and their state, and a front end that shows plans (ACP's plan
// session update) shows it. It changes nothing, so it needs no approval.
// It is offered only where a front end shows plans (--mode acp).
type Plan struct{}

// NewPlan returns the plan tool.
func NewPlan() *Plan { return &Plan{} }

// PlanEntry is one step of a plan, in ACP's shape.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// PlanDetails are the details of a plan result: the whole plan as it now
// stands.
type PlanDetails struct {
	Entries []PlanEntry `json:"entries"`
}

// maxPlanEntries bounds a plan: a plan is a short list of steps.
const maxPlanEntries = 100

var planSpec = core.ToolSpec{
	Name: "plan",
	Description: "Keep a plan of a multi-step task, shown to the user beside the conversation. Send the " +
		"whole plan each time, every step with its status (pending, in_progress, completed); mark a " +
		"step in_progress before working on it and completed when it is done. Skip it for simple tasks.",
	Parameters: json.RawMessage(`{"type":"object","required":["entries"],"properties":{` +
		`"entries":{"type":"array","description":"Every step of the plan, in order","items":{"type":"object",` +
		`"required":["content","status"],"properties":{` +
		`"content":{"type":"string","description":"What the step does, in a few words"},` +
		`"status":{"type":"string","enum":["pending","in_progress","completed"]},` +
		`"priority":{"type":"string","enum":["high","medium","low"],"description":"How much it matters (default medium)"}}}}}}`),
}

// Spec describes the tool to the model.
func (*Plan) Spec() core.ToolSpec { return planSpec }

// Category is info: a plan changes nothing.
func (*Plan) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is think.
func (*Plan) Kind() core.ToolKind { return core.KindThink }

type planArgs struct {
	Entries *[]struct {
		Content  *string `json:"content"`
		Status   string  `json:"status"`
		Priority string  `json:"priority"`
	} `json:"entries"`
}

// ParsePlan checks a plan call's arguments and returns its entries.
func ParsePlan(raw json.RawMessage) ([]PlanEntry, error) {
	var a planArgs
	if err := decodeArgs(planSpec, raw, &a); err != nil {
		return nil, err
	}
	if a.Entries == nil {
		return nil, &argError{"plan", "entries is required"}
	}
	if len(*a.Entries) > maxPlanEntries {
		return nil, &argError{"plan", fmt.Sprintf("a plan has at most %d entries", maxPlanEntries)}
	}
	entries := make([]PlanEntry, 0, len(*a.Entries))
	for i, e := range *a.Entries {
		if e.Content == nil || strings.TrimSpace(*e.Content) == "" {
			return nil, &argError{"plan", fmt.Sprintf("entries[%d].content is required", i)}
		}
		switch e.Status {
		case "pending", "in_progress", "completed":
		default:
			return nil, &argError{"plan", fmt.Sprintf("entries[%d].status must be pending, in_progress or completed, not %q", i, e.Status)}
		}
		switch e.Priority {
		case "":
			e.Priority = "medium"
		case "high", "medium", "low":
		default:
			return nil, &argError{"plan", fmt.Sprintf("entries[%d].priority must be high, medium or low, not %q", i, e.Priority)}
		}
		entries = append(entries, PlanEntry{Content: *e.Content, Priority: e.Priority, Status: e.Status})
	}
	return entries, nil
}

// Execute records the plan: the result says how far along it is and
// carries the whole plan in its details.
func (*Plan) Execute(_ context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	entries, err := ParsePlan(call.Arguments)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	done := 0
	for _, e := range entries {
		if e.Status == "completed" {
			done++
		}
	}
	return withDetails(fmt.Sprintf("Plan updated: %d of %d steps completed.", done, len(entries)), PlanDetails{Entries: entries}), nil
}
