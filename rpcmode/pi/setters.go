package pi

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-dev/cairn/core/approval"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/settings"
)

// errEmptyName is pi's answer to set_session_name with a blank name.
var errEmptyName = errors.New("Session name cannot be empty")

// change is one setting a setter changes, by its settings.json key.
type change struct {
	key   string
	value any
}

// remember records setters' changes in the settings store: for this
// process only, or in the global settings file when the command says
// "persist":true. pi always writes the global file; cairn writes it only
// when asked, so a host adjusting one session never changes the next.
func (s *server) remember(c *command, changes ...change) error {
	persist, _, err := c.optBool("persist")
	if err != nil {
		return err
	}
	st := s.host.Settings
	if st == nil {
		if persist {
			return errors.New(`the setting changed for this session, but it cannot be saved: cairn was started without a settings file`)
		}
		return nil
	}
	scope := settings.ScopeSession
	if persist {
		scope = settings.ScopeGlobal
	}
	for _, ch := range changes {
		if err := st.Set(ch.key, ch.value, scope); err != nil {
			return fmt.Errorf("the setting changed for this session, but it could not be saved: %w", err)
		}
	}
	return nil
}

// checkPersist validates the persist field before anything changes.
func checkPersist(c *command) error {
	_, _, err := c.optBool("persist")
	return err
}

func (s *server) available() []core.Model {
	if s.models == nil {
		return []core.Model{s.sess.State().Model}
	}
	return s.models.Available()
}

func (s *server) availableModels(*command) (any, error) {
	models := []core.Model{}
	for _, m := range s.available() {
		models = append(models, m.Shown())
	}
	return struct {
		Models []core.Model `json:"models"`
	}{models}, nil
}

func (s *server) setModel(c *command) (any, error) {
	provider, err := c.str("provider")
	if err != nil {
		return nil, err
	}
	id, err := c.str("modelId")
	if err != nil {
		return nil, err
	}
	if err := checkPersist(c); err != nil {
		return nil, err
	}
	i := slices.IndexFunc(s.available(), func(m core.Model) bool { return m.Provider == provider && m.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("Model not found: %s/%s", provider, id)
	}
	m := s.available()[i]
	if err := s.switchModel(m); err != nil {
		return nil, err
	}
	return m.Shown(), s.remember(c, change{"defaultProvider", m.Provider}, change{"defaultModel", m.ID})
}

// switchModel changes the model. In pi 0.73's shapes, moving from a model
// that cannot reason to one that can, with thinking off, turns thinking on
// at the default level, as pi 0.73 did; pi 0.87 leaves it off.
func (s *server) switchModel(m core.Model) error {
	before := s.sess.State()
	if err := s.sess.SetModel(m); err != nil {
		return err
	}
	if s.host.Compat073 && m.Reasoning && !before.Model.Reasoning && before.Thinking == core.ThinkingOff {
		return s.sess.SetThinkingLevel(agent.ClampThinking(m, s.defaultThinking()))
	}
	return nil
}

// defaultThinking is the level a reasoning model starts at.
func (s *server) defaultThinking() core.ThinkingLevel {
	if s.host.Settings != nil {
		if l := s.host.Settings.Effective().DefaultThinkingLevel; l != "" {
			return l
		}
	}
	return core.ThinkingMedium
}

func (s *server) cycleModel(c *command) (any, error) {
	if err := checkPersist(c); err != nil {
		return nil, err
	}
	models := s.available()
	if len(models) < 2 {
		return jsonNull, nil
	}
	cur := s.sess.State().Model
	i := slices.IndexFunc(models, func(m core.Model) bool { return m.Provider == cur.Provider && m.ID == cur.ID })
	next := models[(i+1)%len(models)]
	if err := s.switchModel(next); err != nil {
		return nil, err
	}
	if err := s.remember(c, change{"defaultProvider", next.Provider}, change{"defaultModel", next.ID}); err != nil {
		return nil, err
	}
	return struct {
		Model         core.Model `json:"model"`
		ThinkingLevel string     `json:"thinkingLevel"`
		IsScoped      bool       `json:"isScoped"`
	}{next.Shown(), string(s.sess.State().Thinking), false}, nil
}

// levelNames lists the thinking levels set_thinking_level takes: every
// level and pi's opt-in max.
func levelNames() []string {
	names := make([]string, 0, len(core.ThinkingLevels)+1)
	for _, l := range core.ThinkingLevels {
		names = append(names, string(l))
	}
	return append(names, string(core.ThinkingMax))
}

func (s *server) setThinkingLevel(c *command) (any, error) {
	name, err := c.oneOf("level", levelNames()...)
	if err != nil {
		return nil, err
	}
	if err := checkPersist(c); err != nil {
		return nil, err
	}
	level := agent.ClampThinking(s.sess.State().Model, core.ThinkingLevel(name))
	if err := s.setLevel(level); err != nil {
		return nil, err
	}
	return nil, s.remember(c, change{"defaultThinkingLevel", string(level)})
}

// setLevel sets a level already clamped to the model.
func (s *server) setLevel(level core.ThinkingLevel) error {
	if s.sess.State().Thinking == level {
		return nil
	}
	return s.sess.SetThinkingLevel(level)
}

func (s *server) cycleThinkingLevel(c *command) (any, error) {
	if err := checkPersist(c); err != nil {
		return nil, err
	}
	st := s.sess.State()
	if !st.Model.Reasoning {
		return jsonNull, nil
	}
	levels := agent.ThinkingLevels(st.Model)
	next := levels[(slices.Index(levels, st.Thinking)+1)%len(levels)]
	if err := s.setLevel(next); err != nil {
		return nil, err
	}
	if err := s.remember(c, change{"defaultThinkingLevel", string(next)}); err != nil {
		return nil, err
	}
	return struct {
		Level string `json:"level"`
	}{string(next)}, nil
}

// availableThinkingLevels answers get_available_thinking_levels: the
// levels the current model offers, ["off"] for one that cannot reason.
func (s *server) availableThinkingLevels(*command) (any, error) {
	levels := agent.ThinkingLevels(s.sess.State().Model)
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = string(l)
	}
	return struct {
		Levels []string `json:"levels"`
	}{names}, nil
}

var queueModes = []string{string(agent.OneAtATime), string(agent.AllAtOnce)}

func (s *server) setSteeringMode(c *command) (any, error) {
	mode, err := c.oneOf("mode", queueModes...)
	if err == nil {
		err = checkPersist(c)
	}
	if err != nil {
		return nil, err
	}
	if err := s.sess.SetSteeringMode(agent.QueueMode(mode)); err != nil {
		return nil, err
	}
	return nil, s.remember(c, change{"steeringMode", mode})
}

func (s *server) setFollowUpMode(c *command) (any, error) {
	mode, err := c.oneOf("mode", queueModes...)
	if err == nil {
		err = checkPersist(c)
	}
	if err != nil {
		return nil, err
	}
	if err := s.sess.SetFollowUpMode(agent.QueueMode(mode)); err != nil {
		return nil, err
	}
	return nil, s.remember(c, change{"followUpMode", mode})
}

func (s *server) setInterruptMode(c *command) (any, error) {
	mode, err := c.oneOf("mode", string(agent.InterruptImmediate), string(agent.InterruptWait))
	if err == nil {
		err = checkPersist(c)
	}
	if err != nil {
		return nil, err
	}
	if err := s.sess.SetInterruptMode(agent.InterruptMode(mode)); err != nil {
		return nil, err
	}
	return nil, s.remember(c, change{"interruptMode", mode})
}

// setApprovalMode is cairn's own command: {"type":"set_approval_mode",
// "mode":"plan"|"default"|"auto_edit"|"auto"|"yolo"} switches which tool
// calls need approval for the rest of the session. A host opts in to
// approval questions with "default" or "auto_edit"; --mode rpc starts in
// "auto". "plan" lets only reading run until the host accepts the plan
// the model presents (an extension_ui_request select).
func (s *server) setApprovalMode(c *command) (any, error) {
	mode, err := c.oneOf("mode", string(approval.ModePlan), string(approval.ModeDefault), string(approval.ModeAutoEdit), string(approval.ModeAuto), string(approval.ModeYolo))
	if err == nil {
		err = checkPersist(c)
	}
	if err != nil {
		return nil, err
	}
	if s.host.Approvals == nil {
		return nil, errors.New("this session has no approval gate to configure")
	}
	s.host.Approvals.SetMode(approval.Mode(mode))
	return nil, s.remember(c, change{"approvalMode", mode})
}

func (s *server) setAutoCompaction(c *command) (any, error) {
	on, err := c.boolean("enabled")
	if err == nil {
		err = checkPersist(c)
	}
	if err != nil {
		return nil, err
	}
	s.sess.SetAutoCompaction(on)
	return nil, s.remember(c, change{"compaction.enabled", on})
}

func (s *server) setAutoRetry(c *command) (any, error) {
	on, err := c.boolean("enabled")
	if err == nil {
		err = checkPersist(c)
	}
	if err != nil {
		return nil, err
	}
	s.sess.SetAutoRetry(on)
	return nil, s.remember(c, change{"retry.enabled", on})
}

func (s *server) setEventFilter(c *command) (any, error) {
	events, hasEvents, err := c.stringList("events")
	if err != nil {
		return nil, err
	}
	updates, hasUpdates, err := c.optOneOf("messageUpdates", "full", "delta")
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	f := s.filter
	if _, sent := c.fields["events"]; sent {
		// "events": null lets every event through again.
		f.events = events
		if hasEvents && f.events == nil {
			f.events = []string{}
		}
	}
	if hasUpdates {
		f.wire.full = updates == "full"
	}
	s.filter = f
	s.mu.Unlock()
	s.sub.Mark(mark{srv: s, kind: markFilter, filter: f})
	return nil, nil
}
