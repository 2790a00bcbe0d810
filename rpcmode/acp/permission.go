package acp

import (
	"encoding/json"
	"strconv"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/escape"
)

// permit is a session/request_permission awaiting the client's answer.
type permit struct {
	t        *thread
	question string // the core question it asks
	callID   string
	tool     string
	offered  []core.Option
	// dialog is the kind of an extension's dialog (askDialog); zero for
	// an approval.
	dialog core.QuestionKind
	// trust: the offer to trust the project (offerTrust), not a question.
	trust bool
}

// choice is how an approval question was answered.
type choice struct {
	callID string
	option approval.Option
}

// rejectAlways is the option cairn adds to every approval: deny, and deny
// this tool without asking until the process ends.
const rejectAlways = "reject_always"

// permissionOption is one PermissionOption.
type permissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

type requestPermission struct {
	SessionID string             `json:"sessionId"`
	ToolCall  toolCallUpdate     `json:"toolCall"`
	Options   []permissionOption `json:"options"`
}

// optionKind is the ACP kind of an approval option; "" leaves it out
// (deny with a reason needs typed text, which ACP cannot ask for).
func optionKind(o approval.Option) string {
	switch o {
	case approval.OptionAllowOnce:
		return "allow_once"
	case approval.OptionAllowSession, approval.OptionAllowProject, approval.OptionAllowServer, approval.OptionAllowAlways:
		return "allow_always"
	case approval.OptionDeny, approval.OptionKeepPlanning:
		return "reject_once"
	case approval.OptionPlanDefault:
		return "allow_once"
	case approval.OptionPlanAutoEdit, approval.OptionPlanAuto, approval.OptionPlanYolo:
		return "allow_always"
	}
	return ""
}

// permissionOptions are the options of a permission request: allow once;
// one "always" option, the narrowest the gate offers (a rule for this
// session, named for what it saves, so an editor that labels options by
// kind shows one "always" button, and none of them writes a file);
// reject once; and reject_always for the tool.
func permissionOptions(q core.Question, tool string) []permissionOption {
	var opts []permissionOption
	if approval.PlanQuestion(q) {
		// Each way to accept a plan names the mode it goes on in; denying
		// exit_plan_mode for good would leave plan mode with no way out
		// but set_mode.
		for _, o := range q.Options {
			if k := optionKind(approval.Option(o.Value)); k != "" {
				opts = append(opts, permissionOption{OptionID: o.Value, Name: o.Label, Kind: k})
			}
		}
		return opts
	}
	always := false
	for _, o := range q.Options {
		k := optionKind(approval.Option(o.Value))
		switch {
		case k == "":
			continue
		case k == "allow_always" && (always || approval.Option(o.Value) != approval.OptionAllowSession):
			continue
		case k == "allow_always":
			always = true
			name := o.Label
			if o.Saves != "" {
				name = "Always allow " + o.Saves + " (this session)"
			}
			opts = append(opts, permissionOption{OptionID: o.Value, Name: name, Kind: k})
			continue
		}
		opts = append(opts, permissionOption{OptionID: o.Value, Name: o.Label, Kind: k})
	}
	if q.Subagent != "" {
		// A subagent's question is about one of its own calls, under its
		// task call: "always deny" would name the task tool.
		return opts
	}
	return append(opts, permissionOption{OptionID: rejectAlways, Name: "Always deny " + tool + " (this session)", Kind: "reject_always"})
}

// ask puts a core question to the client. Approvals become
// session/request_permission (a tool refused with reject_always is denied
// by the gate without asking); cairn asks nothing else of an ACP client,
// so other questions are dismissed, except extensions' select and confirm
// dialogs (askDialog).
func (s *server) ask(w *writer, q core.Question) {
	if q.Purpose == core.PurposeGeneral && (q.Kind == core.QuestionSelect || q.Kind == core.QuestionConfirm) {
		s.askDialog(w, q)
		return
	}
	if q.Purpose != core.PurposeApproval || q.Kind != core.QuestionSelect {
		if s.live != nil {
			// The session's owner (a TUI) may ask it: an attached client
			// that cannot leaves it to the others.
			return
		}
		s.warn("acp: dismissed a question ACP cannot ask: %s", q.Title)
		_ = w.sess.Dismiss(q.ID)
		return
	}
	c := w.calls[q.ToolCallID]
	tool := ""
	if c != nil {
		tool = c.name
	}
	s.mu.Lock()
	id := s.nextOut
	s.nextOut++
	s.permissions[id] = permit{t: w.t, question: q.ID, callID: q.ToolCallID, tool: tool, offered: q.Options}
	s.mu.Unlock()

	opts := permissionOptions(q, tool)
	// The card keeps its own title: the question's "Allow ...?" would stay
	// on it after the answer (Zed keeps the last title it was sent).
	tc := toolCallUpdate{ToolCallID: q.ToolCallID, Status: "pending"}
	if c != nil {
		tc.Title, tc.Kind, tc.Content = c.title, c.kind, c.diffs
		if c.path != "" {
			tc.Locations = []location{{Path: c.path}}
		}
	} else if s.live != nil {
		// Asked before this client attached: the card was never sent, so
		// the question's own title names it.
		tc.Title = escape.Visible(q.Title)
	}
	if q.Subagent != "" {
		// The card is the task call's; what the subagent asks for is in
		// the question's title, shown while it waits and taken back when
		// it closes (questionClosed).
		tc.Title = escape.Visible(q.Title)
		w.retitle[q.ID] = q.ToolCallID
	}
	w.write(w.mustMarshal(outRequest{JSONRPC: "2.0", ID: &id, Method: "session/request_permission",
		Params: requestPermission{SessionID: w.sessionID, ToolCall: tc, Options: opts}}))
}

// permissionResult is the client's answer.
type permissionResult struct {
	Outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId"`
	} `json:"outcome"`
}

// answered takes a response to one of cairn's requests: an answer to a
// permission request becomes the core question's answer; a cancelled
// outcome, an error or an unreadable result dismisses it (the gate
// denies). Responses to nothing cairn asked are ignored.
func (s *server) answered(m message) {
	n, err := strconv.Atoi(string(m.ID))
	if err != nil {
		return
	}
	if s.takePending(n, m) {
		return
	}
	s.mu.Lock()
	p, ok := s.permissions[n]
	delete(s.permissions, n)
	s.mu.Unlock()
	if !ok {
		return
	}
	var r permissionResult
	if p.trust {
		if m.Error == nil && json.Unmarshal(m.Result, &r) == nil && r.Outcome.Outcome == "selected" {
			s.trustAnswered(p, r.Outcome.OptionID)
		}
		return
	}
	if m.Error != nil || json.Unmarshal(m.Result, &r) != nil || r.Outcome.Outcome != "selected" {
		_ = p.t.b.sess.Dismiss(p.question)
		return
	}
	if p.dialog != 0 {
		_ = p.t.b.sess.Answer(p.question, dialogAnswer(p.dialog, r.Outcome.OptionID))
		return
	}
	opt := approval.Option(r.Outcome.OptionID)
	if opt == rejectAlways {
		opt = approval.OptionDeny
		if p.tool != "" {
			p.t.b.host.Approvals.DenyTool(p.tool)
		}
	}
	s.mu.Lock()
	p.t.choices[p.question] = choice{callID: p.callID, option: opt}
	s.mu.Unlock()
	// An option that was never offered is refused by the gate.
	_ = p.t.b.sess.Answer(p.question, core.Answer{Value: string(opt)})
}

// closedQuestion forgets a question of t's that ended. It returns how it
// was answered, if it was, and the permission requests still awaiting the
// client's answer (the question timed out or its turn was cancelled).
func (s *server) closedQuestion(t *thread, id string) (c choice, answered bool, stale []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, p := range s.permissions {
		if p.t == t && p.question == id {
			delete(s.permissions, n)
			stale = append(stale, n)
		}
	}
	c, answered = t.choices[id]
	delete(t.choices, id)
	return c, answered, stale
}

// cancelRequest is the params of $/cancel_request.
type cancelRequest struct {
	RequestID json.RawMessage `json:"requestId"`
}
