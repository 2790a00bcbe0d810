package agent

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-dev/cairn/core"
)

// Where an extension's custom message goes (pi's sendMessage deliverAs).
const (
	DeliverSteer    = "steer"
	DeliverFollowUp = "followUp"
	DeliverNextTurn = "nextTurn"
)

// SendCustom adds an extension's message to the conversation, as pi's
// sendMessage does: a custom_message entry the model reads as the user's
// (front ends show it when m.Display is set).
//
//   - deliverAs "nextTurn": it goes with the next prompt.
//   - While the agent works, unless triggerTurn is false: it steers the
//     run, or follows it with deliverAs "followUp".
//   - Idle with triggerTurn: it starts a run.
//   - Otherwise it joins the conversation without a run: now when idle,
//     when the session settles while it works.
func (s *Session) SendCustom(m *core.CustomMessage, triggerTurn *bool, deliverAs string) error {
	if m == nil || m.CustomType == "" {
		return errors.New("a custom message needs a customType")
	}
	switch deliverAs {
	case "", DeliverSteer, DeliverFollowUp, DeliverNextTurn:
	default:
		return fmt.Errorf(`deliverAs %q: pi's are "steer", "followUp" and "nextTurn"`, deliverAs)
	}
	if m.Timestamp == 0 {
		m.Timestamp = s.now()
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	busy := s.run != nil || s.compacting
	trigger := triggerTurn != nil && *triggerTurn
	switch {
	case deliverAs == DeliverNextTurn:
		s.nextTurn = append(s.nextTurn, m)
	case busy && (triggerTurn == nil || *triggerTurn):
		q := &queued{msg: m, hidden: true}
		if deliverAs == DeliverFollowUp {
			s.followUp = append(s.followUp, q)
		} else {
			s.steering = append(s.steering, q)
		}
	case !busy && trigger:
		s.flushBashLocked()
		s.startRunLocked([]core.Message{m})
	default:
		s.pendingCustom = append(s.pendingCustom, m)
		if !busy {
			s.flushBashLocked()
		}
	}
	s.mu.Unlock()
	return nil
}

// flushCustomLocked adds the custom messages waiting to the conversation
// and announces them; s.mu is held (publishing takes the bus lock, never
// s.mu).
func (s *Session) flushCustomLocked() {
	for _, m := range s.pendingCustom {
		s.keepLocked(m)
		s.publish(core.MessageStart{Message: m})
		s.publish(core.MessageEnd{Message: m})
	}
	s.pendingCustom = nil
}

// withNextTurnLocked is a prompt's messages with the extensions' messages
// waiting for it after them, which it takes; s.mu is held.
func (s *Session) withNextTurnLocked(msgs ...core.Message) []core.Message {
	out := slices.Concat(msgs, s.nextTurn)
	s.nextTurn = nil
	return out
}
