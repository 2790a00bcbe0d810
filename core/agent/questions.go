package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// ErrNoQuestion answers Answer for a question that is not open: unknown,
// already answered, timed out or withdrawn.
var ErrNoQuestion = errors.New("no open question has that id (it was answered, timed out or withdrawn)")

// openQuestion is a question waiting for its answer.
type openQuestion struct {
	q     core.Question
	reply chan core.Answer // buffered: Answer never blocks
	// dismiss is closed when a front end dismisses the question.
	dismiss chan struct{}
}

// asker is the session as the core.Asker its approver uses; call, when
// set, is the tool call being approved.
type asker struct {
	s    *Session
	call *core.ToolCall
}

// Ask implements core.Asker. An approval question about call is first put
// to the PermissionRequest handlers, which may answer it for the person.
func (a asker) Ask(ctx context.Context, q core.Question) (core.Answer, core.Outcome) {
	if a.call != nil && q.Purpose == core.PurposeApproval && !a.s.cfg.Unattended {
		if ans, ok := a.s.permissionRequest(ctx, *a.call, q); ok {
			return ans, core.Answered
		}
	}
	return a.s.Ask(ctx, q)
}

// Ask puts q to whoever is in front of the session. The question is published as an event, in
// order with the events around it, and waits for Answer or Dismiss, its
// deadline or ctx. A QuestionClosed event follows it whatever the outcome.
// With Config.Unattended nothing is published and the outcome is
// core.NoOneToAsk at once.
func (s *Session) Ask(ctx context.Context, q core.Question) (core.Answer, core.Outcome) {
	if s.cfg.Unattended {
		return core.Answer{}, core.NoOneToAsk
	}
	if ctx.Err() != nil {
		return core.Answer{}, core.Aborted
	}
	q.ID = core.NewUUID()
	var expired <-chan time.Time
	if q.Timeout > 0 {
		q.Deadline = s.cfg.Now().Add(q.Timeout)
		expired = s.cfg.After(q.Timeout)
	}
	oq := &openQuestion{q: q, reply: make(chan core.Answer, 1), dismiss: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return core.Answer{}, core.Aborted
	}
	s.questions[q.ID] = oq
	s.mu.Unlock()
	s.publish(q)
	s.notify(q)

	var ans core.Answer
	out := core.Answered
	select {
	case ans = <-oq.reply:
	case <-oq.dismiss:
		out = core.Dismissed
	case <-expired:
		out = core.TimedOut
	case <-ctx.Done():
		out = core.Aborted
	case <-s.base.Done():
		out = core.Aborted
	}
	s.mu.Lock()
	delete(s.questions, q.ID)
	s.mu.Unlock()
	s.publish(core.QuestionClosed{ID: q.ID, Outcome: out, Answer: ans.Value})
	return ans, out
}

// Answer answers the open question id. For a select question the value must
// be one of its options' values.
func (s *Session) Answer(id string, a core.Answer) error {
	oq, err := s.takeQuestion(id)
	if err != nil {
		return err
	}
	oq.reply <- a
	return nil
}

// Dismiss declines to answer the open question id, as a person closing the
// prompt does; the asker treats it as a refusal.
func (s *Session) Dismiss(id string) error {
	oq, err := s.takeQuestion(id)
	if err != nil {
		return err
	}
	close(oq.dismiss)
	return nil
}

// takeQuestion removes the open question id, so it is resolved once.
func (s *Session) takeQuestion(id string) (*openQuestion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	oq, ok := s.questions[id]
	if !ok {
		return nil, ErrNoQuestion
	}
	delete(s.questions, id)
	return oq, nil
}

// OpenQuestions returns the questions waiting for an answer, for a front
// end that attaches while one is open.
func (s *Session) OpenQuestions() []core.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]core.Question, 0, len(s.questions))
	for _, oq := range s.questions {
		out = append(out, oq.q)
	}
	return out
}

// permissionRequest puts an approval question about call to the
// PermissionRequest handlers, in order; the first that decides answers it
// with the question's own options (allow once, or deny with its reason).
// ok is false when none decided, or the question lacks those options.
func (s *Session) permissionRequest(ctx context.Context, call core.ToolCall, q core.Question) (core.Answer, bool) {
	has := func(v string) bool {
		for _, o := range q.Options {
			if o.Value == v {
				return true
			}
		}
		return false
	}
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.PermissionRequest == nil {
			continue
		}
		e := PermissionRequestEvent{Conversation: s.Conversation(), Call: call, Question: q}
		r, err := intercept(ctx, ic, func(c context.Context) (PermissionRequestResult, error) { return ic.PermissionRequest(c, e) })
		if err != nil {
			s.interceptFailed(ctx, ic, "permission request", err)
			continue
		}
		switch {
		case r.Decision == CallAllow && has(string(approval.OptionAllowOnce)):
			s.publish(core.Notice{Level: core.NotifyInfo, Message: fmt.Sprintf("%s allowed %s", ic.Name, call.Name)})
			return core.Answer{Value: string(approval.OptionAllowOnce)}, true
		case r.Decision == CallBlock && has(string(approval.OptionDenyReason)):
			reason := r.Reason
			if reason == "" {
				reason = "denied by " + ic.Name
			}
			return core.Answer{Value: string(approval.OptionDenyReason), Text: reason}, true
		case r.Decision == CallBlock && has(string(approval.OptionDeny)):
			return core.Answer{Value: string(approval.OptionDeny)}, true
		}
	}
	return core.Answer{}, false
}

// notify tells the Notification handlers about a question, on goroutines
// that Close waits for.
func (s *Session) notify(q core.Question) {
	kind := NotifyElicitation
	if q.Purpose == core.PurposeApproval {
		kind = NotifyPermission
	}
	var e *NotificationEvent
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.Notification == nil {
			continue
		}
		if e == nil {
			e = &NotificationEvent{Conversation: s.Conversation(), Kind: kind, Title: q.Title, Message: q.Message}
		}
		ev := *e
		s.icpt.notes.Add(1)
		go func() {
			defer s.icpt.notes.Done()
			if _, err := intercept(s.base, ic, func(c context.Context) (struct{}, error) {
				return struct{}{}, ic.Notification(c, ev)
			}); err != nil {
				s.interceptFailed(s.base, ic, "notification", err)
			}
		}()
	}
}
