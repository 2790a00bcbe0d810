package agent

import (
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/compaction"
)

// Generation identifies the conversation as it was at a moment: it changes
// whenever the session moves to another conversation (new, open, fork,
// branch).
type Generation uint64

// Generation returns the current conversation's generation. A front end
// takes it when a `!cmd` starts and hands it to AddBashExecution when the
// command ends, so a result from a command that ran across a conversation
// change is dropped rather than added to the wrong conversation.
func (s *Session) Generation() Generation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.generation
}

// AddBashExecution adds a command the person ran outside the agent loop
// (`!cmd`, or rpc mode's bash command) to the conversation, so the model
// sees it with the next prompt. The message is persisted but, as in pi, no
// event announces it. While a prompt or a compaction is active it waits,
// and joins the conversation when the session settles (before the
// agent_settled event) or ahead of the next prompt, whichever comes first.
// It reports false when the result was dropped: the conversation changed
// since gen, or the session is closed.
func (s *Session) AddBashExecution(m *core.BashExecutionMessage, gen Generation) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || gen != s.generation {
		return false
	}
	s.pendingBash = append(s.pendingBash, m)
	if s.run == nil && !s.compacting {
		s.flushBashLocked()
	}
	return true
}

// flushBashLocked adds the waiting `!cmd` results to the conversation.
// s.mu is held, so no prompt starts between the check and the append;
// bash results are rare and small.
func (s *Session) flushBashLocked() {
	for _, m := range s.pendingBash {
		s.keepLocked(m)
	}
	s.pendingBash = nil
	s.flushCustomLocked()
}

// ContextUsage is how full the model's context window is.
type ContextUsage struct {
	// Tokens is the context's size, the last answer's usage plus estimates
	// for what came after it; Known is false right after a compaction,
	// until the model has answered again.
	Tokens int
	Known  bool
	// Window is the model's context window; 0 when unknown.
	Window int
}

// Percent is Tokens as a share of Window (0 when either is unknown).
func (u ContextUsage) Percent() float64 {
	if !u.Known || u.Window <= 0 {
		return 0
	}
	return float64(u.Tokens) / float64(u.Window) * 100
}

// ContextUsage reports how full the context window is, by one formula for
// every front end (pi's: compaction.ContextTokens).
func (s *Session) ContextUsage() ContextUsage {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := ContextUsage{Window: s.model.ContextWindow, Known: !s.contextStale}
	if u.Known {
		u.Tokens = compaction.ContextTokens(s.messages)
	}
	return u
}

// keepLocked adds m, which arrived between runs, to the conversation and
// its session file; s.mu is held (a failed write is published, and
// publishing takes the bus lock, never s.mu).
func (s *Session) keepLocked(m core.Message) {
	var id string
	if s.store != nil {
		var err error
		if id, err = s.store.AppendMessage(m); err != nil {
			s.storeFailed(err)
		}
	}
	s.messages = append(s.messages, m)
	s.entryIDs = append(s.entryIDs, id)
}
