package agent

// The BeforeSwitch point: interceptors may cancel a move to another
// conversation the person asked for (pi's session_before_switch and
// session_before_fork).

import (
	"context"
	"errors"
	"fmt"
)

// SwitchKind says what move to another conversation is about to happen.
type SwitchKind string

// The kinds of BeforeSwitch, named as pi's events say them.
const (
	// SwitchNew starts an empty conversation (pi's reason "new").
	SwitchNew SwitchKind = "new"
	// SwitchResume opens a stored conversation (pi's reason "resume").
	SwitchResume SwitchKind = "resume"
	// SwitchFork forks before a user message (pi's session_before_fork,
	// position "before").
	SwitchFork SwitchKind = "fork"
	// SwitchClone forks at the branch's tip (pi's session_before_fork,
	// position "at").
	SwitchClone SwitchKind = "clone"
)

// SwitchEvent is the BeforeSwitch point.
type SwitchEvent struct {
	Conversation ConversationInfo
	Kind         SwitchKind
	// Target is the session file a resume opens.
	Target string
	// EntryID is the entry a fork or clone starts from.
	EntryID string
}

// SwitchResult is what a BeforeSwitch handler decides.
type SwitchResult struct {
	// Cancel keeps the session in its conversation.
	Cancel bool
	// Reason says why, when the handler gives one.
	Reason string
}

// ErrSwitchCancelled is wrapped by the error of a conversation change a
// BeforeSwitch handler cancelled: nothing changed, and front ends report
// it as a cancel rather than a failure (pi's {cancelled: true}).
var ErrSwitchCancelled = errors.New("cancelled")

// beforeSwitch runs the BeforeSwitch handlers in order; the first that
// cancels (or fails: a failing handler never allows what it could have
// blocked) keeps the session where it is.
func (s *Session) beforeSwitch(e SwitchEvent) error {
	e.Conversation = s.Conversation()
	ctx := context.Background()
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.BeforeSwitch == nil {
			continue
		}
		r, err := intercept(ctx, ic, func(c context.Context) (SwitchResult, error) { return ic.BeforeSwitch(c, e) })
		if err != nil && nonBlocking(err) {
			s.interceptFailed(ctx, ic, "before switch", err)
			err = nil
		}
		if err != nil {
			return fmt.Errorf("%s %w: %s", switchWords(e.Kind), ErrSwitchCancelled, s.interceptFailed(ctx, ic, "before switch", err))
		}
		if r.Cancel {
			why := r.Reason
			if why == "" {
				why = "no reason given"
			}
			return fmt.Errorf("%s %w by %s: %s", switchWords(e.Kind), ErrSwitchCancelled, ic.Name, why)
		}
	}
	return nil
}

// switchWords names a move for the person.
func switchWords(k SwitchKind) string {
	switch k {
	case SwitchNew:
		return "new session"
	case SwitchResume:
		return "session switch"
	case SwitchClone:
		return "clone"
	}
	return "fork"
}
