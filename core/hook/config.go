package hook

import (
	"bytes"

	"encoding/json"
	"fmt"
	"github.com/cairn-dev/cairn/core/ccperm"
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
	// PostToolUseFailure runs instead of PostToolUse after a call that
	// failed.
	PostToolUseFailure Event = "PostToolUseFailure"
	// PermissionRequest runs when cairn is about to ask the person about
	// a tool call; its hook may answer for them.
	PermissionRequest Event = "PermissionRequest"
)

// Events lists the events cairn supports, in the order of a session.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Notification, Stop, PreCompact, SessionEnd}

// unsupported says, for the events of Claude Code's hook reference that
// cairn does not run, why; hooks for them are reported at start.
var unsupported = map[string]string{
	"PermissionRequest":   "cairn's approval question has no hook point yet; use PreToolUse with permissionDecision",
	"PermissionDenied":    "cairn has no automatic classifier whose denials it could report",
	"SubagentStart":       "cairn's subagents do not fire hooks yet",
	"SubagentStop":        "cairn's subagents do not fire hooks yet",
	"StopFailure":         "cairn reports a failed turn itself and has no hook point for it yet",
	"PostCompact":         "cairn has no hook point after compaction yet",
	"InstructionsLoaded":  "cairn reads AGENTS.md and CLAUDE.md once, with no hook point",
	"ConfigChange":        "cairn reads its settings at start only",
	"CwdChanged":          "cairn's working directory does not change during a session",
	"FileChanged":         "cairn does not watch files",
	"WorktreeCreate":      "cairn does not create worktrees",
	"WorktreeRemove":      "cairn does not create worktrees",
	"TeammateIdle":        "cairn has no agent teams",
	"TaskCreated":         "cairn has no agent teams",
	"TaskCompleted":       "cairn has no agent teams",
	"Elicitation":         "cairn asks MCP elicitations itself, with no hook point yet",
	"ElicitationResult":   "cairn asks MCP elicitations itself, with no hook point yet",
	"UserPromptExpansion": "cairn expands slash commands before UserPromptSubmit, which sees the result",
	"Setup":               "cairn has no setup phase",
}

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
	// If, when set, is the rule a tool call must fit for the hook to run.
	If *ccperm.Rule
	// Async hooks run in the background: nothing waits for them, and what
	// they answer reaches the model at the next point that adds context
	// (and the person at once). Rewake (asyncRewake) hooks are async hooks
	// whose exit 2 is such an answer, its stderr after RewakeMessage.
	Async         bool
	Rewake        bool
	RewakeMessage string
	// Shell is "bash" to run the command with bash, or "" for cairn's shell.
	Shell string
	// Once hooks run at most once per session.
	Once bool
	// PluginRoot is the directory of the plugin the hook came from, or ""
	// (CLAUDE_PLUGIN_ROOT).
	PluginRoot string
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
	// SkipClaudeUserSettings keeps the hooks of the person's own Claude
	// Code settings (~/.claude/settings.json) from running (the setting
	// "hooks": {"readClaudeUserSettings": false}).
	SkipClaudeUserSettings bool
}

// optInKey is cairn's own key in a hooks block, beside the events.
const optInKey = "readClaudeProjectSettings"

// userKey is cairn's key for reading the person's own Claude Code hooks
// (on unless false).
const userKey = "readClaudeUserSettings"

// Merge adds other's hooks after c's.
func (c *Config) Merge(other Config) {
	if c.Events == nil {
		c.Events = map[Event][]Group{}
	}
	for e, gs := range other.Events {
		c.Events[e] = append(c.Events[e], gs...)
	}
	c.ReadClaudeProjectSettings = c.ReadClaudeProjectSettings || other.ReadClaudeProjectSettings
	c.SkipClaudeUserSettings = c.SkipClaudeUserSettings || other.SkipClaudeUserSettings
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
	if off, ok := file["disableAllHooks"]; ok && string(off) == "true" {
		// Claude Code's switch: the file's hooks are kept but not run.
		return Config{}, []string{fmt.Sprintf("%s: disableAllHooks is true, so its hooks do not run", path)}, nil
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
		if key == optInKey || key == userKey {
			var on bool
			if err := json.Unmarshal(value, &on); err != nil {
				return Config{}, nil, fmt.Errorf("%s: hooks.%s: want true or false", path, key)
			}
			if key == optInKey {
				cfg.ReadClaudeProjectSettings = on
			} else {
				cfg.SkipClaudeUserSettings = !on
			}
			continue
		}
		ev := Event(key)
		if !slices.Contains(Events, ev) {
			why := unsupported[key]
			if why == "" {
				why = "not an event cairn knows"
			}
			warnings = append(warnings, fmt.Sprintf("%s: hooks.%s: cairn does not run hooks for this event (%s), so they are ignored (it runs %s)", path, key, why, eventList()))
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
	Type          string   `json:"type"`
	Command       string   `json:"command"`
	Timeout       *float64 `json:"timeout"`
	If            string   `json:"if"`
	Async         bool     `json:"async"`
	AsyncRewake   bool     `json:"asyncRewake"`
	RewakeMessage string   `json:"rewakeMessage"`
	Shell         string   `json:"shell"`
	Once          bool     `json:"once"`
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
			case warn != "" && c.Command == "":
				warnings = append(warnings, hwhere+": "+warn)
				continue
			case warn != "":
				warnings = append(warnings, hwhere+": "+warn)
			}
			c.Origin = path
			group.Hooks = append(group.Hooks, c)
		}
		groups = append(groups, group)
	}
	return groups, warnings, nil
}

// knownFields are the fields of a command hook cairn acts on;
// statusMessage only changes what Claude Code's spinner says.
var knownFields = map[string]bool{"type": true, "command": true, "timeout": true, "statusMessage": true,
	"if": true, "async": true, "asyncRewake": true, "rewakeMessage": true, "rewakeSummary": true,
	"shell": true, "once": true}

// parseCommand reads one hook. A hook of another type than "command", or
// with Claude Code fields cairn does not act on, is a warning: it does not
// run. An "if" cairn cannot read is a warning too, and the hook runs
// without it.
func parseCommand(raw json.RawMessage) (Command, string, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return Command{}, "", fmt.Errorf("want an object with \"type\" and \"command\"")
	}
	var h commandJSON
	var extra []string
	for k := range fields {
		if !knownFields[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	if err := json.Unmarshal(raw, &h); err != nil {
		return Command{}, "", err
	}
	if h.Type != "command" {
		return Command{}, fmt.Sprintf("cairn runs hooks of type \"command\" only, not %q (%s); this hook does not run", h.Type, whyNotType(h.Type)), nil
	}
	if len(extra) > 0 {
		return Command{}, fmt.Sprintf("cairn does not know the field(s) %s, so this hook does not run rather than run otherwise than written", strings.Join(extra, ", ")), nil
	}
	if strings.TrimSpace(h.Command) == "" {
		return Command{}, "", fmt.Errorf("the command is empty")
	}
	c := Command{Command: h.Command, Timeout: DefaultTimeout, Async: h.Async || h.AsyncRewake,
		Rewake: h.AsyncRewake, RewakeMessage: h.RewakeMessage, Once: h.Once}
	switch h.Shell {
	case "", "bash":
		c.Shell = h.Shell
	default:
		return Command{}, fmt.Sprintf("cairn runs hooks with bash or the default shell, not %q; this hook does not run", h.Shell), nil
	}
	if h.Timeout != nil {
		t := *h.Timeout
		if t <= 0 || math.IsNaN(t) || math.IsInf(t, 0) {
			return Command{}, "", fmt.Errorf("timeout %v: want a number of seconds above 0", t)
		}
		c.Timeout = min(time.Duration(t*float64(time.Second)), maxTimeout)
	}
	var warn string
	if h.If != "" {
		cond, err := ccperm.Parse(h.If)
		if err != nil {
			warn = fmt.Sprintf("\"if\": %v; the hook runs for every call its matcher selects", err)
		} else {
			c.If = &cond
		}
	}
	return c, warn, nil
}

// whyNotType says why cairn does not run hooks of type t.
func whyNotType(t string) string {
	switch t {
	case "http":
		return "it would send the session's data to a URL; wrap it in a command that calls curl if you mean to"
	case "prompt", "agent":
		return "it asks a model to decide; write the check as a command"
	case "mcp_tool":
		return "it calls an MCP tool; call the server from a command"
	}
	return "unknown type"
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
