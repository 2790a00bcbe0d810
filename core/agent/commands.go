package agent

import (
	"fmt"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
)

// State is a snapshot of the session for get_state and status lines.
type State struct {
	Model               core.Model
	Thinking            core.ThinkingLevel
	IsStreaming         bool
	IsCompacting        bool
	SteeringMode        QueueMode
	FollowUpMode        QueueMode
	InterruptMode       InterruptMode
	AutoCompaction      bool
	AutoRetry           bool
	MessageCount        int
	PendingMessageCount int
}

// State returns the session's current state.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return State{
		Model:               s.model,
		Thinking:            s.thinking,
		IsStreaming:         s.run != nil,
		IsCompacting:        s.compacting,
		SteeringMode:        s.cfg.SteeringMode,
		FollowUpMode:        s.cfg.FollowUpMode,
		InterruptMode:       s.cfg.InterruptMode,
		AutoCompaction:      s.cfg.Compaction.Enabled,
		AutoRetry:           s.cfg.Retry.Enabled,
		MessageCount:        len(s.messages),
		PendingMessageCount: len(s.steering) + len(s.followUp),
	}
}

// Messages returns the conversation as the model will see it next (after
// compaction, the summary and what was kept), agent roles included.
func (s *Session) Messages() []core.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.messages)
}

// Tools returns the tools the session offers the model now (cairn's own and
// those of the MCP servers ready now), for front ends that list them. The
// list can change between calls: a front end that needs a tool's category
// or kind by name asks Tool.
func (s *Session) Tools() []core.Tool { return s.cfg.Toolset.Tools() }

// Tool returns the tool a call of name runs now, declared or not, or nil.
func (s *Session) Tool(name string) core.Tool { return s.cfg.Toolset.Find(name) }

// EntryIDs returns the session-file entry ids of Messages, "" for messages
// that were not stored.
func (s *Session) EntryIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.entryIDs)
}

// Stats counts the messages and tokens of a session (see Session.Stats).
type Stats struct {
	UserMessages      int
	AssistantMessages int
	ToolCalls         int
	ToolResults       int
	TotalMessages     int
	Usage             core.Usage
}

// Stats returns counts and usage over the whole session, as pi 0.87's
// get_session_stats counts them: every message entry (each branch, and
// those a compaction has since summarised) and what every compaction's
// summary cost, so they never fall when the context is compacted. A
// conversation whose entries are not kept counts its current context.
func (s *Session) Stats() Stats {
	if entries, _, err := s.Entries(); err == nil {
		return statsOf(entries)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var st Stats
	for _, m := range s.messages {
		st.count(m)
	}
	st.TotalMessages = len(s.messages)
	return st
}

// statsOf counts a session's entries.
func statsOf(entries []session.Entry) Stats {
	var st Stats
	for _, e := range entries {
		switch p := e.Payload.(type) {
		case *session.MessageEntry:
			st.count(p.Message)
			st.TotalMessages++
		case *session.CompactionEntry:
			if p.Usage != nil {
				st.Usage = st.Usage.Add(*p.Usage)
			}
		}
	}
	return st
}

// count adds one message to the counts.
func (st *Stats) count(m core.Message) {
	switch m := m.(type) {
	case *core.UserMessage:
		st.UserMessages++
	case *core.AssistantMessage:
		st.AssistantMessages++
		st.ToolCalls += len(m.ToolCalls())
		st.Usage = st.Usage.Add(m.Usage)
	case *core.ToolResultMessage:
		st.ToolResults++
		st.Usage = st.Usage.Add(MessageUsage(m))
	}
}

// LastAssistantText returns the text of the newest assistant message that
// has any, and whether there was one.
func (s *Session) LastAssistantText() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.messages) - 1; i >= 0; i-- {
		if a, ok := s.messages[i].(*core.AssistantMessage); ok {
			if t := a.Text(); t != "" {
				return t, true
			}
		}
	}
	return "", false
}

// SetModel switches the model for the next request; the thinking level is
// kept, or turned off for a model that cannot reason.
func (s *Session) SetModel(m core.Model) error {
	if _, err := s.cfg.Open(m); err != nil {
		return fmt.Errorf("cannot use %s/%s: %w", m.Provider, m.ID, err)
	}
	s.mu.Lock()
	s.model = m
	level := ClampThinking(m, s.thinking)
	changed := level != s.thinking
	s.thinking = level
	s.mu.Unlock()
	if st := s.currentStore(); st != nil {
		if err := st.AppendModelChange(m.Provider, m.ID); err != nil {
			s.storeFailed(err)
		}
	}
	s.publish(core.ModelChanged{Model: m})
	if changed {
		s.publish(core.ThinkingLevelChanged{Level: level})
	}
	return nil
}

// CycleModel switches to the next model of Config.Models and returns it;
// ok is false when there is nothing to cycle to.
func (s *Session) CycleModel() (core.Model, bool, error) {
	s.mu.Lock()
	models, cur := s.cfg.Models, s.model
	s.mu.Unlock()
	if len(models) < 2 {
		return cur, false, nil
	}
	i := slices.IndexFunc(models, func(m core.Model) bool { return m.Provider == cur.Provider && m.ID == cur.ID })
	next := models[(i+1)%len(models)]
	if err := s.SetModel(next); err != nil {
		return cur, false, err
	}
	return next, true, nil
}

// SetThinkingLevel changes the thinking level (xhigh becomes high on a
// model without it). A model without reasoning stays at off, which is
// reported as an error saying so.
func (s *Session) SetThinkingLevel(level core.ThinkingLevel) error {
	if _, err := core.ParseThinkingLevel(string(level)); err != nil {
		return err
	}
	s.mu.Lock()
	if !s.model.Reasoning && level != core.ThinkingOff {
		s.mu.Unlock()
		return fmt.Errorf("%s does not support thinking; the level stays off", s.model.ID)
	}
	level = ClampThinking(s.model, level)
	changed := s.thinking != level
	s.thinking = level
	s.mu.Unlock()
	if !changed {
		return nil
	}
	if st := s.currentStore(); st != nil {
		if err := st.AppendThinkingLevel(level); err != nil {
			s.storeFailed(err)
		}
	}
	s.publish(core.ThinkingLevelChanged{Level: level})
	return nil
}

// CycleThinkingLevel moves to the next level (wrapping to off) and returns
// it; ok is false for a model without reasoning.
func (s *Session) CycleThinkingLevel() (core.ThinkingLevel, bool) {
	s.mu.Lock()
	cur, reasoning := s.thinking, s.model.Reasoning
	s.mu.Unlock()
	if !reasoning {
		return cur, false
	}
	i := slices.Index(core.ThinkingLevels, cur)
	next := core.ThinkingLevels[(i+1)%len(core.ThinkingLevels)]
	if err := s.SetThinkingLevel(next); err != nil {
		return cur, false
	}
	return next, true
}

// SetSteeringMode sets how many steering messages are taken at a time.
func (s *Session) SetSteeringMode(m QueueMode) error {
	if err := checkQueueMode(m); err != nil {
		return err
	}
	s.mu.Lock()
	s.cfg.SteeringMode = m
	s.mu.Unlock()
	return nil
}

// SetFollowUpMode sets how many follow-up messages are taken at a time.
func (s *Session) SetFollowUpMode(m QueueMode) error {
	if err := checkQueueMode(m); err != nil {
		return err
	}
	s.mu.Lock()
	s.cfg.FollowUpMode = m
	s.mu.Unlock()
	return nil
}

// SetInterruptMode sets when steering messages take effect.
func (s *Session) SetInterruptMode(m InterruptMode) error {
	if m != InterruptImmediate && m != InterruptWait {
		return fmt.Errorf("unknown interrupt mode %q: use %q or %q", m, InterruptImmediate, InterruptWait)
	}
	s.mu.Lock()
	s.cfg.InterruptMode = m
	s.mu.Unlock()
	return nil
}

func checkQueueMode(m QueueMode) error {
	if m != OneAtATime && m != AllAtOnce {
		return fmt.Errorf("unknown queue mode %q: use %q or %q", m, OneAtATime, AllAtOnce)
	}
	return nil
}

// SetAutoCompaction turns automatic compaction on or off for this session.
func (s *Session) SetAutoCompaction(on bool) {
	s.mu.Lock()
	s.cfg.Compaction.Enabled = on
	s.mu.Unlock()
}

// SetAutoRetry turns automatic retries on or off for this session.
func (s *Session) SetAutoRetry(on bool) {
	s.mu.Lock()
	s.cfg.Retry.Enabled = on
	s.mu.Unlock()
}

// retryDelay is pi's backoff: BaseDelay doubled per attempt, capped.
func retryDelay(r RetrySettings, attempt int) time.Duration {
	d := r.BaseDelay << (attempt - 1)
	if r.MaxDelay > 0 && (d > r.MaxDelay || d <= 0) {
		d = r.MaxDelay
	}
	return d
}
