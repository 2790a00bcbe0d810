package pi

import (
	"context"
	"errors"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// errBusy is pi's wording of agent.ErrBusy, which hosts match on.
var errBusy = errors.New("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.")

// errCompacting is pi's refusal of a prompt, without a streamingBehavior,
// while a compaction runs: it says to wait, as queueing is not what helps.
var errCompacting = errors.New("Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.")

// prompt answers prompt, steer and follow_up. The response is written
// before the prompt's agent_start and after the queue_update a queued
// message causes, as pi writes them; there is exactly one response, also
// when the prompt is refused. With fromField, the behaviour while busy
// comes from the streamingBehavior field.
func (s *server) prompt(c *command, behavior agent.Behavior, fromField bool) {
	text, images, err := s.promptFields(c)
	if err == nil && fromField {
		var b string
		b, _, err = c.optOneOf("streamingBehavior", string(agent.BehaviorSteer), string(agent.BehaviorFollowUp))
		behavior = agent.Behavior(b)
	}
	if err != nil {
		s.reply(s.response(c, nil, err))
		return
	}
	s.accept(c, text, images, behavior, fromField)
}

// promptFields reads a prompt's message and images. A message starting
// with a prompt template's /name becomes the template's text, as pi
// expands templates before a message is sent or queued; one starting with
// an MCP prompt's /mcp__<server>__<prompt> becomes the prompt the server
// returns (its images go first), asked for here, so the messages keep
// their order.
func (s *server) promptFields(c *command) (string, []core.Content, error) {
	text, err := c.str("message")
	if err != nil {
		return "", nil, err
	}
	images, err := c.images()
	if err != nil {
		return "", nil, err
	}
	text, expanded := s.host.Prompts.Expand(text)
	if expanded {
		return text, images, nil
	}
	if !s.host.MCPPrompts.NamesPrompt(text) {
		return text, images, nil
	}
	errAborted := errors.New("aborted: the MCP prompt was not asked for")
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	s.mu.Lock()
	if s.abortsRead > s.abortsDone {
		// An abort after this prompt has been read already.
		s.mu.Unlock()
		return "", nil, errAborted
	}
	s.expanding = cancel
	s.mu.Unlock()
	exp, ok, err := s.host.MCPPrompts.ExpandPrompt(ctx, text)
	s.mu.Lock()
	s.expanding = nil
	s.mu.Unlock()
	if !ok {
		return text, images, nil
	}
	if err != nil && ctx.Err() != nil && s.ctx.Err() == nil {
		return "", nil, errAborted
	}
	if err != nil {
		return "", nil, err
	}
	return exp.Text, append(exp.Images, images...), nil
}

// disposition is the data of an accepted prompt (pi 0.99): whether it
// started a run, was queued behind the running one, or was handled by an
// extension command.
type disposition struct {
	Disposition string `json:"disposition"`
}

// accept hands a prompt to the session and writes the response in its
// place among the events: the writer holds frames back from just before
// Prompt until the response is known.
func (s *server) accept(c *command, text string, images []core.Content, behavior agent.Behavior, fromPrompt bool) {
	s.promptMu.Lock()
	defer s.promptMu.Unlock()
	// A message sent while the agent works, with a behaviour, is queued;
	// one sent while idle starts a run.
	st := s.sess.State()
	queued := (st.IsStreaming || st.IsCompacting) && behavior != agent.BehaviorNone
	// An extension command run from an idle prompt is answered when it
	// has finished (extcommand.go); any other prompt before its run.
	command := fromPrompt && !st.IsStreaming && !st.IsCompacting && s.isExtensionCommand(text)
	if command {
		s.sub.Mark(mark{srv: s, kind: markCommand})
	} else {
		s.sub.Mark(mark{srv: s, kind: markHold})
	}
	var err error
	switch {
	case behavior == agent.BehaviorSteer && !fromPrompt:
		// The steer command queues, idle or not, as pi does: an idle
		// agent takes the message with the next prompt.
		err, queued = s.sess.Steer(text, images), true
	case behavior == agent.BehaviorFollowUp && !fromPrompt:
		// So does follow_up (pi 0.87): an idle agent sends it after the
		// next prompt's answer.
		err, queued = s.sess.FollowUp(text, images), true
	default:
		err = s.sess.Prompt(text, images, behavior)
	}
	if errors.Is(err, agent.ErrBusy) {
		err = errBusy
		if st.IsCompacting || s.sess.State().IsCompacting {
			err = errCompacting
		}
	}
	var data any
	if err == nil && !s.host.Compat073 {
		data = disposition{"started"}
		switch {
		case command:
			data = disposition{"handled"}
		case queued:
			data = disposition{"queued"}
		}
	}
	line := s.response(c, data, err).appendTo(nil)
	if command {
		s.sub.Mark(mark{srv: s, kind: markCommandAnswer, line: line, immediate: err != nil})
		return
	}
	s.sub.Mark(mark{srv: s, kind: markRelease, line: line})
}

// abortAndPrompt is oh-my-pi's abort_and_prompt: abort the running prompt,
// wait for it to settle, then send this one.
func (s *server) abortAndPrompt(c *command) {
	text, images, err := s.promptFields(c)
	if err != nil {
		s.reply(s.response(c, nil, err))
		return
	}
	if err := s.stop(); err != nil {
		s.reply(s.response(c, nil, err))
		return
	}
	s.accept(c, text, images, agent.BehaviorNone, true)
}
