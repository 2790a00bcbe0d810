package core

import (
	"context"
	"time"
)

// QuestionKind is the shape of the answer a question wants.
type QuestionKind uint8

// The kinds of question.
const (
	// QuestionSelect picks one of Options.
	QuestionSelect QuestionKind = iota + 1
	// QuestionConfirm wants yes or no.
	QuestionConfirm
	// QuestionInput wants one line of text.
	QuestionInput
	// QuestionEditor wants multi-line text, starting from Prefill.
	QuestionEditor
)

// Purpose says why a question is asked, so a front end can render it as
// what it is (an approval under its tool call's preview, ACP's
// session/request_permission) without reading its wording.
type Purpose uint8

// The purposes of a question.
const (
	// PurposeGeneral is any other question.
	PurposeGeneral Purpose = iota
	// PurposeApproval asks whether tool call ToolCallID may run; its
	// options are the approval package's Option values.
	PurposeApproval
	// PurposeDenyReason asks why tool call ToolCallID was denied; the
	// answer is told to the model.
	PurposeDenyReason
)

// Option is one choice of a select question: Value is what an answer
// carries, Label what a person reads. Saves, when set, is what choosing it
// remembers, in words a person reads (an approval's rule: "bash: git
// status"), so a front end that names options itself can say it.
type Option struct {
	Value string
	Label string
	Saves string
}

// Question is something the session asks whoever is in front of it. It
// travels in the session's event stream, in order with the events around
// it (an approval comes after its tool_execution_start), and is answered
// with Session.Answer. Deadline, when set, is when the core gives up on
// it; front ends need not time it themselves. A QuestionClosed event
// follows every Question, whatever became of it.
type Question struct {
	ID         string
	Kind       QuestionKind
	Purpose    Purpose
	Title      string
	Message    string
	Options    []Option // for QuestionSelect
	Prefill    string   // for QuestionEditor
	Hint       string   // placeholder text for QuestionInput
	ToolCallID string   // the call an approval or deny reason is about
	Timeout    time.Duration
	Deadline   time.Time // zero: no time limit

	// Subagent, when set, says a subagent asks (its name and task), for
	// one of its own calls: ToolCallID is then the parent's task call,
	// and the call asked about is in Title, not among the session's calls.
	Subagent string

	// Extension, when set, names the extension that opened this dialog.
	// Front ends show it on the dialog (see AttributedTitle), so an
	// extension's question cannot pass for cairn's own.
	Extension string
}

// AttributedTitle is the title with the extension that asks named before
// it ("Extension guard: Delete build/?"), for front ends that show one
// title line; the title alone when cairn itself asks.
func (q Question) AttributedTitle() string {
	if q.Extension == "" {
		return q.Title
	}
	return "Extension " + q.Extension + ": " + q.Title
}

// OptionLabel returns the label of the option with value v, or v.
func (q Question) OptionLabel(v string) string {
	for _, o := range q.Options {
		if o.Value == v {
			return o.Label
		}
	}
	return v
}

// Answer is a reply to a question: Value is the chosen option's value or
// the text typed; Yes answers a confirm question.
type Answer struct {
	Value string
	Yes   bool
	// Text is free text given with a select answer: the reason of a
	// "deny with reason" choice, when the front end already has it (the
	// gate then does not ask for it).
	Text string
}

// Outcome is how a question ended.
type Outcome uint8

// The outcomes of a question.
const (
	// Answered: somebody answered it.
	Answered Outcome = iota
	// Dismissed: the person or host declined to answer.
	Dismissed
	// TimedOut: the deadline passed first.
	TimedOut
	// Aborted: the work that asked was cancelled first.
	Aborted
	// NoOneToAsk: no front end can answer questions (print mode); the
	// asker decides by its own policy.
	NoOneToAsk
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case Answered:
		return "answered"
	case Dismissed:
		return "dismissed"
	case TimedOut:
		return "timed out"
	case Aborted:
		return "aborted"
	case NoOneToAsk:
		return "no one to ask"
	}
	return "unknown"
}

// Asker puts questions to whoever is in front of a session and waits for
// the answer, the question's timeout or the end of ctx. The answer is
// meaningful only when the outcome is Answered.
type Asker interface {
	Ask(ctx context.Context, q Question) (Answer, Outcome)
}

// QuestionClosed ends a Question: answered, dismissed, timed out or
// aborted. A front end removes the question's prompt when it sees it.
type QuestionClosed struct {
	ID      string
	Outcome Outcome
	// Answer is the answer's value when Outcome is Answered, so a front
	// end that did not answer (another client did) can say what it was.
	Answer string
}

// EventType implementations.
func (Question) EventType() string       { return "question" }
func (QuestionClosed) EventType() string { return "question_closed" }

// NotifyLevel is how loud a notification is.
type NotifyLevel string

// The notification levels, as pi names them.
const (
	NotifyInfo    NotifyLevel = "info"
	NotifyWarning NotifyLevel = "warning"
	NotifyError   NotifyLevel = "error"
)
