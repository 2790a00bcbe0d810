package acp

import (
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
)

// The option ids of a confirm dialog asked through
// session/request_permission.
const (
	confirmYes = "yes"
	confirmNo  = "no"
)

// askDialog puts an extension's select or confirm dialog to the client as
// session/request_permission, ACP's one way to ask the person to choose:
// a select's options become permission options (its first "allow_once",
// the others too: ACP's kinds only say how a client draws them), a confirm
// is Yes (allow_once) or No (reject_once). The tool call it names is the
// question itself, pending until answered.
func (s *server) askDialog(w *writer, q core.Question) {
	s.mu.Lock()
	id := s.nextOut
	s.nextOut++
	s.permissions[id] = permit{t: w.t, question: q.ID, dialog: q.Kind}
	s.mu.Unlock()
	var opts []permissionOption
	if q.Kind == core.QuestionConfirm {
		opts = []permissionOption{{OptionID: confirmYes, Name: "Yes", Kind: "allow_once"}, {OptionID: confirmNo, Name: "No", Kind: "reject_once"}}
	} else {
		for _, o := range q.Options {
			opts = append(opts, permissionOption{OptionID: o.Value, Name: escape.Visible(o.Label), Kind: "allow_once"})
		}
	}
	title := escape.Visible(q.AttributedTitle())
	if q.Message != "" {
		title += ": " + escape.Visible(q.Message)
	}
	tc := toolCallUpdate{ToolCallID: "question-" + q.ID, Title: title, Kind: "other", Status: "pending"}
	w.write(w.mustMarshal(outRequest{JSONRPC: "2.0", ID: &id, Method: "session/request_permission",
		Params: requestPermission{SessionID: w.sessionID, ToolCall: tc, Options: opts}}))
}

// dialogAnswer is the answer to a dialog asked with askDialog.
func dialogAnswer(kind core.QuestionKind, optionID string) core.Answer {
	if kind == core.QuestionConfirm {
		return core.Answer{Yes: optionID == confirmYes}
	}
	return core.Answer{Value: optionID}
}
