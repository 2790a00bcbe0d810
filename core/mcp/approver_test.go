package mcp

import (
	"context"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// askingGate asks one approval question, as the real gate does.
type askingGate struct{}

func (askingGate) Check(ctx context.Context, _ core.Tool, _ core.ToolCall, ask core.Asker) approval.Decision {
	ask.Ask(ctx, core.Question{Purpose: core.PurposeApproval, Message: "gate text"})
	return approval.Decision{}
}

type recordingAsker struct{ q core.Question }

func (r *recordingAsker) Ask(_ context.Context, q core.Question) (core.Answer, core.Outcome) {
	r.q = q
	return core.Answer{}, core.Dismissed
}

// titleGate asks the way the real gate does: "Allow <tool>?".
type titleGate struct{}

func (titleGate) Check(ctx context.Context, tool core.Tool, _ core.ToolCall, ask core.Asker) approval.Decision {
	ask.Ask(ctx, core.Question{Purpose: core.PurposeApproval, Title: "Allow " + tool.Spec().Name + "?"})
	return approval.Decision{}
}
