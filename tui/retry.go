package tui

import (
	"fmt"
	"math"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// retryState is an automatic retry under way: the status line counts down
// to it, and nothing about it goes into the transcript unless it fails for
// good.
type retryState struct {
	attempt, max int
	at           time.Time // when the next request goes out
	err          string    // why the last attempt failed
}

// onRetryStart replaces the failed answer with a countdown in the status
// line.
func (m *Model) onRetryStart(e core.AutoRetryStart) {
	m.retry = &retryState{attempt: e.Attempt, max: e.MaxAttempts, at: m.now().Add(e.Delay), err: e.ErrorMessage}
}

// onRetryEnd ends the countdown. A final failure is told once, by the
// failed answer that stays in the transcript, which then says how many
// retries were spent.
func (m *Model) onRetryEnd(e core.AutoRetryEnd) {
	m.retry = nil
	if e.Success {
		return
	}
	if a := m.lastAnswer(); a != nil && a.msg.StopReason == core.StopError {
		a.retries = e.Attempt
		m.touchItem(a)
	}
}

// onAgentEnd drops the failed answer of a run that will be retried: the
// session drops it from the conversation too, so the transcript keeps no
// error for an attempt that was repeated.
func (m *Model) onAgentEnd(e core.AgentEnd) {
	if !e.WillRetry {
		return
	}
	for i := len(m.tr.entries) - 1; i >= 0; i-- {
		if a, ok := m.tr.entries[i].it.(*assistantItem); ok {
			if a.msg.StopReason == core.StopError {
				m.tr.remove(i)
			}
			return
		}
	}
}

// lastAnswer is the newest answer in the transcript, or nil.
func (m *Model) lastAnswer() *assistantItem {
	for i := len(m.tr.entries) - 1; i >= 0; i-- {
		if a, ok := m.tr.entries[i].it.(*assistantItem); ok {
			return a
		}
	}
	return nil
}

// touchItem marks the entry holding it changed.
func (m *Model) touchItem(it item) {
	for i := len(m.tr.entries) - 1; i >= 0; i-- {
		if m.tr.entries[i].it == it {
			m.tr.entries[i].touch()
			return
		}
	}
}

// retryText is the status line's account of a retry: "retrying: attempt 2
// of 3 in 4 s", counting down from the clock.
func (r *retryState) text(now time.Time) string {
	s := fmt.Sprintf("retrying: attempt %d of %d", r.attempt, r.max)
	if left := r.at.Sub(now); left > 0 {
		s += fmt.Sprintf(" in %d s", int(math.Ceil(left.Seconds())))
	} else {
		s += "…"
	}
	return s
}
