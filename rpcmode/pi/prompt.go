package pi

import (
	"errors"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// errBusy is pi's wording of agent.ErrBusy, which hosts match on.
var errBusy = errors.New("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.")

// prompt answers prompt, steer and follow_up. The response is written
// before the prompt's agent_start and after the queue_update a queued
// message causes, as pi writes them; there is exactly one response, also
// when the prompt is refused. With fromField, the behaviour while busy
// comes from the streamingBehavior field.
func (s *server) prompt(c *command, behavior agent.Behavior, fromField bool) {
	text, images, err := promptFields(c)
	if err == nil && fromField {
		var b string
		b, _, err = c.optOneOf("streamingBehavior", string(agent.BehaviorSteer), string(agent.BehaviorFollowUp))
		behavior = agent.Behavior(b)
	}
	if err != nil {
		s.reply(s.response(c, nil, err))
		return
	}
	s.accept(c, text, images, behavior)
}

// promptFields reads a prompt's message and images.
func promptFields(c *command) (string, []core.Content, error) {
	text, err := c.str("message")
	if err != nil {
		return "", nil, err
	}
	images, err := c.images()
	return text, images, err
}

// accept hands a prompt to the session and writes the response in its
// place among the events: the writer holds frames back from just before
// Prompt until the response is known.
func (s *server) accept(c *command, text string, images []core.Content, behavior agent.Behavior) {
	s.promptMu.Lock()
	defer s.promptMu.Unlock()
	s.sub.Mark(mark{srv: s, kind: markHold})
	err := s.sess.Prompt(text, images, behavior)
	if errors.Is(err, agent.ErrBusy) {
		err = errBusy
	}
	s.sub.Mark(mark{srv: s, kind: markRelease, line: s.response(c, nil, err).appendTo(nil)})
}

// abortAndPrompt is oh-my-pi's abort_and_prompt: abort the running prompt,
// wait for it to settle, then send this one.
func (s *server) abortAndPrompt(c *command) {
	text, images, err := promptFields(c)
	if err != nil {
		s.reply(s.response(c, nil, err))
		return
	}
	if err := s.stop(); err != nil {
		s.reply(s.response(c, nil, err))
		return
	}
	s.accept(c, text, images, agent.BehaviorNone)
}
