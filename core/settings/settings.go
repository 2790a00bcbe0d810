package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// Settings are the values cairn acts on, after the files are merged and
// defaults applied. The JSON names are pi's (omp's for interruptMode,
// aionrs's for approvalMode), so a pi user's settings.json works as it is.
// A Settings value holds no references: copies are independent.
type Settings struct {
	// DefaultProvider and DefaultModel pick the model a new session starts
	// with; empty means cairn chooses.
	DefaultProvider string `json:"defaultProvider,omitempty"`
	DefaultModel    string `json:"defaultModel,omitempty"`
	// DefaultThinkingLevel is the thinking level a new session starts with;
	// empty means the model's default.
	DefaultThinkingLevel core.ThinkingLevel `json:"defaultThinkingLevel,omitempty"`
	// SteeringMode says how many queued steering messages are delivered at
	// the next chance: one at a time, or all together.
	SteeringMode QueueMode `json:"steeringMode"`
	// FollowUpMode does the same for follow-up messages.
	FollowUpMode QueueMode `json:"followUpMode"`
	// InterruptMode says whether a steering message interrupts the running
	// tool calls (immediate) or waits for them to finish (wait).
	InterruptMode InterruptMode `json:"interruptMode"`
	// Compaction configures automatic compaction of long conversations.
	Compaction CompactionSettings `json:"compaction"`
	// Retry configures automatic retries of failed provider requests.
	Retry RetrySettings `json:"retry"`
	// ApprovalMode says which tool categories need a person's approval.
	ApprovalMode approval.Mode `json:"approvalMode"`
	// Theme names the TUI theme; empty means the built-in default.
	Theme string `json:"theme,omitempty"`
	// Notifications says how the TUI tells a person whose terminal is not
	// focused that a run ended or a question waits: "auto" (the default:
	// a desktop notification where the terminal shows one, else the
	// bell), "osc9", "osc777", "bell" or "off".
	Notifications string `json:"notifications,omitempty"`
	// MouseCapture lets the TUI take the mouse, so the wheel scrolls the
	// transcript (selecting text then takes shift); false leaves the mouse
	// to the terminal. On by default.
	MouseCapture bool `json:"mouseCapture"`
	// ScrollbackOnQuit says what the TUI leaves in the terminal's
	// scrollback when it quits: "last" (the default: the last exchange)
	// or "all" (the whole conversation, as pi keeps it).
	ScrollbackOnQuit string `json:"scrollbackOnQuit,omitempty"`
	// HideThinkingBlock collapses the model's thinking in the TUI.
	HideThinkingBlock bool `json:"hideThinkingBlock,omitempty"`
	// ShellPath is the shell the bash tool runs; empty means bash from PATH.
	ShellPath string `json:"shellPath,omitempty"`
	// ShellCommandPrefix is prepended to every command the bash tool runs
	// (for example "shopt -s expand_aliases").
	ShellCommandPrefix string `json:"shellCommandPrefix,omitempty"`
	// MCP configures how sessions use MCP servers.
	MCP MCPSettings `json:"mcp"`
	// OtherAgentDirs lets cairn read skills and agent definitions from
	// other agents' directories (~/.claude, .claude, ~/.pi/agent, .pi and
	// .agents) as well as its own; false keeps it to ~/.cairn and .cairn.
	// On by default.
	OtherAgentDirs bool `json:"otherAgentDirs"`
	// Subagents limits the task tool's children.
	Subagents SubagentSettings `json:"subagents"`
	// Checkpoints configures the checkpoints rewinds restore.
	Checkpoints CheckpointSettings `json:"checkpoints"`
	// LSP configures the language servers whose diagnostics follow edits.
	LSP LSPSettings `json:"lsp"`
	// Web configures the web tools.
	Web WebSettings `json:"web"`
}

// MCPSettings configures how sessions use MCP servers (the servers
// themselves are in mcp.json).
type MCPSettings struct {
	// StartupTimeoutMs bounds how long a prompt waits, before its first
	// request, for servers still starting, in milliseconds; 0 means it
	// does not wait. The environment's CAIRN_MCP_STARTUP_MS overrides it.
	StartupTimeoutMs int `json:"startupTimeoutMs"`
}

// StartupTimeout is StartupTimeoutMs as a duration.
func (m MCPSettings) StartupTimeout() time.Duration {
	return time.Duration(m.StartupTimeoutMs) * time.Millisecond
}

// QueueMode says how many queued messages are delivered at once.
type QueueMode string

// The queue modes.
const (
	QueueOneAtATime QueueMode = "one-at-a-time"
	QueueAll        QueueMode = "all"
)

// InterruptMode says when a steering message takes effect.
type InterruptMode string

// The interrupt modes.
const (
	// InterruptImmediate skips the turn's tool calls that have not started
	// (pi 0.73's behaviour).
	InterruptImmediate InterruptMode = "immediate"
	// InterruptWait lets the turn's tool calls run first, then delivers
	// the steering message (pi 0.87's behaviour, the default).
	InterruptWait InterruptMode = "wait"
)

// CompactionSettings configures automatic compaction.
type CompactionSettings struct {
	// Enabled turns automatic compaction on.
	Enabled bool `json:"enabled"`
	// ReserveTokens is how much of the context window is kept free for the
	// prompt and the answer; compaction starts when less is left.
	ReserveTokens int `json:"reserveTokens"`
	// KeepRecentTokens is how much of the most recent conversation is kept
	// verbatim; the rest is summarised.
	KeepRecentTokens int `json:"keepRecentTokens"`
}

// RetrySettings configures automatic retries of failed provider requests,
// with exponential backoff from BaseDelayMs, capped at MaxDelayMs.
type RetrySettings struct {
	// Enabled turns automatic retries on.
	Enabled bool `json:"enabled"`
	// MaxRetries is how many times one request is retried.
	MaxRetries int `json:"maxRetries"`
	// BaseDelayMs is the wait before the first retry, in milliseconds.
	BaseDelayMs int `json:"baseDelayMs"`
	// MaxDelayMs caps any wait, in milliseconds.
	MaxDelayMs int `json:"maxDelayMs"`
}

// BaseDelay is BaseDelayMs as a duration.
func (r RetrySettings) BaseDelay() time.Duration {
	return time.Duration(r.BaseDelayMs) * time.Millisecond
}

// MaxDelay is MaxDelayMs as a duration.
func (r RetrySettings) MaxDelay() time.Duration {
	return time.Duration(r.MaxDelayMs) * time.Millisecond
}

// Defaults returns the settings cairn uses where no file says otherwise;
// the numbers are pi's.
func Defaults() Settings {
	return Settings{
		SteeringMode:   QueueOneAtATime,
		FollowUpMode:   QueueOneAtATime,
		InterruptMode:  InterruptWait,
		Compaction:     CompactionSettings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000},
		Retry:          RetrySettings{Enabled: true, MaxRetries: 3, BaseDelayMs: 2000, MaxDelayMs: 60000},
		ApprovalMode:   approval.ModeDefault,
		MCP:            MCPSettings{StartupTimeoutMs: 10000},
		MouseCapture:   true,
		OtherAgentDirs: true,
		Subagents:      SubagentSettings{MaxParallel: 4, TimeoutMs: 600000, MaxTurns: 50},
		Checkpoints:    CheckpointSettings{Enabled: true},
		LSP:            LSPSettings{Enabled: true},
	}
}

// KeyError is a setting whose value cairn cannot use: the wrong JSON type or
// a value outside those allowed. The default is used in its place.
type KeyError struct {
	// Key is the setting's dotted path, such as "compaction.enabled".
	Key string
	// Msg says what is wrong and what would be right.
	Msg string
}

// Error names the setting and the problem.
func (e *KeyError) Error() string { return e.Key + ": " + e.Msg }

// field is one top-level key cairn knows and where its value goes.
type field struct {
	key string
	ptr any
}

func (s *Settings) fields() []field {
	return []field{
		{"defaultProvider", &s.DefaultProvider},
		{"defaultModel", &s.DefaultModel},
		{"defaultThinkingLevel", &s.DefaultThinkingLevel},
		{"steeringMode", &s.SteeringMode},
		{"followUpMode", &s.FollowUpMode},
		{"interruptMode", &s.InterruptMode},
		{"compaction", &s.Compaction},
		{"retry", &s.Retry},
		{"approvalMode", &s.ApprovalMode},
		{"theme", &s.Theme},
		{"notifications", &s.Notifications},
		{"mouseCapture", &s.MouseCapture},
		{"scrollbackOnQuit", &s.ScrollbackOnQuit},
		{"hideThinkingBlock", &s.HideThinkingBlock},
		{"shellPath", &s.ShellPath},
		{"shellCommandPrefix", &s.ShellCommandPrefix},
		{"mcp", &s.MCP},
		{"otherAgentDirs", &s.OtherAgentDirs},
		{"subagents", &s.Subagents},
		{"checkpoints", &s.Checkpoints},
		{"lsp", &s.LSP},
		{"web", &s.Web},
	}
}

// decode reads the settings cairn knows from o on top of the defaults. Each
// key is decoded on its own, so one bad value costs only that value (its
// default is kept) and is reported as a *KeyError. Keys cairn does not know
// are left to the file.
func decode(o *object) (Settings, []error) {
	s := Defaults()
	var errs []error
	for _, f := range s.fields() {
		v, ok := o.get(f.key)
		if !ok || v == nil {
			continue
		}
		if err := json.Unmarshal(compact(wholeNumbers(v)), f.ptr); err != nil {
			errs = append(errs, keyError(f.key, err))
		}
	}
	errs = append(errs, checkSandbox(o)...)
	errs = append(errs, checkShellEnvironment(o)...)
	errs = append(errs, checkStrict(o, "lsp", &lspFile{}, "enabled, waitMs, servers; a server's: command, extensions, rootMarkers, disabled")...)
	errs = append(errs, checkStrict(o, "web", &WebSettings{}, "search; its: provider, endpoint, apiKeyEnv")...)
	return s, append(errs, s.normalize()...)
}

// wholeNumbers returns v with every number that has a whole value written
// as an integer (1e4 as 10000, 3.0 as 3), since JavaScript, and so pi, does
// not tell them apart and Go's integer fields would refuse them.
func wholeNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			return v
		}
		f, err := v.Float64()
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return v
		}
		return json.Number(strconv.FormatInt(int64(f), 10))
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = wholeNumbers(x)
		}
		return out
	case *object:
		out := newObject()
		for _, k := range v.keys {
			out.set(k, wholeNumbers(v.vals[k]))
		}
		return out
	}
	return v
}

// keyError turns a decoding error into a *KeyError a person can act on.
func keyError(key string, err error) *KeyError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			key += "." + te.Field
		}
		return &KeyError{Key: key, Msg: fmt.Sprintf("expected %s, found %s", jsonKind(te.Type), te.Value)}
	}
	return &KeyError{Key: key, Msg: err.Error()}
}

// jsonKind names the JSON type that decodes into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice:
		return "an array"
	}
	return t.String()
}

// normalize puts every out-of-range value back to its default and reports
// it.
func (s *Settings) normalize() []error {
	d := Defaults()
	var errs []error
	bad := func(key string, v any, want string) {
		errs = append(errs, &KeyError{Key: key, Msg: fmt.Sprintf("%v is not allowed: use %s", v, want)})
	}
	if s.DefaultThinkingLevel != "" {
		if _, err := core.ParseThinkingLevel(string(s.DefaultThinkingLevel)); err != nil {
			errs = append(errs, &KeyError{Key: "defaultThinkingLevel", Msg: err.Error()})
			s.DefaultThinkingLevel = d.DefaultThinkingLevel
		}
	}
	for _, q := range []struct {
		key  string
		mode *QueueMode
	}{{"steeringMode", &s.SteeringMode}, {"followUpMode", &s.FollowUpMode}} {
		if *q.mode != QueueOneAtATime && *q.mode != QueueAll {
			bad(q.key, fmt.Sprintf("%q", *q.mode), `"one-at-a-time" or "all"`)
			*q.mode = QueueOneAtATime
		}
	}
	switch s.Notifications {
	case "", "auto", "osc9", "osc777", "bell", "off":
	default:
		bad("notifications", fmt.Sprintf("%q", s.Notifications), `"auto", "osc9", "osc777", "bell" or "off"`)
		s.Notifications = d.Notifications
	}
	switch s.ScrollbackOnQuit {
	case "", "last", "all":
	default:
		bad("scrollbackOnQuit", fmt.Sprintf("%q", s.ScrollbackOnQuit), `"last" or "all"`)
		s.ScrollbackOnQuit = d.ScrollbackOnQuit
	}
	if s.InterruptMode != InterruptImmediate && s.InterruptMode != InterruptWait {
		bad("interruptMode", fmt.Sprintf("%q", s.InterruptMode), `"immediate" or "wait"`)
		s.InterruptMode = d.InterruptMode
	}
	for _, n := range []struct {
		key string
		v   *int
		def int
	}{
		{"compaction.reserveTokens", &s.Compaction.ReserveTokens, d.Compaction.ReserveTokens},
		{"compaction.keepRecentTokens", &s.Compaction.KeepRecentTokens, d.Compaction.KeepRecentTokens},
		{"retry.maxRetries", &s.Retry.MaxRetries, d.Retry.MaxRetries},
		{"retry.baseDelayMs", &s.Retry.BaseDelayMs, d.Retry.BaseDelayMs},
		{"retry.maxDelayMs", &s.Retry.MaxDelayMs, d.Retry.MaxDelayMs},
		{"mcp.startupTimeoutMs", &s.MCP.StartupTimeoutMs, d.MCP.StartupTimeoutMs},
	} {
		if *n.v < 0 {
			bad(n.key, *n.v, "a number of at least 0")
			*n.v = n.def
		}
	}
	errs = append(errs, s.LSP.normalize()...)
	errs = append(errs, s.Web.normalize()...)
	return append(errs, s.Checkpoints.normalize()...)
}
