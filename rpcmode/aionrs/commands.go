package aionrs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
)

// onMessage starts a turn. stream_start is placed in the event stream
// before the prompt starts, so every event of the turn follows it.
func (s *server) onMessage(c command) {
	s.mu.Lock()
	if s.turn != nil {
		busy := s.turn.msgID
		s.mu.Unlock()
		s.sendError(c.MsgID, fmt.Sprintf("Message %s is still in flight; wait for its stream_end or send stop first", busy))
		return
	}
	history := s.history
	s.history, s.started = nil, true
	s.turn = &turn{msgID: c.MsgID, calls: map[string]*call{}}
	s.mu.Unlock()

	text, images, notes := attach(c.Input, c.Files, s.sess.State().Model)
	for _, n := range notes {
		fmt.Fprintf(s.log, "cairn: json-stream: %s\n", n)
	}
	if len(history) > 0 {
		text = historyPreamble(history) + text
	}
	s.sub.Mark(markStart{msgID: c.MsgID})
	if err := s.sess.Prompt(text, images, agent.BehaviorNone); err != nil {
		s.sub.Mark(markRefused{msgID: c.MsgID, err: err.Error()})
	}
}

// historyPreamble wraps init_history texts so the model reads them as
// earlier context, not as the request.
func historyPreamble(texts []string) string {
	return "<conversation_history>\nThe conversation so far, as the host application recorded it:\n" +
		strings.Join(texts, "\n\n") + "\n</conversation_history>\n\n"
}

// onStop cancels the turn in flight; its stream_end follows when the
// session settles. With nothing in flight there is nothing to stop.
func (s *server) onStop() {
	s.mu.Lock()
	t := s.turn
	if t != nil {
		t.stopped = true
	}
	s.mu.Unlock()
	if t == nil {
		fmt.Fprintln(s.log, "cairn: json-stream: stop with no message in flight: nothing to stop")
		return
	}
	s.sess.Abort()
}

// claim takes the call whose tool_request waits for the host and records
// the host's verdict, so that each request is answered once (by the host
// or by a set_mode that releases it), whoever comes first.
func (s *server) claim(callID string, v verdict, reason string) (*call, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turn == nil {
		return nil, ""
	}
	c := s.turn.calls[callID]
	if c == nil || c.question == "" || c.verdict != undecided {
		return nil, ""
	}
	c.verdict, c.reason = v, reason
	return c, c.question
}

// onApprove answers the call's approval question. Scope "always" takes
// the rule the gate proposes for remembering this call for the session
// (for a command, its root command and harmless extra words, as the TUI
// offers it; for an edit, that file), never the call's whole category:
// AionUi shows and stores "always" per root command, and an "always" on
// `echo first` must not let `touch x && ls` run unasked. A call the gate
// offers no rule for (an edit of a protected file) is allowed once.
func (s *server) onApprove(cmd command) {
	c, q := s.claim(cmd.CallID, approved, "")
	if c == nil {
		s.sendError("", fmt.Sprintf("No tool_request is waiting with call_id %q", cmd.CallID))
		return
	}
	if offers(c.options, approval.OptionPlanDefault) {
		// The plan of exit_plan_mode: accepted, going on in default, or
		// with scope "always" in auto_edit (edits run unasked).
		choice := approval.OptionPlanDefault
		if cmd.Scope == "always" && offers(c.options, approval.OptionPlanAutoEdit) {
			choice = approval.OptionPlanAutoEdit
		}
		s.answer(q, string(choice))
		return
	}
	if cmd.Scope == "always" && offers(c.options, approval.OptionAllowSession) {
		s.answer(q, string(approval.OptionAllowSession))
		return
	}
	s.answer(q, string(approval.OptionAllowOnce))
}

// onDeny denies the call; a reason goes to the gate with the choice, and
// the gate gives it to the model with the denial.
func (s *server) onDeny(cmd command) {
	reason := strings.TrimSpace(cmd.Reason)
	c, q := s.claim(cmd.CallID, denied, reason)
	if c == nil {
		s.sendError("", fmt.Sprintf("No tool_request is waiting with call_id %q", cmd.CallID))
		return
	}
	// The options were recorded when the question opened and never change.
	if offers(c.options, approval.OptionKeepPlanning) {
		// A plan refused: plan mode goes on, the reason is the feedback.
		s.answerWith(q, core.Answer{Value: string(approval.OptionKeepPlanning), Text: reason})
		return
	}
	if reason != "" && offers(c.options, approval.OptionDenyReason) {
		s.answerWith(q, core.Answer{Value: string(approval.OptionDenyReason), Text: reason})
		return
	}
	s.answer(q, string(approval.OptionDeny))
}

// answer answers an approval question with an option.
func (s *server) answer(question, value string) { s.answerWith(question, core.Answer{Value: value}) }

// answerWith answers an approval question. It fails only when the question
// closed meanwhile (a stop won the race), which needs no reply.
func (s *server) answerWith(question string, a core.Answer) {
	if err := s.sess.Answer(question, a); err != nil {
		fmt.Fprintf(s.log, "cairn: json-stream: the approval was no longer open: %v\n", err)
	}
}

func offers(opts []core.Option, o approval.Option) bool {
	return slices.ContainsFunc(opts, func(x core.Option) bool { return x.Value == string(o) })
}

// onInitHistory keeps the text for the first message; after it (or in a
// resumed conversation) the history is already in the session.
// maxHistoryBytes bounds the text init_history may put before the first
// message, all commands together.
const maxHistoryBytes = 1 << 20

func (s *server) onInitHistory(c command) {
	s.mu.Lock()
	late := s.started
	over := false
	if !late && strings.TrimSpace(c.Text) != "" {
		size := len(c.Text)
		for _, h := range s.history {
			size += len(h)
		}
		if over = size > maxHistoryBytes; !over {
			s.history = append(s.history, c.Text)
		}
	}
	s.mu.Unlock()
	if over {
		s.sendError("", fmt.Sprintf("Invalid init_history command: the history would pass %d bytes; it was not added", maxHistoryBytes))
	}
	if late {
		fmt.Fprintln(s.log, "cairn: json-stream: init_history after the conversation started is ignored (the session already holds its history)")
	}
}

// onSetMode switches the approval mode for the calls checked from now on
// and for the tool_requests already waiting that the new mode allows.
func (s *server) onSetMode(c command) {
	mode, err := approval.ParseMode(c.Mode)
	if err != nil {
		s.sendError("", fmt.Sprintf("Invalid set_mode command: %v", err))
		return
	}
	s.host.Approvals.SetMode(mode)
	var release []string
	s.mu.Lock()
	if s.turn != nil {
		for _, cl := range s.turn.calls {
			if cl.question != "" && cl.verdict == undecided && allowedBy(mode, cl) {
				cl.verdict = approved
				release = append(release, cl.question)
			}
		}
	}
	s.mu.Unlock()
	// The confirmation goes first, so the released calls' frames follow it.
	s.send(line(configChangedFrame{Type: "config_changed", Capabilities: s.capabilities()}))
	for _, q := range release {
		s.answer(q, string(approval.OptionAllowOnce))
	}
}

// allowedBy reports whether mode lets a waiting call run without asking,
// as the gate would decide it: yolo allows everything; otherwise the mode
// must not ask for the category, and the question must be one the gate
// lets be remembered (a protected file is asked about in every other mode).
// A plan is never released by a mode.
func allowedBy(mode approval.Mode, c *call) bool {
	if offers(c.options, approval.OptionPlanDefault) {
		// A plan waits for the person's acceptance whatever the mode.
		return false
	}
	if mode == approval.ModeYolo {
		return true
	}
	return !mode.Asks(c.category) && offers(c.options, approval.OptionAllowSession)
}
