package core

import (
	"encoding/json"
	"time"
)

// Event is one thing that happened in an agent session. Every session
// publishes its events in one total order; front ends translate them into
// their own protocol. The set mirrors pi's AgentSessionEvent.
type Event interface {
	// EventType is pi's name for the event ("agent_start", ...).
	EventType() string
}

// AgentStart opens one run of the agent loop.
type AgentStart struct{}

// AgentEnd closes a run. Messages are those the run added to the
// conversation, in order. WillRetry says the session will try again on its
// own (an automatic retry, or a retry after compacting an overflow), so
// the prompt has not settled.
type AgentEnd struct {
	Messages  []Message
	WillRetry bool
}

// TurnStart opens one model request and the tool calls it asks for.
type TurnStart struct{}

// TurnEnd closes a turn with the assistant message and its tool results.
type TurnEnd struct {
	Message     *AssistantMessage
	ToolResults []*ToolResultMessage
}

// MessageStart announces a message entering the conversation. For an
// assistant message it is the empty message about to stream, with no stop
// reason yet.
type MessageStart struct {
	Message Message
}

// UpdateKind is the step a MessageUpdate reports: a content block opens,
// grows by a delta, or closes. Adapters name it in their own protocol.
type UpdateKind uint8

// The update kinds, in the order they occur for one block.
const (
	UpdateTextStart UpdateKind = iota + 1
	UpdateTextDelta
	UpdateTextEnd
	UpdateThinkingStart
	UpdateThinkingDelta
	UpdateThinkingEnd
	UpdateToolCallStart
	UpdateToolCallDelta
	UpdateToolCallEnd
)

var updateKindNames = [...]string{
	UpdateTextStart: "TextStart", UpdateTextDelta: "TextDelta", UpdateTextEnd: "TextEnd",
	UpdateThinkingStart: "ThinkingStart", UpdateThinkingDelta: "ThinkingDelta", UpdateThinkingEnd: "ThinkingEnd",
	UpdateToolCallStart: "ToolCallStart", UpdateToolCallDelta: "ToolCallDelta", UpdateToolCallEnd: "ToolCallEnd",
}

// String names the kind for logs and tests; adapters use their protocol's
// own names.
func (k UpdateKind) String() string {
	if int(k) < len(updateKindNames) && updateKindNames[k] != "" {
		return updateKindNames[k]
	}
	return "UpdateKind(?)"
}

// IsDelta reports whether the update carries a fragment in Delta.
func (k UpdateKind) IsDelta() bool {
	return k == UpdateTextDelta || k == UpdateThinkingDelta || k == UpdateToolCallDelta
}

// MessageUpdate is one streaming step of an assistant message. Kind is the
// step, Index the content block, Delta the new fragment. Message is a
// snapshot taken when the event was published: it is safe to read from any
// goroutine and never changes afterwards.
type MessageUpdate struct {
	Kind    UpdateKind
	Index   int
	Delta   string
	Message *AssistantMessage
}

// MessageEnd announces a message in its final form.
type MessageEnd struct {
	Message Message
}

// ToolExecutionStart announces a tool call about to run (or be refused).
type ToolExecutionStart struct {
	ToolCallID string
	ToolName   string
	Args       []byte // the call's JSON arguments
}

// ToolExecutionRunning says an allowed tool call has begun to run. The
// calls of one answer are all decided (approved or not) before any runs,
// so a call announced by ToolExecutionStart may wait for the approval of
// another; front ends start its clock here.
type ToolExecutionRunning struct {
	ToolCallID string
	ToolName   string
}

// ToolExecutionUpdate carries a running tool's partial output. Each update
// replaces the previous one.
type ToolExecutionUpdate struct {
	ToolCallID string
	ToolName   string
	Args       []byte
	Partial    ToolUpdate
}

// ToolExecutionEnd announces a tool call's result.
type ToolExecutionEnd struct {
	ToolCallID string
	ToolName   string
	Result     ToolResult
	// Duration is how long the tool ran (pi 1.5's durationMs); nil when
	// it did not run (unknown, denied, skipped, aborted).
	Duration *time.Duration
}

// AutoRetryStart announces a wait before retrying a failed request.
type AutoRetryStart struct {
	Attempt      int
	MaxAttempts  int
	Delay        time.Duration
	ErrorMessage string
}

// AutoRetryEnd reports how retrying ended.
type AutoRetryEnd struct {
	Success    bool
	Attempt    int
	FinalError string
}

// CompactionResult is what compacting a conversation produced.
type CompactionResult struct {
	Summary          string   `json:"summary"`
	FirstKeptEntryID string   `json:"firstKeptEntryId"`
	TokensBefore     int      `json:"tokensBefore"`
	ReadFiles        []string `json:"-"`
	ModifiedFiles    []string `json:"-"`
	// SystemMessage is the complete system prompt and tools at the
	// compaction (pi 0.87's checkpoint): it leads the compacted context.
	SystemMessage *SystemMessage `json:"-"`
	// EstimatedTokensAfter estimates the rebuilt context's size; Usage is
	// what the summary requests cost.
	EstimatedTokensAfter int   `json:"-"`
	Usage                Usage `json:"-"`
	// FromHook says an extension wrote the summary (pi's
	// session_before_compact compaction); Details are then its own data,
	// kept in the session in place of the file lists when set.
	FromHook bool            `json:"-"`
	Details  json.RawMessage `json:"-"`
}

// CompactionReason says why compaction started on its own.
type CompactionReason string

// The reasons for automatic compaction, and CompactionManual for one a
// person or host asked for.
const (
	CompactionThreshold CompactionReason = "threshold"
	CompactionOverflow  CompactionReason = "overflow"
	CompactionManual    CompactionReason = "manual"
)

// EntryAppended announces an entry the session appended that is not a
// message: pi 0.87's context_edit that leaves a failed attempt out of the
// context before it is retried. Entry marshals to the entry as the session
// file writes it.
type EntryAppended struct {
	Entry json.Marshaler
}

// SummarizationRetryScheduled announces a wait before asking again for a
// compaction's summary, after a transient failure (pi 0.87). Attempt counts
// from 1.
type SummarizationRetryScheduled struct {
	Attempt      int
	MaxAttempts  int
	Delay        time.Duration
	ErrorMessage string
}

// SummarizationRetryAttemptStart opens a retried summary request of the
// compaction started for Reason.
type SummarizationRetryAttemptStart struct {
	Reason CompactionReason
}

// SummarizationRetryFinished closes the retries of a summary request,
// whatever their outcome; compaction's own end event says which it was.
type SummarizationRetryFinished struct{}

// AutoCompactionStart announces automatic compaction.
type AutoCompactionStart struct {
	Reason CompactionReason
}

// AutoCompactionEnd reports how automatic compaction ended. Result is nil
// when it failed, was aborted or was skipped.
type AutoCompactionEnd struct {
	Reason       CompactionReason
	Result       *CompactionResult
	Aborted      bool
	WillRetry    bool
	ErrorMessage string
}

// QueueUpdate reports the texts waiting in the steering and follow-up
// queues after a change.
type QueueUpdate struct {
	Steering []string
	FollowUp []string
}

// ThinkingLevelChanged reports a new thinking level.
type ThinkingLevelChanged struct {
	Level ThinkingLevel
}

// ModelChanged reports a new model.
type ModelChanged struct {
	Model Model
}

// SessionInfoChanged reports a new session name.
type SessionInfoChanged struct {
	Name string
}

// Settled is published exactly once per accepted prompt, after the last
// run it caused (retries and compactions included) has ended. Error is the
// final error, if the prompt ended in one.
type Settled struct {
	Error string
	// Aborted says the prompt ended because it was aborted (pi 1.5).
	Aborted bool
}

// EventType implementations.
func (AgentStart) EventType() string           { return "agent_start" }
func (AgentEnd) EventType() string             { return "agent_end" }
func (TurnStart) EventType() string            { return "turn_start" }
func (TurnEnd) EventType() string              { return "turn_end" }
func (MessageStart) EventType() string         { return "message_start" }
func (MessageUpdate) EventType() string        { return "message_update" }
func (MessageEnd) EventType() string           { return "message_end" }
func (ToolExecutionStart) EventType() string   { return "tool_execution_start" }
func (ToolExecutionUpdate) EventType() string  { return "tool_execution_update" }
func (ToolExecutionRunning) EventType() string { return "tool_execution_running" }
func (ToolExecutionEnd) EventType() string     { return "tool_execution_end" }
func (AutoRetryStart) EventType() string       { return "auto_retry_start" }
func (AutoRetryEnd) EventType() string         { return "auto_retry_end" }
func (AutoCompactionStart) EventType() string  { return "auto_compaction_start" }
func (AutoCompactionEnd) EventType() string    { return "auto_compaction_end" }
func (SummarizationRetryScheduled) EventType() string {
	return "summarization_retry_scheduled"
}
func (SummarizationRetryAttemptStart) EventType() string {
	return "summarization_retry_attempt_start"
}
func (SummarizationRetryFinished) EventType() string { return "summarization_retry_finished" }
func (EntryAppended) EventType() string              { return "entry_appended" }
func (QueueUpdate) EventType() string                { return "queue_update" }
func (ThinkingLevelChanged) EventType() string       { return "thinking_level_changed" }
func (ModelChanged) EventType() string               { return "model_changed" }
func (SessionInfoChanged) EventType() string         { return "session_info_changed" }
func (Settled) EventType() string                    { return "agent_settled" }

// Notice is something the session wants a person to know that is not part
// of the conversation (a session file that could not be written).
type Notice struct {
	Level   NotifyLevel
	Message string
}

// EventType implements Event.
func (Notice) EventType() string { return "notice" }
