package agent

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// callerKey is the context key under which a running tool finds the
// session and call it runs for.
type callerKey struct{}

// Caller is the session a tool call runs in, and the call.
type Caller struct {
	Session *Session
	Call    core.ToolCall
}

// withCaller returns ctx carrying the session and call a tool runs for.
func withCaller(ctx context.Context, s *Session, call core.ToolCall) context.Context {
	return context.WithValue(ctx, callerKey{}, Caller{Session: s, Call: call})
}

// CallerOf returns the session and call whose tool is running under ctx
// (a tool's Execute gets such a context), and false outside one. The task
// tool reads it to start its child from the session that called it.
func CallerOf(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok && c.Session != nil
}

// ChildConfig returns what a child session of s (a subagent) starts from:
// the same providers, clocks, retry and compaction settings, answer
// length limit, approver and tools as s, at its current model and
// thinking level and system prompt, with no history and no conversation
// of its own (kept in memory), and the interceptors but those marked
// NotForChildren. The caller narrows it: a view of Toolset,
// an Approver that asks through s, its own prompt and conversation; it
// must never widen it.
func (s *Session) ChildConfig() Config {
	s.mu.Lock()
	model, thinking := s.model, s.thinking
	s.mu.Unlock()
	cfg := s.cfg
	cfg.Model, cfg.Thinking = model, thinking
	cfg.Models = nil
	cfg.History, cfg.EntryIDs = nil, nil
	cfg.Conversations, cfg.Store = nil, nil
	cfg.Processes = nil
	cfg.Interceptors = nil
	for _, ic := range s.cfg.Interceptors {
		if !ic.NotForChildren {
			cfg.Interceptors = append(cfg.Interceptors, ic)
		}
	}
	return cfg
}

// MessageUsage is the model usage a message accounts for: an answer's own,
// and for a tool result the usage its tool spent on models of its own
// (a subagent's answers), which the tool puts in its details as "usage"
// in core.Usage's shape. Totals (Stats, the footer) add it up, so a
// child's cost rolls up to its parent.
func MessageUsage(m core.Message) core.Usage {
	switch m := m.(type) {
	case *core.AssistantMessage:
		return m.Usage
	case *core.ToolResultMessage:
		return DetailsUsage(m.Details)
	}
	return core.Usage{}
}

// DetailsUsage reads the "usage" a tool result's details report (see
// MessageUsage); zero when they have none.
func DetailsUsage(details json.RawMessage) core.Usage {
	if !bytes.Contains(details, []byte(`"usage"`)) {
		return core.Usage{}
	}
	var d struct {
		Usage *core.Usage `json:"usage"`
	}
	if json.Unmarshal(details, &d) != nil || d.Usage == nil {
		return core.Usage{}
	}
	return *d.Usage
}
