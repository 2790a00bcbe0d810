package agent

import "github.com/cairn-dev/cairn/core"

// Publish puts e into the session's event stream, in order with the
// session's own events: every subscriber receives it after each event
// published before the call and before each event published after it.
// Front ends use it to place frames of their own among the session's events
// (rpc mode orders its command responses this way). Subscribers skip event
// types they do not know.
func (s *Session) Publish(e core.Event) { s.publish(e) }

// AddBashExecution adds a command the person ran outside the agent loop
// (`!cmd`, or rpc mode's bash command) to the conversation, so the model
// sees it with the next prompt. The message is persisted but, as in pi, no
// event announces it. While a prompt or a compaction is active nothing is
// added and it reports false: add the message again once the session has
// settled.
func (s *Session) AddBashExecution(m *core.BashExecutionMessage) bool {
	s.mu.Lock()
	if s.run != nil || s.compacting || s.closed {
		s.mu.Unlock()
		return false
	}
	// The store is written under the lock so no prompt can start between
	// the check and the append; bash results are rare and small.
	var id string
	var err error
	if s.cfg.Store != nil {
		id, err = s.cfg.Store.AppendMessage(m)
	}
	s.messages = append(s.messages, m)
	s.entryIDs = append(s.entryIDs, id)
	s.mu.Unlock()
	if err != nil {
		s.storeFailed(err)
	}
	return true
}
