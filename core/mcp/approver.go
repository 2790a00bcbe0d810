package mcp

import (
	"context"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// Checker is the approval gate's Check; *approval.Gate and agent.Approver
// have it.
type Checker interface {
	Check(ctx context.Context, tool core.Tool, call core.ToolCall, ask core.Asker) approval.Decision
}

// WithHints wraps a gate so the approval question for an MCP tool also
// says what its server claims about it (readOnlyHint, destructiveHint),
// and a call through mcp_call is checked as a call of the tool it names.
// The decision stays the gate's: hints never allow a call by themselves.
func WithHints(gate Checker) Checker { return hintChecker{gate} }

type hintChecker struct{ gate Checker }

func (h hintChecker) Check(ctx context.Context, tool core.Tool, call core.ToolCall, ask core.Asker) approval.Decision {
	if c, ok := tool.(*callTool); ok {
		// mcp_call is approved as the tool it names, by that name's
		// rules, even when no such tool is known yet: whatever runs under
		// the name is what the person allowed. A call naming nothing is
		// asked about as mcp_call itself (it will fail without running).
		var err error
		if tool, call, err = c.approvalSubject(ctx, call); err != nil {
			return approval.Decision{By: approval.ByArguments, Reason: err.Error()}
		}
	} else {
		tool = resolved(ctx, tool)
	}
	if t, ok := tool.(*Tool); ok && ask != nil {
		if note := t.HintText(); note != "" {
			ask = hintAsker{ask: ask, note: note}
		}
	}
	return h.gate.Check(ctx, tool, call, ask)
}

// hintAsker adds a note to approval questions.
type hintAsker struct {
	ask  core.Asker
	note string
}

func (h hintAsker) Ask(ctx context.Context, q core.Question) (core.Answer, core.Outcome) {
	if q.Purpose == core.PurposeApproval {
		if q.Message == "" {
			q.Message = h.note
		} else {
			q.Message = h.note + " " + q.Message
		}
	}
	return h.ask.Ask(ctx, q)
}

// resolved is the tool the gate judges for tool: for a stand-in of a tool
// of a server not ready, the server's tool once it is ready (waited for
// within its timeout), so the question shows its hints; tool otherwise.
func resolved(ctx context.Context, tool core.Tool) core.Tool {
	if later, ok := tool.(*laterTool); ok {
		if t, err := later.resolve(ctx); err == nil {
			return t
		}
	}
	return tool
}
