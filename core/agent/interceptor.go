package agent

// The interceptor contract: what code outside the loop (hooks, extensions)
// writes to watch and steer a session. intercept.go is how the session
// runs it.

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/compaction"
)

// Interceptor is a set of handlers the session calls at fixed points of its
// work, so that code outside the loop can watch and steer it: Claude Code's
// hooks (core/hook) and pi-style extensions are both written on it. Each
// field is one point; a nil field is a point the interceptor does not
// handle. Config.Interceptors run in order at every point, each seeing what
// the ones before it changed.
//
// Every call is bounded by Timeout. An interceptor whose handler fails (an
// error, a panic, or no answer within its limit) never allows what it could
// have blocked: a failing ToolCall handler refuses the call, a failing
// Input handler keeps the prompt from being sent, a failing BeforeCompact
// handler cancels the compaction. A failure that can block nothing (a
// ToolResult, TurnEnd, Stop, Context or notification handler) changes
// nothing. Each distinct failure is shown once, as a warning Notice.
//
// ToolResult handlers run concurrently for the parallel calls of one
// answer; the others run on the loop's goroutine, ToolCall in call order
// (Notification on one of its own), so a slow handler delays the run, up to
// Timeout. Handlers must not modify what an event gives them (messages,
// results, arguments): they return what should change.
type Interceptor struct {
	// Name says who the interceptor is in notices and questions ("hook
	// PreToolUse", "extension guard").
	Name string
	// Timeout bounds each handler call; zero means DefaultInterceptTimeout.
	Timeout time.Duration
	// NotForChildren keeps the interceptor out of child sessions
	// (ChildConfig): it watches the person's own prompts, which a child's,
	// written by the model, must never pass for.
	NotForChildren bool

	// SessionStart is called before the first prompt of a conversation
	// (pi's session_start, Claude Code's SessionStart); the text it adds
	// goes before that prompt.
	SessionStart func(ctx context.Context, e SessionStartEvent) (Added, error)
	// SessionEnd is called when the session closes or moves to another
	// conversation (pi's session_shutdown, Claude Code's SessionEnd). It
	// runs after the work is stopped, with a context of its own.
	SessionEnd func(ctx context.Context, e SessionEndEvent) error
	// Input is called for each prompt, steering and follow-up message
	// before it enters the conversation (pi's input, Claude Code's
	// UserPromptSubmit): it may let it through, transform it, handle it
	// (not sent, nothing said) or block it (not sent, the reason shown).
	Input func(ctx context.Context, e InputEvent) (InputResult, error)
	// BeforeAgentStart is called once per prompt after its input was
	// admitted (pi's before_agent_start): it may add system prompt
	// sections for this prompt's requests, and context.
	BeforeAgentStart func(ctx context.Context, e AgentStartEvent) (AgentStartResult, error)
	// Context may rewrite the messages of each request (pi's context),
	// in the provider's form (core.ToLLM); nil keeps them. The
	// conversation itself is unchanged.
	Context func(ctx context.Context, e ContextEvent) ([]core.Message, error)
	// ToolCall is called for each call whose tool exists and whose
	// arguments passed core.CheckArguments, before the approver (pi's
	// tool_call, Claude Code's PreToolUse). See ToolCallResult.
	ToolCall func(ctx context.Context, e ToolCallEvent) (ToolCallResult, error)
	// ToolResult is called with each result of a call that ran (pi's
	// tool_result, Claude Code's PostToolUse): it may replace the result
	// and add context.
	ToolResult func(ctx context.Context, e ToolResultEvent) (ToolResultResult, error)
	// TurnEnd is told each turn's end (pi's turn_end).
	TurnEnd func(ctx context.Context, e TurnEndEvent) error
	// Stop is called when the model has stopped and nothing is queued
	// (pi's agent_end, Claude Code's Stop); it may send the agent back to
	// work with a reason the model reads, at most MaxStopContinues times
	// per prompt.
	Stop func(ctx context.Context, e StopEvent) (StopResult, error)
	// BeforeCompact is called before every compaction, manual or
	// automatic (pi's session_before_compact, Claude Code's PreCompact):
	// it may cancel it or change its instructions.
	BeforeCompact func(ctx context.Context, e CompactEvent) (CompactResult, error)
	// PermissionRequest is called when the approver is about to ask the
	// person about a tool call (Claude Code's PermissionRequest), where
	// someone could answer: it may allow or deny the call for them. A
	// failing handler, or one without a decision, leaves the question to
	// the person.
	PermissionRequest func(ctx context.Context, e PermissionRequestEvent) (PermissionRequestResult, error)
	// Notification is told when the session asks the person something
	// (Claude Code's Notification). It never delays the question.
	Notification func(ctx context.Context, e NotificationEvent) error
	// UserBash is called by front ends through Session.InterceptUserBash
	// before they run a `!cmd` the person typed (pi's user_bash).
	UserBash func(ctx context.Context, e UserBashEvent) (UserBashResult, error)
	// ProviderRequest and ProviderResponse see each model request's wire
	// payload, and may replace it, and how the server answered (pi's
	// before_provider_request and after_provider_response; see
	// providerhooks.go).
	ProviderRequest  func(ctx context.Context, e ProviderRequestEvent) (json.RawMessage, error)
	ProviderResponse func(ctx context.Context, e ProviderResponseEvent) error
	// BeforeSwitch is called before the session moves to another
	// conversation (new, resume, fork, clone; pi's session_before_switch
	// and session_before_fork): it may cancel the move. See
	// beforeswitch.go.
	BeforeSwitch func(ctx context.Context, e SwitchEvent) (SwitchResult, error)
}

// NonBlockingError wraps a handler's failure that must not stop what the
// point is about: it is shown once as a warning, like any failure, and the
// point goes on with what the handler returned beside it (Claude Code's
// non-blocking hook errors: a broken UserPromptSubmit or PreCompact hook
// does not hold up every prompt or compaction). Handlers return it with
// NonBlocking.
type NonBlockingError struct{ Err error }

// Error is the wrapped failure's text.
func (e *NonBlockingError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped failure.
func (e *NonBlockingError) Unwrap() error { return e.Err }

// NonBlocking marks err as a failure that does not block (nil stays nil).
func NonBlocking(err error) error {
	if err == nil {
		return nil
	}
	return &NonBlockingError{Err: err}
}

// nonBlocking reports whether err is marked with NonBlocking.
func nonBlocking(err error) bool {
	var nb *NonBlockingError
	return errors.As(err, &nb)
}

// DefaultInterceptTimeout bounds a handler call of an Interceptor whose
// Timeout is zero: Claude Code's default for a hook.
const DefaultInterceptTimeout = 60 * time.Second

// MaxStopContinues bounds how many times Stop handlers may send the agent
// back to work within one prompt, so a handler that always asks cannot
// keep it working forever.
const MaxStopContinues = 5

// ContextMessageType is the CustomType of the messages that carry text an
// interceptor added (Added, InputResult.Context, ...). They are shown, and
// reach the model as user messages.
const ContextMessageType = "interceptor_context"

// Added is text an interceptor adds to the conversation for the model, each
// string one message.
type Added struct {
	Context []string
}

// StartSource says why a conversation's session started.
type StartSource string

// The sources of SessionStart, as Claude Code names them.
const (
	StartStartup StartSource = "startup" // a new conversation at launch
	StartResume  StartSource = "resume"  // a conversation with history
	StartClear   StartSource = "clear"   // an empty conversation after another
)

// SessionStartEvent is the SessionStart point.
type SessionStartEvent struct {
	Conversation ConversationInfo
	Source       StartSource
}

// EndReason says why a session ended.
type EndReason string

// The reasons of SessionEnd.
const (
	EndExit   EndReason = "exit"   // the session closed
	EndSwitch EndReason = "switch" // it moved to another conversation
)

// SessionEndEvent is the SessionEnd point.
type SessionEndEvent struct {
	Conversation ConversationInfo
	Reason       EndReason
}

// InputEvent is the Input point: a message's text and images.
type InputEvent struct {
	Conversation ConversationInfo
	Text         string
	Images       []core.Content
	// Queued is the queue the message waited in because it was sent
	// while the agent worked (BehaviorSteer or BehaviorFollowUp; pi's
	// streamingBehavior), or "" for a message that starts a run.
	Queued Behavior
}

// InputAction is what becomes of a message.
type InputAction uint8

// The input actions, as pi names them.
const (
	// InputContinue sends the message as it is.
	InputContinue InputAction = iota
	// InputTransform sends Text (and Images, when not nil) instead.
	InputTransform
	// InputHandled drops the message: the interceptor dealt with it.
	InputHandled
	// InputBlock drops the message and shows Reason to the person.
	InputBlock
)

// InputResult is an Input handler's answer; Context is added after the
// message when it is sent.
type InputResult struct {
	Action  InputAction
	Text    string
	Images  []core.Content
	Reason  string
	Context []string
}

// AgentStartEvent is the BeforeAgentStart point: the prompt's text and the
// system prompt's sections as they are.
type AgentStartEvent struct {
	Conversation ConversationInfo
	Prompt       string
	Sections     []core.PromptSection
	// Tools names the run's tools, in order; Options is what the prompt
	// is built from (Config.PromptOptions; zero without it).
	Tools   []string
	Options PromptOptions
}

// AgentStartResult adds system prompt sections for this prompt's requests,
// after the others, and context after the prompt.
type AgentStartResult struct {
	Sections []core.PromptSection
	Context  []string
}

// ContextEvent is the Context point.
type ContextEvent struct {
	Conversation ConversationInfo
	Messages     []core.Message
}

// ToolCallEvent is the ToolCall point: the call with its canonical
// arguments, and its tool.
type ToolCallEvent struct {
	Conversation ConversationInfo
	Call         core.ToolCall
	Tool         core.Tool
}

// CallDecision is what an interceptor decides about a tool call.
type CallDecision uint8

// The call decisions, as Claude Code's permissionDecision has them.
const (
	// CallUndecided leaves the call to the next interceptor and the
	// approver.
	CallUndecided CallDecision = iota
	// CallAllow saves the approval question where a rule could, never
	// more (approval.VerdictAllow): protected files, secrets, leaving the
	// sandbox and tools the person refused are still asked about.
	CallAllow
	// CallAsk forces the approval question (approval.VerdictAsk); Reason
	// is shown with it.
	CallAsk
	// CallBlock refuses the call; Reason is the result the model reads.
	CallBlock
)

// ToolCallResult is a ToolCall handler's answer. Arguments, when not nil,
// replace the call's; they are checked again with core.CheckArguments, and
// the call is refused if they fail. Over several interceptors a block ends
// it at once, and an ask outweighs an allow. Context is added after the
// turn's results, whatever becomes of the call.
type ToolCallResult struct {
	Arguments json.RawMessage
	Decision  CallDecision
	Reason    string
	Context   []string
}

// ToolResultEvent is the ToolResult point.
type ToolResultEvent struct {
	Conversation ConversationInfo
	Call         core.ToolCall
	Tool         core.Tool
	Result       core.ToolResult
}

// ToolResultResult is a ToolResult handler's answer: Result, when not nil,
// replaces the result (content, details, error flag); Context is added
// after the turn's results.
type ToolResultResult struct {
	Result  *core.ToolResult
	Context []string
}

// TurnEndEvent is the TurnEnd point.
type TurnEndEvent struct {
	Conversation ConversationInfo
	Message      *core.AssistantMessage
	Results      []*core.ToolResultMessage
}

// StopEvent is the Stop point: the model's last answer, and how many times
// Stop handlers already sent the agent back to work for this prompt
// (Claude Code's stop_hook_active is Continued > 0).
type StopEvent struct {
	Conversation ConversationInfo
	Message      *core.AssistantMessage
	Continued    int
	// Messages are the messages the run added, in order, Message last
	// (pi's agent_end messages).
	Messages []core.Message
}

// StopResult sends the agent back to work when Continue is set; Reason is
// what the model is told (required: an empty reason does not continue).
type StopResult struct {
	Continue bool
	Reason   string
}

// CompactEvent is the BeforeCompact point: the compaction prepared, not
// yet summarised.
type CompactEvent struct {
	Conversation ConversationInfo
	Reason       core.CompactionReason
	Instructions string
	// Preparation is what the compaction summarises and keeps (pi's
	// CompactionPreparation); FirstKeptEntryID is the entry it keeps
	// from ("" when the conversation keeps no entries).
	Preparation      *compaction.Preparation
	FirstKeptEntryID string
}

// CompactResult cancels the compaction (Reason says why), replaces its
// instructions (Instructions), or supplies the compaction itself
// (Compaction: pi's session_before_compact result), which is kept in
// place of the summary the model would write.
type CompactResult struct {
	Cancel       bool
	Reason       string
	Instructions string
	Compaction   *SuppliedCompaction
}

// SuppliedCompaction is a compaction a handler wrote: its summary, the
// entry the kept messages start from ("" keeps what the preparation
// keeps), the size it reports, and its own details for the session file.
type SuppliedCompaction struct {
	Summary          string
	FirstKeptEntryID string
	TokensBefore     int
	Details          json.RawMessage
	// Usage is what writing the summary cost, counted in the session's
	// totals.
	Usage core.Usage
}

// NotificationKind says what a notification is about, as Claude Code's
// notification_type does.
type NotificationKind string

// The notification kinds.
const (
	NotifyPermission  NotificationKind = "permission_prompt"
	NotifyElicitation NotificationKind = "elicitation_dialog"
)

// PermissionRequestEvent is the PermissionRequest point: the call the
// person is about to be asked about, and the question.
type PermissionRequestEvent struct {
	Conversation ConversationInfo
	Call         core.ToolCall
	Question     core.Question
}

// PermissionRequestResult is a PermissionRequest handler's answer:
// Decision CallAllow or CallBlock answers the question (allow once, or
// deny with Reason for the model); CallUndecided leaves it to the person.
type PermissionRequestResult struct {
	Decision CallDecision
	Reason   string
}

// NotificationEvent is the Notification point.
type NotificationEvent struct {
	Conversation ConversationInfo
	Kind         NotificationKind
	Title        string
	Message      string
}

// UserBashEvent is the UserBash point.
type UserBashEvent struct {
	Conversation ConversationInfo
	Command      string
}

// UserBashAction is what becomes of a `!cmd`.
type UserBashAction uint8

// The user bash actions.
const (
	// BashContinue runs the command.
	BashContinue UserBashAction = iota
	// BashHandled does not run it: Output and ExitCode are its result.
	BashHandled
	// BashBlock does not run it; Reason says why.
	BashBlock
)

// UserBashResult is a UserBash handler's answer.
type UserBashResult struct {
	Action   UserBashAction
	Output   string
	ExitCode int
	Reason   string
}
