package synaps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/jsonl"
)

// shuttingDown answers what arrives while serving stops.
const shuttingDown = "cairn is shutting down"

// dispatch serves one decoded command other than shutdown.
func (s *server) dispatch(c command) {
	id := &c.ID
	if !c.HasID {
		id = nil
	}
	reply := func(b body) { s.send(responseFrame(id, c.Type, b)) }
	switch c.Type {
	case "prompt", "follow_up":
		s.prompt(c)
	case "abort":
		s.abort(c)
	case "compact":
		s.startCompact(c)
	case "new_session":
		if s.busy() {
			// SynapsCLI refuses it with an error frame, as it does a
			// second prompt; the bridge reads that, not a response.
			s.send(errorFrame(id, busyMessage))
			return
		}
		reply(s.newSession())
	case "get_messages":
		s.messages(id, c.Type)
	case "set_model":
		reply(s.setModel(c.Model))
	case "get_available_models":
		reply(s.availableModels())
	case "get_session_stats":
		reply(s.sessionStats())
	case "get_state":
		reply(s.state())
	case "tools_list":
		reply(body{"ok": true, "tools": s.toolsList()})
	case "rewind":
		s.send(s.rewind(c))
	}
}

// busy reports whether a prompt or a compaction is in flight.
func (s *server) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn != nil || s.compact != nil
}

// prompt starts a turn, or refuses with error{id} when one is in flight,
// leaving it alone.
func (s *server) prompt(c command) {
	id := c.ID
	s.mu.Lock()
	if s.turn != nil || s.compact != nil {
		s.mu.Unlock()
		s.send(errorFrame(&id, busyMessage))
		return
	}
	if s.closing {
		s.mu.Unlock()
		s.send(responseFrame(&id, c.Type, body{"ok": false, "error": shuttingDown, "outcome": "rejected"}))
		return
	}
	t := &turn{id: c.ID, command: c.Type}
	s.turn = t
	s.mu.Unlock()
	err := s.sess.Prompt(promptText(c.Message, c.Attachments), nil, agent.BehaviorNone)
	if err == nil {
		return
	}
	s.mu.Lock()
	if s.turn == t {
		s.turn = nil
	}
	s.mu.Unlock()
	if errors.Is(err, agent.ErrBusy) {
		s.send(errorFrame(&id, busyMessage))
		return
	}
	s.send(responseFrame(&id, c.Type, body{"ok": false, "error": err.Error(), "outcome": "rejected"}))
}

// abort stops the turn or the compaction in flight; its response follows
// their last frames. While idle it answers at once.
func (s *server) abort(c command) {
	s.mu.Lock()
	if t := s.turn; t != nil {
		t.cancelled = true
		t.aborts = append(t.aborts, c.ID)
		s.mu.Unlock()
		s.sess.Abort()
		return
	}
	if cp := s.compact; cp != nil {
		cp.aborts = append(cp.aborts, c.ID)
		s.mu.Unlock()
		cp.cancel()
		return
	}
	s.mu.Unlock()
	id := c.ID
	s.send(responseFrame(&id, "abort", body{"ok": true}))
}

// startCompact discloses what compaction sends where, then summarises on
// a goroutine of its own, so abort is read meanwhile.
func (s *server) startCompact(c command) {
	id := c.ID
	s.mu.Lock()
	if s.turn != nil || s.compact != nil || s.closing {
		msg := busyMessage
		if s.closing {
			msg = shuttingDown
		}
		s.mu.Unlock()
		s.send(responseFrame(&id, "compact", body{"ok": false, "error": msg}))
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	cp := &compaction{cancel: cancel, done: make(chan struct{})}
	s.compact = cp
	s.work.Add(1)
	s.mu.Unlock()

	disclosure := s.disclosure()
	s.send(responseFrame(&id, "compact.disclosure", body{"ok": true, "disclosure": disclosure}))
	go func() {
		defer s.work.Done()
		defer close(cp.done)
		defer cancel()
		res, err := s.sess.Compact(ctx, "")
		s.mu.Lock()
		s.compact = nil
		aborts := cp.aborts
		s.mu.Unlock()
		switch {
		case err == nil:
			s.send(responseFrame(&id, "compact", body{"ok": true, "summary": res.Summary, "disclosure": disclosure,
				"tokens_before": res.TokensBefore}))
		case ctx.Err() != nil:
			s.send(responseFrame(&id, "compact", body{"ok": false, "cancelled": true, "error": "compaction cancelled", "disclosure": disclosure}))
		default:
			s.send(responseFrame(&id, "compact", body{"ok": false, "error": err.Error(), "disclosure": disclosure}))
		}
		for _, a := range aborts {
			s.send(responseFrame(&a, "abort", body{"ok": true}))
		}
	}()
}

// disclosure tells the host, before anything is sent, where the
// conversation goes to be summarised.
func (s *server) disclosure() string {
	m := s.sess.State().Model
	return fmt.Sprintf("Compacting: the older part of this conversation is sent to %s/%s to be summarised; the summary then replaces it in the model's context.", m.Provider, m.ID)
}

func (s *server) newSession() body {
	if err := s.sess.NewConversation(""); err != nil {
		return body{"ok": false, "error": err.Error()}
	}
	return body{"ok": true, "session_id": s.sess.Conversation().ID}
}

func (s *server) models() []core.Model {
	if s.host.Models == nil {
		return []core.Model{s.sess.State().Model}
	}
	return s.host.Models.Available()
}

// setModel switches to a model named by its id or by provider/id.
func (s *server) setModel(name string) body {
	for _, m := range s.models() {
		if m.ID == name || m.Provider+"/"+m.ID == name {
			if err := s.sess.SetModel(m); err != nil {
				return body{"ok": false, "error": err.Error()}
			}
			return body{"ok": true, "model": m.ID, "provider": m.Provider}
		}
	}
	return body{"ok": false, "error": fmt.Sprintf("no available model %q; get_available_models lists them", name)}
}

// modelInfo is one entry of get_available_models.
type modelInfo struct {
	ID            string `json:"id"`
	Provider      string `json:"provider"`
	Name          string `json:"name,omitempty"`
	ContextWindow int    `json:"context_window,omitempty"`
}

func (s *server) availableModels() body {
	ms := s.models()
	list := make([]modelInfo, len(ms))
	for i, m := range ms {
		list[i] = modelInfo{ID: m.ID, Provider: m.Provider, Name: m.Name, ContextWindow: m.ContextWindow}
	}
	return body{"ok": true, "models": list, "current": s.sess.State().Model.ID}
}

func (s *server) sessionStats() body {
	st := s.sess.Stats()
	return body{
		"ok":                          true,
		"input_tokens":                st.Usage.Input,
		"output_tokens":               st.Usage.Output,
		"cache_read_input_tokens":     st.Usage.CacheRead,
		"cache_creation_input_tokens": st.Usage.CacheWrite,
		"cost":                        st.Usage.Cost.Total,
		"message_count":               st.TotalMessages,
		"model":                       s.sess.State().Model.ID,
		"session_id":                  s.sess.Conversation().ID,
	}
}

func (s *server) state() body {
	st := s.sess.State()
	s.mu.Lock()
	streaming := s.turn != nil
	compacting := s.compact != nil
	s.mu.Unlock()
	b := body{
		"ok":            true,
		"streaming":     streaming || st.IsStreaming,
		"compacting":    compacting || st.IsCompacting,
		"model":         st.Model.ID,
		"session_id":    s.sess.Conversation().ID,
		"message_count": st.MessageCount,
	}
	if rw := s.sess.RewindStatus(); rw.Enabled {
		b["rewind"] = rw // cairn's: left out when checkpoints are off
	}
	return b
}

// toolInfo is one entry of tools_list.
type toolInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// toolsList lists the tools the session offers now: an MCP server's tools
// join once it is ready (Host.Tools is what it began with).
func (s *server) toolsList() []toolInfo {
	tools := s.host.Session.Tools()
	list := make([]toolInfo, 0, len(tools))
	for _, t := range tools {
		spec := t.Spec()
		schema := spec.Parameters
		if len(strings.TrimSpace(string(schema))) == 0 || !json.Valid(schema) {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		list = append(list, toolInfo{Name: spec.Name, Description: spec.Description, InputSchema: schema})
	}
	return list
}

// messages answers get_messages: response{id, command, messages, ok},
// the messages written by the writer one at a time (core.MessagesJSON), so
// a long session's history is never encoded whole in memory.
func (s *server) messages(id *string, command string) {
	list := core.MessagesJSON(s.sess.Messages())
	if err := list.Check(); err != nil {
		s.send(errorFrame(id, "internal error: cannot encode the messages: "+err.Error()))
		return
	}
	head := responseOf(id, command, nil)
	head = append(head[:len(head)-1], `,"messages":`...)
	s.sub.Mark(frameMark{jsonl.Frame{Head: head, Body: list, Tail: []byte(`,"ok":true}`)}})
}
