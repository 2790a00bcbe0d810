package session

import (
	"time"

	"github.com/cairn-dev/cairn/core"
)

// Context is what the active branch amounts to for the next request: the
// messages (in their agent roles; core.ToLLM turns them into provider roles), and
// the thinking level and model the branch last set.
type Context struct {
	Messages []core.Message
	// EntryIDs holds, for each message, the id of the entry it comes from
	// (for the compaction summary, the compaction entry).
	EntryIDs      []string
	ThinkingLevel core.ThinkingLevel
	// Model is the last model_change or assistant message's model on the
	// branch, or nil.
	Model *ModelRef
}

// ModelRef names a model by provider and id.
type ModelRef struct {
	Provider string
	ModelID  string
}

// Context builds the active branch's context as pi's buildSessionContext
// does. With a compaction on the branch, the latest one's summary comes
// first, then the messages from its firstKeptEntryId up to it, then those
// after it. Custom message and branch summary entries become messages;
// other entry types contribute none. The messages are shared with the File:
// do not modify them.
func (f *File) Context() Context {
	f.mu.Lock()
	defer f.mu.Unlock()
	return buildContext(f.activeBranch())
}

func buildContext(path []Entry) Context {
	path = withoutEdited(path)
	ctx := Context{ThinkingLevel: core.ThinkingOff}
	compaction := -1
	for i := range path {
		switch p := path[i].Payload.(type) {
		case *ThinkingLevelChangeEntry:
			ctx.ThinkingLevel = p.ThinkingLevel
		case *ModelChangeEntry:
			ctx.Model = &ModelRef{Provider: p.Provider, ModelID: p.ModelID}
		case *MessageEntry:
			if am, ok := p.Message.(*core.AssistantMessage); ok {
				ctx.Model = &ModelRef{Provider: am.Provider, ModelID: am.Model}
			}
		case *CompactionEntry:
			compaction = i
		}
	}
	if compaction < 0 {
		for i := range path {
			ctx.add(&path[i])
		}
		return ctx
	}
	c := path[compaction].Payload.(*CompactionEntry)
	if c.SystemMessage != nil {
		// pi 0.87's checkpoint leads, and earlier system messages give
		// way to it.
		ctx.Messages = append(ctx.Messages, c.SystemMessage)
		ctx.EntryIDs = append(ctx.EntryIDs, "")
	}
	ctx.Messages = append(ctx.Messages, &core.CompactionSummaryMessage{Summary: c.Summary, TokensBefore: c.TokensBefore,
		Timestamp: unixMilli(path[compaction].Timestamp)})
	ctx.EntryIDs = append(ctx.EntryIDs, path[compaction].ID)
	kept := false
	for i := 0; i < compaction; i++ {
		if path[i].ID == c.FirstKeptEntryID {
			kept = true
		}
		if kept && !(c.SystemMessage != nil && isSystem(&path[i])) {
			ctx.add(&path[i])
		}
	}
	for i := compaction + 1; i < len(path); i++ {
		ctx.add(&path[i])
	}
	return ctx
}

// add appends the message an entry contributes, if any.
func (ctx *Context) add(e *Entry) {
	var m core.Message
	switch p := e.Payload.(type) {
	case *MessageEntry:
		m = p.Message
	case *CustomMessageEntry:
		m = &core.CustomMessage{CustomType: p.CustomType, Content: p.Content, Display: p.Display,
			Details: p.Details, Timestamp: unixMilli(e.Timestamp)}
	case *BranchSummaryEntry:
		if p.Summary != "" {
			m = &core.BranchSummaryMessage{Summary: p.Summary, FromID: p.FromID, Timestamp: unixMilli(e.Timestamp)}
		}
	}
	if m != nil {
		ctx.Messages = append(ctx.Messages, m)
		ctx.EntryIDs = append(ctx.EntryIDs, e.ID)
	}
}

// unixMilli converts an ISO timestamp to Unix milliseconds (0 if invalid).
func unixMilli(ts string) int64 {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// isSystem reports whether e holds a system message.
func isSystem(e *Entry) bool {
	me, ok := e.Payload.(*MessageEntry)
	if !ok {
		return false
	}
	_, ok = me.Message.(*core.SystemMessage)
	return ok
}

// withoutEdited returns path without the entries a context edit on it
// leaves out (the latest edit of an entry wins), and without the edits.
func withoutEdited(path []Entry) []Entry {
	omitted := map[string]bool{}
	edits := false
	for i := range path {
		if c, ok := path[i].Payload.(*ContextEditEntry); ok {
			omitted[c.TargetID], edits = c.omits(), true
		}
	}
	if !edits {
		return path
	}
	out := make([]Entry, 0, len(path))
	for _, e := range path {
		if _, edit := e.Payload.(*ContextEditEntry); !edit && !omitted[e.ID] {
			out = append(out, e)
		}
	}
	return out
}
