package extension

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// ProtocolVersion is the newest version of the wire protocol this package
// speaks. cairn offers it in initialize; an extension answers the version
// it speaks, from MinProtocolVersion to ProtocolVersion, and cairn uses
// only what that version has. Another answer is refused.
const ProtocolVersion = 2

// MinProtocolVersion is the oldest version cairn still speaks: version 1
// extensions keep working unchanged.
const MinProtocolVersion = 1

// Methods cairn calls on an extension.
const (
	MethodInitialize  = "initialize"
	MethodExecuteTool = "execute_tool"
	MethodRunCommand  = "run_command"
	MethodEvent       = "event"
	MethodCancel      = "cancel"
	MethodShutdown    = "shutdown"
)

// Methods an extension calls on cairn.
const (
	MethodToolUpdate      = "tool_update"
	MethodUI              = "ui"
	MethodRegisterTool    = "register_tool"
	MethodRegisterCommand = "register_command"
	MethodSetActiveTools  = "set_active_tools"
	MethodSendUserMessage = "send_user_message"
	// MethodAppendEntry and MethodGetEntries are version 2's: pi's
	// appendEntry, and the session manager's reads.
	MethodAppendEntry = "append_entry"
	MethodGetEntries  = "get_entries"
	// MethodSetSessionName is version 2's pi.setSessionName.
	MethodSetSessionName = "set_session_name"
	// MethodMemberChanged is version 2's: a host extension's member that
	// was loading when initialize was answered is ready, failed or cut off.
	MethodMemberChanged = "member_changed"
)

// Error codes of the protocol, beside JSON-RPC's own.
const (
	// CodeNoUI answers a UI call the front end does not render: a dialog
	// in print or json mode, a widget where there is no room for one.
	CodeNoUI = -32001
	// CodeRefused answers a call cairn will not do now (a tool name that
	// is taken, a message while the session cannot take one).
	CodeRefused = -32002
)

// InitializeParams is what cairn tells an extension at start.
type InitializeParams struct {
	ProtocolVersion int    `json:"protocolVersion"`
	CairnVersion    string `json:"cairnVersion"`
	Cwd             string `json:"cwd"`
	// Mode is the front end: "tui", "rpc", "acp", "print", "json", ...
	Mode string `json:"mode"`
	// HasUI says whether any dialog can be answered.
	HasUI bool `json:"hasUI"`
	// UI lists the UI methods the front end renders.
	UI []core.UIMethod `json:"ui"`
	// Flags (version 2) are the command line's flags cairn does not
	// know, by name without dashes: a value, or true for a bare flag, for
	// the extensions that register them (pi's getFlag).
	Flags map[string]any `json:"flags,omitempty"`
}

// InitializeResult is what an extension registers at start.
type InitializeResult struct {
	ProtocolVersion int          `json:"protocolVersion"`
	Name            string       `json:"name,omitempty"`
	Tools           []ToolDef    `json:"tools,omitempty"`
	Commands        []CommandDef `json:"commands,omitempty"`
	// Events lists the events the extension handles, by pi's names.
	Events []string `json:"events,omitempty"`
	// Members (version 2) are the extensions a host extension runs
	// inside itself, such as the pi extension host's pi extensions,
	// each with what it registered or why it failed to load.
	Members []Member `json:"members,omitempty"`
}

// Member is one extension run inside a host extension (version 2).
type Member struct {
	Name string `json:"name"`
	// Path is its module or directory.
	Path string `json:"path"`
	// State is "ready", "failed", or "loading" (still loading when the
	// host answered initialize; what it registers comes later).
	State string `json:"state"`
	// Error says why a failed member did not load.
	Error    string   `json:"error,omitempty"`
	Tools    []string `json:"tools,omitempty"`
	Commands []string `json:"commands,omitempty"`
	Events   []string `json:"events,omitempty"`
	// EventsNotSent are events it handles that cairn does not send.
	EventsNotSent []string `json:"eventsNotSent,omitempty"`
	// Shortcuts, Flags and Renderers are registrations cairn does not
	// use yet, listed so a person sees them.
	Shortcuts []string `json:"shortcuts,omitempty"`
	Flags     []string `json:"flags,omitempty"`
	Renderers []string `json:"renderers,omitempty"`
	// MessageRenderers, EntryRenderers and ToolRenderers are the custom
	// types and tools it draws itself, asked with render (render.go).
	MessageRenderers []string `json:"messageRenderers,omitempty"`
	EntryRenderers   []string `json:"entryRenderers,omitempty"`
	ToolRenderers    []string `json:"toolRenderers,omitempty"`
	// FlagDefs are its flags with their types, which cairn checks the
	// command line against (Manager.CheckFlags).
	FlagDefs []FlagDef `json:"flagDefs,omitempty"`
}

// ToolDef is a tool an extension offers, in pi's registerTool shape.
type ToolDef struct {
	Name        string          `json:"name"`
	Label       string          `json:"label,omitempty"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// Active says whether the model is offered the tool; absent means
	// true. Inactive tools wait for set_active_tools.
	Active *bool `json:"active,omitempty"`
}

// CommandDef is a `/` command an extension offers.
type CommandDef struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// ExecuteToolParams asks an extension to run one call of its tool.
type ExecuteToolParams struct {
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name"`
	Params     json.RawMessage `json:"params"`
}

// ToolResult is an extension tool's result, in pi's shape; an error
// response is a failed result too.
type ToolResult struct {
	Content []core.Content  `json:"content"`
	Details json.RawMessage `json:"details,omitempty"`
	IsError bool            `json:"isError,omitempty"`
	// Terminate is pi's hint that the run ends after this call's batch
	// when every call of it says so (version 2).
	Terminate bool `json:"terminate,omitempty"`
}

// ToolUpdateParams is partial output of a running call.
type ToolUpdateParams struct {
	ToolCallID string          `json:"toolCallId"`
	Content    []core.Content  `json:"content"`
	Details    json.RawMessage `json:"details,omitempty"`
}

// RunCommandParams runs the extension's command Name with the text
// after it.
type RunCommandParams struct {
	Name string `json:"name"`
	Args string `json:"args"`
}

// CancelParams tells an extension cairn no longer waits for its request
// ID (the call was aborted).
type CancelParams struct {
	ID json.RawMessage `json:"id"`
}

// UIParams is a UI call, with pi's extension_ui_request fields.
type UIParams struct {
	Method      core.UIMethod `json:"method"`
	Title       string        `json:"title,omitempty"`
	Message     string        `json:"message,omitempty"`
	Options     []string      `json:"options,omitempty"`
	Placeholder string        `json:"placeholder,omitempty"`
	Prefill     string        `json:"prefill,omitempty"`
	// Timeout is in milliseconds; zero means none beyond the front
	// end's own.
	Timeout         int64                `json:"timeout,omitempty"`
	NotifyType      core.NotifyLevel     `json:"notifyType,omitempty"`
	StatusKey       string               `json:"statusKey,omitempty"`
	StatusText      *string              `json:"statusText,omitempty"`
	WidgetKey       string               `json:"widgetKey,omitempty"`
	WidgetLines     []string             `json:"widgetLines,omitempty"`
	WidgetPlacement core.WidgetPlacement `json:"widgetPlacement,omitempty"`
	Text            *string              `json:"text,omitempty"`
	// Component, Indicator and Visible are the chrome's (render.go):
	// setFooter and setHeader's component, setWorkingIndicator's
	// indicator (absent: cairn's own), setWorkingVisible's visibility.
	Component *bool             `json:"component,omitempty"`
	Indicator *WorkingIndicator `json:"indicator,omitempty"`
	Visible   *bool             `json:"visible,omitempty"`
}

// UIResult answers a dialog, as pi's extension_ui_response does: a
// value (select, input, editor), confirmed (confirm), or cancelled
// (dismissed, timed out or aborted). Fire-and-forget calls get an empty
// result.
type UIResult struct {
	Value     *string `json:"value,omitempty"`
	Confirmed *bool   `json:"confirmed,omitempty"`
	Cancelled bool    `json:"cancelled,omitempty"`
}

// SetActiveToolsParams names the extension's tools the model is offered
// from now on, as pi's setActiveTools does; the others become inactive.
type SetActiveToolsParams struct {
	Names []string `json:"names"`
}

// SendUserMessageParams sends a user message, as pi's sendUserMessage:
// it starts a run when the agent is idle; while it works, deliverAs says
// whether it steers the run or follows it.
type SendUserMessageParams struct {
	Content   string `json:"content"`
	DeliverAs string `json:"deliverAs,omitempty"`
}

// AppendEntryParams keeps extension state in the session (version 2), as
// pi's appendEntry: a custom entry that never reaches the model.
type AppendEntryParams struct {
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// AppendEntryResult names the entry kept.
type AppendEntryResult struct {
	ID string `json:"id"`
}

// GetEntriesResult is the session's entries (version 2), each as the
// session file writes it (pi's format), and the current branch's tip.
type GetEntriesResult struct {
	Entries []json.RawMessage `json:"entries"`
	LeafID  string            `json:"leafId"`
}

// SetSessionNameParams names the session (version 2), as pi's
// setSessionName.
type SetSessionNameParams struct {
	Name string `json:"name"`
}

// ---- Session lifecycle (version 2): an extension compacts the session
// and asks it to end, as pi's ctx.compact and ctx.shutdown. ----

// Methods an extension calls on cairn to steer the session's lifecycle
// (version 2).
const (
	// MethodCompact compacts the conversation (pi's ctx.compact); cairn
	// answers when the compaction has ended, with its CompactResult or
	// an error saying why it did not happen.
	MethodCompact = "compact"
	// MethodRequestShutdown asks cairn to end the session once the agent
	// is idle (pi's ctx.shutdown); cairn answers at once.
	MethodRequestShutdown = "request_shutdown"
)

// CompactParams is a compaction an extension asks for.
type CompactParams struct {
	CustomInstructions string `json:"customInstructions,omitempty"`
}

// CompactResult is what a compaction kept, in pi's CompactionResult
// shape.
type CompactResult struct {
	Summary          string `json:"summary"`
	FirstKeptEntryID string `json:"firstKeptEntryId"`
	TokensBefore     int    `json:"tokensBefore"`
}
