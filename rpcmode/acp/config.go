package acp

import (
	"slices"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
)

type modeState struct {
	CurrentModeID  string        `json:"currentModeId"`
	AvailableModes []sessionMode `json:"availableModes"`
}

type sessionMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// The approval modes as session modes.
var sessionModes = []sessionMode{
	{ID: string(approval.ModeDefault), Name: "Default", Description: "Ask before edits and commands that are not on the allow-list"},
	{ID: string(approval.ModeAutoEdit), Name: "Auto edit", Description: "Edit files without asking; ask before other commands"},
	{ID: string(approval.ModePlan), Name: "Plan", Description: "Read and search only, then present a plan for you to accept"},
	{ID: string(approval.ModeYolo), Name: "Yolo", Description: "Run everything without asking"},
}

func modes(b *bound) modeState {
	return modeState{CurrentModeID: string(b.host.Approvals.Mode()), AvailableModes: sessionModes}
}

// configOption is a select SessionConfigOption.
type configOption struct {
	ID           string         `json:"id"`
	Name         string         `json:"name"`
	Category     string         `json:"category"`
	Type         string         `json:"type"`
	CurrentValue string         `json:"currentValue"`
	Options      []configChoice `json:"options"`
}

type configChoice struct {
	Value       string `json:"value"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// configOptions lists b's mode, model and thought_level with their values.
func (s *server) configOptions(b *bound) []configOption {
	modes := make([]configChoice, len(sessionModes))
	for i, m := range sessionModes {
		modes[i] = configChoice{Value: m.ID, Name: m.Name, Description: m.Description}
	}
	st := b.sess.State()
	var choices []configChoice
	current := modelValue(st.Model)
	for _, m := range models(b) {
		name := m.Name
		if name == "" {
			name = m.ID
		}
		choices = append(choices, configChoice{Value: modelValue(m), Name: name, Description: m.Provider})
	}
	var levels []configChoice
	for _, l := range agent.ThinkingLevels(st.Model) {
		levels = append(levels, configChoice{Value: string(l), Name: string(l)})
	}
	return []configOption{
		{ID: "mode", Name: "Approval mode", Category: "mode", Type: "select", CurrentValue: string(b.host.Approvals.Mode()), Options: modes},
		{ID: "model", Name: "Model", Category: "model", Type: "select", CurrentValue: current, Options: choices},
		{ID: "thought_level", Name: "Thinking", Category: "thought_level", Type: "select", CurrentValue: string(st.Thinking), Options: levels},
	}
}

// models lists the models to offer b's session, the current one always
// among them.
func models(b *bound) []core.Model {
	cur := b.sess.State().Model
	var ms []core.Model
	if b.host.Models != nil {
		ms = b.host.Models.Available()
	}
	if !slices.ContainsFunc(ms, func(m core.Model) bool { return modelValue(m) == modelValue(cur) }) {
		ms = append([]core.Model{cur}, ms...)
	}
	return ms
}

func modelValue(m core.Model) string { return m.Provider + "/" + m.ID }

type setModeParams struct {
	SessionID *string `json:"sessionId"`
	ModeID    *string `json:"modeId"`
}

// setMode switches the approval mode and announces it.
func (s *server) setMode(m message) (any, *rpcError) {
	var p setModeParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	t, rerr := s.lookup(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	if p.ModeID == nil {
		return nil, errorf(CodeInvalidParams, `Invalid params: "modeId" is required`)
	}
	if err := s.switchMode(t, *p.ModeID); err != nil {
		return nil, err
	}
	return inThread{t, struct{}{}}, nil
}

// switchMode sets t's approval mode and announces it.
func (s *server) switchMode(t *thread, id string) *rpcError {
	mode, err := approval.ParseMode(id)
	if err != nil {
		return errorf(CodeInvalidParams, "Invalid params: %v", err)
	}
	t.b.host.Approvals.SetMode(mode)
	notify(t, currentModeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: string(mode)})
	notify(t, configOptionUpdate{SessionUpdate: "config_option_update", ConfigOptions: s.configOptions(t.b)})
	return nil
}

type setConfigParams struct {
	SessionID *string `json:"sessionId"`
	ConfigID  *string `json:"configId"`
	Value     *string `json:"value"`
}

// setConfigOption sets the mode, the model or the thinking level.
func (s *server) setConfigOption(m message) (any, *rpcError) {
	var p setConfigParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	t, rerr := s.lookup(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	b := t.b
	if p.ConfigID == nil || p.Value == nil {
		return nil, errorf(CodeInvalidParams, `Invalid params: "configId" and "value" are required`)
	}
	switch *p.ConfigID {
	case "mode":
		if err := s.switchMode(t, *p.Value); err != nil {
			return nil, err
		}
	case "model":
		ms := models(b)
		i := slices.IndexFunc(ms, func(m core.Model) bool { return modelValue(m) == *p.Value })
		if i < 0 {
			return nil, errorf(CodeInvalidParams, "Invalid params: no model %q; the model option lists the ones available", *p.Value)
		}
		if err := b.sess.SetModel(ms[i]); err != nil {
			return nil, errorf(CodeInternalError, "%v", err)
		}
	case "thought_level":
		level, err := core.ParseThinkingLevel(*p.Value)
		if err != nil || !slices.Contains(agent.ThinkingLevels(b.sess.State().Model), level) {
			return nil, errorf(CodeInvalidParams, "Invalid params: the model does not offer the thinking level %q", *p.Value)
		}
		if err := b.sess.SetThinkingLevel(level); err != nil {
			return nil, errorf(CodeInternalError, "%v", err)
		}
	default:
		return nil, errorf(CodeInvalidParams, "Invalid params: no config option %q (there are mode, model and thought_level)", *p.ConfigID)
	}
	return inThread{t, struct {
		ConfigOptions []configOption `json:"configOptions"`
	}{s.configOptions(b)}}, nil
}
