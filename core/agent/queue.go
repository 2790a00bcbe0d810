package agent

import "github.com/cairn-dev/cairn/core"

// takeSteering removes the steering messages due now (one, or all in
// AllAtOnce mode). Until each enters the conversation (enterQueued) the
// queue, as published, still holds it: as in pi 0.87.1, a queue_update
// follows each message taken, even when several are taken at once.
func (s *Session) takeSteering() []core.Message {
	return s.take(&s.steering, s.cfg.SteeringMode)
}

// takeFollowUp removes the follow-up messages due now.
func (s *Session) takeFollowUp() []core.Message {
	return s.take(&s.followUp, s.cfg.FollowUpMode)
}

func (s *Session) take(q *[]*queued, mode QueueMode) []core.Message {
	s.mu.Lock()
	if len(*q) == 0 {
		s.mu.Unlock()
		return nil
	}
	n := 1
	if mode == AllAtOnce {
		n = len(*q)
	}
	out := make([]core.Message, n)
	for i := 0; i < n; i++ {
		out[i] = (*q)[i].msg
	}
	s.entering = append([]*queued(nil), (*q)[:n]...)
	s.enteringSteering = q == &s.steering
	*q = append([]*queued(nil), (*q)[n:]...)
	s.mu.Unlock()
	return out
}

// enterQueued publishes the queues once the next message taken from them
// enters the conversation.
func (s *Session) enterQueued() {
	s.mu.Lock()
	if len(s.entering) > 0 {
		s.entering = s.entering[1:]
	}
	s.mu.Unlock()
	s.publishQueue()
}

// dropEntering forgets the messages taken from the queues that did not
// enter the conversation (the run stopped) and publishes the queues.
func (s *Session) dropEntering() {
	s.mu.Lock()
	s.entering = nil
	s.mu.Unlock()
	s.publishQueue()
}

// publishQueue reports what is waiting in both queues, with the messages
// taken that have yet to enter the conversation.
func (s *Session) publishQueue() {
	s.mu.Lock()
	steering, followUp := texts(s.steering), texts(s.followUp)
	if len(s.entering) > 0 {
		if s.enteringSteering {
			steering = append(texts(s.entering), steering...)
		} else {
			followUp = append(texts(s.entering), followUp...)
		}
	}
	e := core.QueueUpdate{Steering: steering, FollowUp: followUp}
	s.mu.Unlock()
	s.publish(e)
}

func texts(q []*queued) []string {
	out := make([]string, 0, len(q))
	for _, m := range q {
		if !m.hidden {
			out = append(out, m.text)
		}
	}
	return out
}

// ClearQueues empties both queues and returns their texts, steering first,
// so a front end can put them back in the editor.
func (s *Session) ClearQueues() []string {
	steering, followUp := s.TakeQueued()
	return append(steering, followUp...)
}

// TakeQueued empties both queues and returns their texts apart, as rpc's
// clear_queue reports them.
func (s *Session) TakeQueued() (steering, followUp []string) {
	s.mu.Lock()
	steering, followUp = texts(s.steering), texts(s.followUp)
	s.steering, s.followUp = nil, nil
	s.mu.Unlock()
	s.publishQueue()
	return steering, followUp
}
