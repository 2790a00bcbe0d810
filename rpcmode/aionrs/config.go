package aionrs

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// configChange is set_config's fields, as AionUi sends them (aionrs's
// SetConfig): each present field is a change; effort "" clears it.
type configChange struct {
	Model          *string         `json:"model"`
	Thinking       *string         `json:"thinking"`
	ThinkingBudget *int            `json:"thinking_budget"`
	Effort         *string         `json:"effort"`
	ImageInput     json.RawMessage `json:"image_input"`
	Compaction     *string         `json:"compaction"`
}

// merge lays a later set_config over one still waiting: the later wins
// field by field, as aionrs keeps only the last.
func (c *configChange) merge(later configChange) {
	if later.Model != nil {
		c.Model = later.Model
	}
	if later.Thinking != nil {
		c.Thinking = later.Thinking
	}
	if later.ThinkingBudget != nil {
		c.ThinkingBudget = later.ThinkingBudget
	}
	if later.Effort != nil {
		c.Effort = later.Effort
	}
	if later.ImageInput != nil {
		c.ImageInput = later.ImageInput
	}
	if later.Compaction != nil {
		c.Compaction = later.Compaction
	}
}

// onSetConfig applies set_config at once, reporting what changed in an
// info and the new state in config_changed, as aionrs does; while a
// message is in flight it waits for the message's stream_end (aionrs's
// "queued" info says so).
func (s *server) onSetConfig(c command) {
	s.mu.Lock()
	if s.turn != nil {
		if s.pendingConfig == nil {
			s.pendingConfig = &configChange{}
		}
		s.pendingConfig.merge(*c.Config)
		s.mu.Unlock()
		s.send(line(infoFrame{Type: "info", MsgID: new(string), Message: "set_config: queued, will apply after current response"}))
		return
	}
	s.mu.Unlock()
	s.applyConfig(*c.Config, "config updated")
}

// applyPendingConfig applies a set_config that waited for the message
// that just ended.
func (s *server) applyPendingConfig() {
	s.mu.Lock()
	pending := s.pendingConfig
	s.pendingConfig = nil
	s.mu.Unlock()
	if pending != nil {
		s.applyConfig(*pending, "config applied")
	}
}

// applyConfig makes the changes and reports them.
func (s *server) applyConfig(c configChange, verb string) {
	changes := s.configure(c)
	msg := "set_config: no changes"
	if len(changes) > 0 {
		msg = verb + ": " + strings.Join(changes, ", ")
	}
	s.send(line(infoFrame{Type: "info", MsgID: new(string), Message: msg}))
	s.send(line(configChangedFrame{Type: "config_changed", Capabilities: s.capabilities()}))
}

// configure makes each change it can and describes every one, including
// the ones it refused, for the info frame the host shows.
func (s *server) configure(c configChange) []string {
	var out []string
	if c.Model != nil {
		out = append(out, s.switchModel(*c.Model))
	}
	if c.Thinking != nil || c.ThinkingBudget != nil || c.Effort != nil {
		out = append(out, s.setThinking(c))
	}
	if c.ImageInput != nil {
		out = append(out, "image input: cairn reads it from the model, not from set_config; unchanged")
	}
	if c.Compaction != nil {
		out = append(out, "compaction: cairn's settings decide it (compaction in settings.json); unchanged")
	}
	return out
}

// switchModel changes to the model named: one cairn knows by that id
// (the current provider's first), else the current model's server and
// wire format under the new id, which is what aionrs does with a model
// string (AionUi's OpenAI-compatible platforms list ids cairn has never
// heard of).
func (s *server) switchModel(id string) string {
	cur := s.sess.State().Model
	id = strings.TrimSpace(id)
	if id == "" {
		return "model: an empty id was ignored; " + cur.ID + " stays"
	}
	next, found := core.Model{}, false
	if s.host.Models != nil {
		for _, m := range s.host.Models() {
			if m.ID == id && (!found || m.Provider == cur.Provider) {
				next, found = m, true
			}
		}
	}
	if !found {
		next = cur
		next.ID, next.Name = id, id
	}
	if err := s.sess.SetModel(next); err != nil {
		return fmt.Sprintf("model: %v; %s stays", err, cur.ID)
	}
	return fmt.Sprintf("model: %s → %s", cur.ID, next.ID)
}

// setThinking maps aionrs's thinking switch, budget and effort onto
// cairn's one thinking level: disabled is off; an effort names a level;
// enabled takes the level its budget suggests (medium without one).
func (s *server) setThinking(c configChange) string {
	var level core.ThinkingLevel
	switch {
	case c.Thinking != nil && *c.Thinking == "disabled":
		level = core.ThinkingOff
	case c.Thinking != nil && *c.Thinking != "enabled":
		return fmt.Sprintf("thinking: ignored invalid value %q (enabled or disabled)", *c.Thinking)
	case c.Effort != nil && *c.Effort == "":
		level = core.ThinkingMedium
	case c.Effort != nil:
		l, err := core.ParseThinkingLevel(*c.Effort)
		if err != nil || l == core.ThinkingOff {
			return fmt.Sprintf("effort: invalid level %q (valid: low, medium, high)", *c.Effort)
		}
		level = l
	case c.ThinkingBudget != nil:
		level = budgetLevel(*c.ThinkingBudget)
	default:
		level = core.ThinkingMedium
	}
	before := s.sess.State().Thinking
	if err := s.sess.SetThinkingLevel(level); err != nil {
		return fmt.Sprintf("thinking: %v", err)
	}
	return fmt.Sprintf("thinking: %s → %s", before, s.sess.State().Thinking)
}

// budgetLevel is the thinking level closest to a token budget.
func budgetLevel(budget int) core.ThinkingLevel {
	switch {
	case budget <= 0:
		return core.ThinkingOff
	case budget <= 2048:
		return core.ThinkingLow
	case budget <= 12000:
		return core.ThinkingMedium
	case budget <= 24000:
		return core.ThinkingHigh
	}
	return core.ThinkingXHigh
}
