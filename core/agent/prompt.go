package agent

// How messages enter a session: prompts, steering and follow-ups, and
// aborts. run.go is the run they start.

import (
	"context"
	"errors"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// Behavior says what a prompt sent while the agent is busy should do.
type Behavior string

// The behaviours of a prompt sent during a run.
const (
	// BehaviorNone refuses the prompt while busy (ErrBusy).
	BehaviorNone Behavior = ""
	// BehaviorSteer delivers it at the next chance within the run.
	BehaviorSteer Behavior = "steer"
	// BehaviorFollowUp delivers it when the run would otherwise stop.
	BehaviorFollowUp Behavior = "followUp"
)

// Prompt starts working on text (with images). It returns once the prompt is
// accepted; progress arrives as events and the prompt ends with exactly one
// core.Settled. While the agent is busy, behavior decides whether the prompt
// steers, follows up, or is refused with ErrBusy. The agent is busy while
// an automatic retry waits too, as in pi 0.87: a plain prompt is refused
// (pi 0.73 cancelled the retry and ran it).
func (s *Session) Prompt(text string, images []core.Content, behavior Behavior) error {
	msg, err := s.lockFor(text, images)
	if err != nil {
		return err
	}
	if s.run != nil || s.compacting {
		switch {
		case behavior == BehaviorSteer:
			s.steering = append(s.steering, &queued{msg: msg, text: text})
		case behavior == BehaviorFollowUp:
			s.followUp = append(s.followUp, &queued{msg: msg, text: text})
		default:
			s.mu.Unlock()
			return ErrBusy
		}
		s.mu.Unlock()
		s.publishQueue()
		return nil
	}
	s.flushBashLocked()
	s.startRunLocked(s.withNextTurnLocked(msg))
	s.mu.Unlock()
	return nil
}

// ExpansionMessageType is the CustomType of the message that carries what
// a command typed as a prompt expands to (PromptExpanded).
const ExpansionMessageType = "command_expansion"

// PromptExpanded starts a prompt typed as a command (a prompt template's or
// an MCP prompt's "/name args") whose text for the model is expanded: the
// conversation keeps what was typed, as the person's message, and the
// expansion follows it as a custom message the model reads and front ends
// do not show (Claude Code keeps slash commands the same way). It is
// refused with ErrBusy while the agent works.
func (s *Session) PromptExpanded(typed, expanded string, images []core.Content) error {
	msg, err := s.lockFor(typed, images)
	if err != nil {
		return err
	}
	if s.run != nil || s.compacting {
		s.mu.Unlock()
		return ErrBusy
	}
	exp := &core.CustomMessage{CustomType: ExpansionMessageType, Content: []core.Content{core.TextBlock(expanded)}, Timestamp: s.now()}
	s.flushBashLocked()
	s.startRunLocked(s.withNextTurnLocked(msg, exp))
	s.mu.Unlock()
	return nil
}

// Steer queues a message for the active run. When idle it is queued too, as
// in pi: it goes with the next prompt, before the model is asked.
func (s *Session) Steer(text string, images []core.Content) error {
	msg, err := s.lockFor(text, images)
	if err != nil {
		return err
	}
	s.steering = append(s.steering, &queued{msg: msg, text: text})
	s.mu.Unlock()
	s.publishQueue()
	return nil
}

// lockFor builds the user message for text and images and takes s.mu for
// queueing or starting it; on an error (an empty message, a closed
// session) the lock is not held.
func (s *Session) lockFor(text string, images []core.Content) (*core.UserMessage, error) {
	msg, err := s.userMessage(text, images)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	return msg, nil
}

// FollowUp queues a message for when the active run would stop. When idle
// it is queued too, as in pi 0.87: it follows the next prompt, after the
// steering messages, once the model has answered that prompt. (A Prompt
// with BehaviorFollowUp sent while idle starts a run instead.)
func (s *Session) FollowUp(text string, images []core.Content) error {
	msg, err := s.lockFor(text, images)
	if err != nil {
		return err
	}
	s.followUp = append(s.followUp, &queued{msg: msg, text: text})
	s.mu.Unlock()
	s.publishQueue()
	return nil
}

// Abort stops the active prompt: the stream and every running tool. Queued
// messages stay queued. It returns at once; the prompt still settles.
func (s *Session) Abort() {
	s.mu.Lock()
	r := s.run
	s.mu.Unlock()
	if r != nil {
		r.cancel()
	}
}

// AbortAndWait aborts and waits for the prompt to settle.
func (s *Session) AbortAndWait(ctx context.Context) error {
	s.Abort()
	return s.Wait(ctx)
}

func (s *Session) userMessage(text string, images []core.Content) (*core.UserMessage, error) {
	if strings.TrimSpace(text) == "" && len(images) == 0 {
		return nil, ErrEmptyPrompt
	}
	content := make([]core.Content, 0, 1+len(images))
	content = append(content, core.TextBlock(text))
	for _, img := range images {
		if img.Type != core.ContentImage {
			return nil, errors.New("only image blocks may be attached to a prompt")
		}
		content = append(content, img)
	}
	return &core.UserMessage{Content: content, Timestamp: s.now()}, nil
}
