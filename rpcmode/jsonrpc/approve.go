package jsonrpc

import (
	"encoding/json"
	"errors"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
)

// approveParams are tool.approve's params. reason, cairn's addition, is
// told to the model with a denial.
type approveParams struct {
	ExecutionID *string `json:"execution_id"`
	Approved    *bool   `json:"approved"`
	Options     struct {
		RememberChoice bool `json:"remember_choice"`
		ApplyToSimilar bool `json:"apply_to_similar"`
	} `json:"options"`
	Reason string `json:"reason"`
}

// approve answers the approval question of a tool call through the
// session, so the gate decides what an answer allows and remembers.
func (c *conn) approve(params json.RawMessage) (any, *Error) {
	var p approveParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.ExecutionID == nil || p.Approved == nil {
		return nil, errorf(CodeInvalidParams, "execution_id (a string) and approved (a boolean) are required")
	}
	id := *p.ExecutionID
	c.mu.Lock()
	q, ok := c.approvals[id]
	delete(c.approvals, id)
	c.mu.Unlock()
	if !ok {
		return nil, errorf(CodeInvalidParams, "no tool call awaits approval with execution_id %q (it was answered, timed out or cancelled)", id)
	}
	choice := chooseOption(q, *p.Approved, p.Options.RememberChoice, p.Options.ApplyToSimilar, p.Reason != "")
	answer := core.Answer{Value: string(choice)}
	if choice == approval.OptionDenyReason || choice == approval.OptionKeepPlanning {
		answer.Text = p.Reason
	}
	if err := c.sess.Answer(q.ID, answer); err != nil {
		if errors.Is(err, agent.ErrNoQuestion) {
			return nil, errorf(CodeInvalidParams, "the tool call %q no longer awaits approval (it timed out or was cancelled)", id)
		}
		return nil, errorf(CodeInternalError, "answer the approval: %v", err)
	}
	status := "rejected"
	if choice.Allows() {
		status = "approved"
	}
	return map[string]any{
		"status": status, "execution_id": id,
		"remembered": choice == approval.OptionAllowSession || choice == approval.OptionAllowProject,
	}, nil
}

// chooseOption maps tool.approve onto the options the question offers:
// remembering picks the session rule the gate proposes (every file of the
// project with applyToSimilar), when it offers one; otherwise the call is
// allowed once. A denial with a reason takes the option that tells the
// model why. The plan of exit_plan_mode is accepted going on in default
// mode, or in auto_edit when remembering; refused, planning goes on with
// the reason as feedback.
func chooseOption(q core.Question, approved, remember, similar, reason bool) approval.Option {
	switch {
	case approved && remember && offers(q, approval.OptionPlanAutoEdit):
		return approval.OptionPlanAutoEdit
	case approved && offers(q, approval.OptionPlanDefault):
		return approval.OptionPlanDefault
	case !approved && offers(q, approval.OptionKeepPlanning):
		return approval.OptionKeepPlanning
	case approved && remember && similar && offers(q, approval.OptionAllowProject):
		return approval.OptionAllowProject
	case approved && remember && offers(q, approval.OptionAllowSession):
		return approval.OptionAllowSession
	case approved:
		return approval.OptionAllowOnce
	case reason && offers(q, approval.OptionDenyReason):
		return approval.OptionDenyReason
	}
	return approval.OptionDeny
}
