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
	question string // the core question it asks
	callID   string
	tool     string
	offered  []core.Option
	// dialog is the kind of an extension's dialog (askDialog); zero for
	// an approval.
	dialog core.QuestionKind
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
	case approval.OptionDeny:
		return "reject_once"
	}
	return ""
}

// ask puts a core question to the client. Approvals become
// session/request_permission (a tool refused with reject_always is denied
// by the gate without asking); cairn asks nothing else of an ACP client,
// so other questions are dismissed, except extensions' select and confirm
// dialogs (askDialog).
func (s *server) ask(w *writer, q core.Question) {
	if q.Purpose == core.PurposeGeneral && (q.Kind == core.QuestionSelect || q.Kind == core.QuestionConfirm) && w.sessionID != "" {
		s.askDialog(w, q)
		return
	}
	if q.Purpose != core.PurposeApproval || q.Kind != core.QuestionSelect || w.sessionID == "" {
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
	s.permissions[id] = permit{question: q.ID, callID: q.ToolCallID, tool: tool, offered: q.Options}
	s.mu.Unlock()

	var opts []permissionOption
	for _, o := range q.Options {
		if k := optionKind(approval.Option(o.Value)); k != "" {
			opts = append(opts, permissionOption{OptionID: o.Value, Name: o.Label, Kind: k})
		}
	}
	opts = append(opts, permissionOption{OptionID: rejectAlways, Name: "Always deny " + tool + " (this session)", Kind: "reject_always"})
	tc := toolCallUpdate{ToolCallID: q.ToolCallID, Title: escape.Visible(q.Title), Status: "pending"}
	if c != nil {
		tc.Kind, tc.Content = c.kind, c.diffs
		if c.path != "" {
			tc.Locations = []location{{Path: c.path}}
		}
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
	if m.Error != nil || json.Unmarshal(m.Result, &r) != nil || r.Outcome.Outcome != "selected" {
		_ = s.b().sess.Dismiss(p.question)
		return
	}
	if p.dialog != 0 {
		_ = s.b().sess.Answer(p.question, dialogAnswer(p.dialog, r.Outcome.OptionID))
		return
	}
	opt := approval.Option(r.Outcome.OptionID)
	if opt == rejectAlways {
		opt = approval.OptionDeny
		if p.tool != "" {
			s.b().host.Approvals.DenyTool(p.tool)
		}
	}
	s.mu.Lock()
	s.choices[p.question] = choice{callID: p.callID, option: opt}
	s.mu.Unlock()
	// An option that was never offered is refused by the gate.
	_ = s.b().sess.Answer(p.question, core.Answer{Value: string(opt)})
}

// closedQuestion forgets a question that ended. It returns how it was
// answered, if it was, and the permission requests still awaiting the
// client's answer (the question timed out or its turn was cancelled).
func (s *server) closedQuestion(id string) (c choice, answered bool, stale []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, p := range s.permissions {
		if p.question == id {
			delete(s.permissions, n)
			stale = append(stale, n)
		}
	}
	c, answered = s.choices[id]
	delete(s.choices, id)
	return c, answered, stale
}

// cancelRequest is the params of $/cancel_request.
type cancelRequest struct {
	RequestID json.RawMessage `json:"requestId"`
}
