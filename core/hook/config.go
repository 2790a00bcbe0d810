package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Event is a point of the session a hook runs at, named as Claude Code
// names it.
type Event string

// The events cairn runs hooks for.
const (
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	UserPromptSubmit Event = "UserPromptSubmit"
	Stop             Event = "Stop"
	SessionStart     Event = "SessionStart"
	SessionEnd       Event = "SessionEnd"
	PreCompact       Event = "PreCompact"
	Notification     Event = "Notification"
)

// Events lists the events cairn supports, in the order of a session.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Notification, Stop, PreCompact, SessionEnd}

// DefaultTimeout is how long a hook may run when it names no timeout,
// Claude Code's default.
const DefaultTimeout = 60 * time.Second

// maxTimeout bounds the timeout a hook may name (an hour), so a typo
// cannot make a wait endless.
const maxTimeout = time.Hour

// Command is one hook: a command line run by the shell.
type Command struct {
	Command string
	Timeout time.Duration
	// Origin is the settings file it came from, for messages.
	Origin string
}

// Group is a matcher with the hooks it runs.
type Group struct {
	Matcher Matcher
	Hooks   []Command
}

// Config is the hooks of one or more settings files.
type Config struct {
	Events map[Event][]Group
	// ReadClaudeProjectSettings opts in to the hooks of a trusted
	// project's .claude/settings.json and .claude/settings.local.json
	// (the setting "hooks": {"readClaudeProjectSettings": true}).
	ReadClaudeProjectSettings bool
}

// optInKey is cairn's own key in a hooks block, beside the events.
const optInKey = "readClaudeProjectSettings"

// Merge adds other's hooks after c's.
func (c *Config) Merge(other Config) {
	if c.Events == nil {
		c.Events = map[Event][]Group{}
	}
	for e, gs := range other.Events {
		c.Events[e] = append(c.Events[e], gs...)
	}
	c.ReadClaudeProjectSettings = c.ReadClaudeProjectSettings || other.ReadClaudeProjectSettings
}

// Empty reports whether c has no hooks.
func (c Config) Empty() bool {
	for _, gs := range c.Events {
		for _, g := range gs {
			if len(g.Hooks) > 0 {
				return false
			}
		}
	}
	return true
}

// ParseSettings reads the "hooks" block of the settings file data (at
// path, named in messages). A file without one holds no hooks. Problems
// that cost only part of the block (an event cairn does not run, a hook of
// a type other than "command", a matcher that is not a valid regular
// expression) are returned as warnings, and the rest is kept, so one
// unsupported entry never turns a guard off unnoticed; a block that cannot
// be read at all is an error.
func ParseSettings(path string, data []byte) (Config, []string, error) {
	var file map[string]json.RawMessage
	if err := json.Unmarshal(data, &file); err != nil {
		return Config{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	raw, ok := file["hooks"]
	if !ok || string(raw) == "null" {
		return Config{}, nil, nil
	}
	return Parse(path, raw)
}

// Parse reads a hooks block: {"PreToolUse": [{"matcher": "Bash", "hooks":
// [{"type": "command", "command": "...", "timeout": 30}]}], ...}. See
// ParseSettings for warnings and errors.
func Parse(path string, raw json.RawMessage) (Config, []string, error) {
	var block map[string]json.RawMessage
	if err := json.Unmarshal(raw, &block); err != nil {
		return Config{}, nil, fmt.Errorf("%s: hooks: %w", path, err)
	}
	cfg := Config{Events: map[Event][]Group{}}
	var warnings []string
	keys := make([]string, 0, len(block))
	for k := range block {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		value := block[key]
		if key == optInKey {
			if err := json.Unmarshal(value, &cfg.ReadClaudeProjectSettings); err != nil {
				return Config{}, nil, fmt.Errorf("%s: hooks.%s: want true or false", path, key)
			}
			continue
		}
		ev := Event(key)
		if !slices.Contains(Events, ev) {
			warnings = append(warnings, fmt.Sprintf("%s: hooks.%s: cairn does not run hooks for this event, so they are ignored (it runs %s)", path, key, eventList()))
			continue
		}
		groups, ws, err := parseGroups(path, key, value)
		if err != nil {
			return Config{}, nil, err
		}
		warnings = append(warnings, ws...)
		cfg.Events[ev] = append(cfg.Events[ev], groups...)
	}
	return cfg, warnings, nil
}

func eventList() string {
	names := make([]string, len(Events))
	for i, e := range Events {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

type groupJSON struct {
	Matcher *string           `json:"matcher"`
	Hooks   []json.RawMessage `json:"hooks"`
}

type commandJSON struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout"`
}

func parseGroups(path, key string, raw json.RawMessage) ([]Group, []string, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, nil, fmt.Errorf("%s: hooks.%s: want a list of {\"matcher\": ..., \"hooks\": [...]}", path, key)
	}
	var groups []Group
	var warnings []string
	for i, item := range list {
		where := fmt.Sprintf("%s: hooks.%s[%d]", path, key, i)
		var g groupJSON
		if err := strictDecode(item, &g); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where, err)
		}
		m := ""
		if g.Matcher != nil {
			m = *g.Matcher
		}
		matcher, err := ParseMatcher(m)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v; its hooks do not run", where, err))
			continue
		}
		group := Group{Matcher: matcher}
		for j, h := range g.Hooks {
			c, warn, err := parseCommand(h)
			hwhere := fmt.Sprintf("%s.hooks[%d]", where, j)
			switch {
			case err != nil:
				return nil, nil, fmt.Errorf("%s: %w", hwhere, err)
			case warn != "":
				warnings = append(warnings, hwhere+": "+warn)
				continue
			}
			c.Origin = path
			group.Hooks = append(group.Hooks, c)
		}
		groups = append(groups, group)
	}
	return groups, warnings, nil
}

// parseCommand reads one hook. A hook of another type than "command", or
// with Claude Code fields cairn does not act on, is a warning: it does not
// run.
func parseCommand(raw json.RawMessage) (Command, string, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return Command{}, "", fmt.Errorf("want an object with \"type\" and \"command\"")
	}
	var h commandJSON
	var extra []string
	for k := range fields {
		// statusMessage only changes what Claude Code's spinner says.
		if k != "type" && k != "command" && k != "timeout" && k != "statusMessage" {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	if err := json.Unmarshal(raw, &h); err != nil {
		return Command{}, "", err
	}
	if h.Type != "command" {
		return Command{}, fmt.Sprintf("cairn runs hooks of type \"command\" only, not %q; this hook does not run", h.Type), nil
	}
	if len(extra) > 0 {
		return Command{}, fmt.Sprintf("cairn does not know the field(s) %s, so this hook does not run rather than run otherwise than written", strings.Join(extra, ", ")), nil
	}
	if strings.TrimSpace(h.Command) == "" {
		return Command{}, "", fmt.Errorf("the command is empty")
	}
	c := Command{Command: h.Command, Timeout: DefaultTimeout}
	if h.Timeout != nil {
		t := *h.Timeout
		if t <= 0 || math.IsNaN(t) || math.IsInf(t, 0) {
			return Command{}, "", fmt.Errorf("timeout %v: want a number of seconds above 0", t)
		}
		c.Timeout = min(time.Duration(t*float64(time.Second)), maxTimeout)
	}
	return c, "", nil
}

// strictDecode decodes data into v, refusing fields v does not have.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}
