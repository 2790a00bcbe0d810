package session

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// Version is the session format version cairn writes: pi's current one.
const Version = 3

// Header is the first line of a session file. Its JSON keys, in order, are
// type ("session"), version, id, timestamp, cwd and, for a fork,
// parentSession.
type Header struct {
	// Version is the format version; files older than 2 have no entry ids.
	Version int
	// ID is the session's UUID, also the suffix of its file name.
	ID string
	// Timestamp is when the session was created, as an ISO 8601 string.
	Timestamp string
	// Cwd is the working directory the session was started in.
	Cwd string
	// ParentSession is the path of the session file this one was forked
	// from, or empty.
	ParentSession string
}

// EntryType names the kind of an entry, using pi's wire names.
type EntryType string

// The entry types pi writes. A file may hold others (written by a newer pi
// or an extension); they are kept as UnknownEntry payloads.
const (
	TypeMessage             EntryType = "message"
	TypeModelChange         EntryType = "model_change"
	TypeThinkingLevelChange EntryType = "thinking_level_change"
	TypeCompaction          EntryType = "compaction"
	TypeBranchSummary       EntryType = "branch_summary"
	TypeCustom              EntryType = "custom"
	TypeCustomMessage       EntryType = "custom_message"
	TypeLabel               EntryType = "label"
	TypeSessionInfo         EntryType = "session_info"
	TypeContextEdit         EntryType = "context_edit"
)

// Entry is one line of a session file after the header: a node of the
// session tree. ParentID is nil for a root (the first entry, or one written
// after ResetLeaf).
type Entry struct {
	Type      EntryType
	ID        string
	ParentID  *string
	Timestamp string // ISO 8601, UTC, milliseconds
	// Payload holds the fields of Type: one of the *...Entry types of this
	// package, or an *UnknownEntry.
	Payload Payload
}

// Payload is the type-specific part of an entry.
type Payload interface {
	// EntryType reports the entry type the payload belongs to.
	EntryType() EntryType
}

// MessageEntry is a message of the conversation in any of its agent roles:
// *core.UserMessage, *core.AssistantMessage, *core.ToolResultMessage,
// *core.BashExecutionMessage, *core.CustomMessage, or a *core.RawMessage for a
// role cairn does not know.
type MessageEntry struct {
	Message core.Message
}

// ModelChangeEntry records a switch of model.
type ModelChangeEntry struct {
	Provider string
	ModelID  string
}

// ThinkingLevelChangeEntry records a change of thinking level.
type ThinkingLevelChangeEntry struct {
	ThinkingLevel core.ThinkingLevel
}

// CompactionEntry replaces the conversation before FirstKeptEntryID with
// Summary when the context is built.
type CompactionEntry struct {
	Summary          string
	FirstKeptEntryID string
	TokensBefore     int
	// Details is extension or compaction data (pi: read and modified
	// files), not sent to the model; nil when absent.
	Details json.RawMessage
	// FromHook is true when an extension, not the agent, wrote the
	// summary. It is always written, false included, as pi 0.73 does.
	FromHook bool
	// SystemMessage is the system prompt and tools at the compaction (pi
	// 0.87): it leads the compacted context, and system messages among the
	// kept entries give way to it. nil on older entries.
	SystemMessage *core.SystemMessage
	// Usage is what the summary requests used (pi 0.87), counted in the
	// session's totals; nil on older entries and on summaries no model
	// wrote.
	Usage *core.Usage
}

// BranchSummaryEntry summarises a branch the conversation came back from.
type BranchSummaryEntry struct {
	// FromID is the leaf of the abandoned branch, or "root".
	FromID  string
	Summary string
	// Details is extension data, not sent to the model; nil when absent.
	Details json.RawMessage
	// FromHook is true when an extension wrote the summary.
	FromHook bool
}

// CustomEntry is extension state; it never reaches the model.
type CustomEntry struct {
	CustomType string
	// Data is the extension's JSON; nil when absent.
	Data json.RawMessage
}

// CustomMessageEntry is an extension message that takes part in the
// context as a user message.
type CustomMessageEntry struct {
	CustomType string
	Content    []core.Content
	// Display says whether front ends show it.
	Display bool
	// Details is extension data, not sent to the model; nil when absent.
	Details json.RawMessage
}

// LabelEntry sets (or, with an empty Label, clears) a bookmark on an entry.
type LabelEntry struct {
	TargetID string
	Label    string
}

// SessionInfoEntry sets the session's display name; the latest one wins.
type SessionInfoEntry struct {
	Name string
}

// UnknownEntry is an entry of a type cairn does not know, or one it could
// not decode. Raw is the whole line; it is written back unchanged.
type UnknownEntry struct {
	Type EntryType
	Raw  json.RawMessage
}

// EntryType implements Payload.
func (*MessageEntry) EntryType() EntryType { return TypeMessage }

// EntryType implements Payload.
func (*ModelChangeEntry) EntryType() EntryType { return TypeModelChange }

// EntryType implements Payload.
func (*ThinkingLevelChangeEntry) EntryType() EntryType { return TypeThinkingLevelChange }

// EntryType implements Payload.
func (*CompactionEntry) EntryType() EntryType { return TypeCompaction }

// EntryType implements Payload.
func (*BranchSummaryEntry) EntryType() EntryType { return TypeBranchSummary }

// EntryType implements Payload.
func (*CustomEntry) EntryType() EntryType { return TypeCustom }

// EntryType implements Payload.
func (*CustomMessageEntry) EntryType() EntryType { return TypeCustomMessage }

// EntryType implements Payload.
func (*LabelEntry) EntryType() EntryType { return TypeLabel }

// EntryType implements Payload.
func (*SessionInfoEntry) EntryType() EntryType { return TypeSessionInfo }

// ContextEditEntry edits what an earlier entry contributes to the model's
// context from here on (pi 0.87); the target itself stays in the session.
// A null Replacement leaves the target out, as pi does with a failed
// attempt before retrying it. A non-null Replacement (new content) is kept
// in the file but not applied: the target is left as it was.
type ContextEditEntry struct {
	TargetID    string
	Replacement json.RawMessage // nil or null: leave the target out
}

// EntryType implements Payload.
func (*ContextEditEntry) EntryType() EntryType { return TypeContextEdit }

// omits reports whether the edit leaves its target out of the context.
func (c *ContextEditEntry) omits() bool {
	return len(c.Replacement) == 0 || string(c.Replacement) == "null"
}

// EntryType implements Payload.
func (u *UnknownEntry) EntryType() EntryType { return u.Type }
