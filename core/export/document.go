package export

import (
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
)

// Document is what an export shows: who the session is, how it was set
// up, and its conversation. Only Messages is needed; every other field is
// shown when set.
type Document struct {
	ID      string    // the session's id
	Name    string    // its display name
	Cwd     string    // the working directory it ran in
	Created time.Time // when it started; zero if unknown
	// Model is the model the session last used, as "provider/model".
	Model         string
	ThinkingLevel core.ThinkingLevel

	// SystemPrompt and Tools are what the model was told; front ends that
	// hold a live session know them, a session file does not.
	SystemPrompt string
	Tools        []core.ToolSpec

	// Messages is the current branch from its first message to its tip,
	// in the agent roles of core. A compaction appears where it happened,
	// as a *core.CompactionSummaryMessage; the messages it summarised stay
	// before it.
	Messages []core.Message
	// EntryIDs optionally holds the session entry id of each message, for
	// anchors in the page and for Branches to point at.
	EntryIDs []string
	// Labels are the bookmarks set on entries, by entry id.
	Labels map[string]string
	// Branches are the parts of the session tree off the current branch,
	// shown collapsed after it.
	Branches []Branch
}

// Branch is a run of messages off the current branch: each message
// follows the one before it, the first follows the message whose entry id
// is ParentID ("" for a run that starts a new root).
type Branch struct {
	ParentID string
	Messages []core.Message
	EntryIDs []string
}

// FromFile reads the session file at path into a Document: its header,
// name, model and thinking level, the messages of the current branch, and
// the other branches. Lines the session reader skips (a crash's incomplete
// last line) are left out, as they are when the session is resumed.
func FromFile(path string) (Document, error) {
	f, err := session.Open(path)
	if err != nil {
		return Document{}, err
	}
	defer f.Close()

	h := f.Header()
	doc := Document{ID: h.ID, Name: f.Name(), Cwd: h.Cwd}
	if t, err := time.Parse(time.RFC3339Nano, h.Timestamp); err == nil {
		doc.Created = t
	}
	ctx := f.Context()
	doc.ThinkingLevel = ctx.ThinkingLevel
	if ctx.Model != nil {
		doc.Model = ctx.Model.Provider + "/" + ctx.Model.ModelID
	}

	nodes := f.Nodes()
	anchor := make(map[string]string, len(nodes)) // entry id -> nearest message entry at or above it
	onBranch := map[string]bool{}
	for _, e := range f.ActiveBranch() {
		onBranch[e.ID] = true
		anchor[e.ID] = parentAnchor(anchor, e.ParentID)
		if m := entryMessage(&e); m != nil {
			doc.Messages = append(doc.Messages, m)
			doc.EntryIDs = append(doc.EntryIDs, e.ID)
			anchor[e.ID] = e.ID
		}
	}
	for _, n := range nodes {
		if n.Label != "" {
			if doc.Labels == nil {
				doc.Labels = map[string]string{}
			}
			doc.Labels[n.ID] = n.Label
		}
	}
	doc.Branches, err = offBranch(f, nodes, onBranch, anchor)
	if err != nil {
		return Document{}, fmt.Errorf("export %s: %w", path, err)
	}
	return doc, nil
}

// offBranch collects the entries that are not on the current branch into
// runs. Going through the file in order (a parent always comes before its
// children), an entry extends the run its parent ends, or else starts a
// new run; runs without a message are dropped. It reads each entry once.
func offBranch(f *session.File, nodes []session.Node, onBranch map[string]bool, anchor map[string]string) ([]Branch, error) {
	var runs []Branch
	tail := map[string]int{} // id of the last entry of a run -> run index
	for _, n := range nodes {
		if onBranch[n.ID] {
			continue
		}
		run, ok := tail[n.ParentID]
		if ok && n.ParentID != "" {
			delete(tail, n.ParentID)
		} else {
			run = len(runs)
			runs = append(runs, Branch{ParentID: parentAnchor(anchor, &n.ParentID)})
		}
		tail[n.ID] = run
		anchor[n.ID] = parentAnchor(anchor, &n.ParentID)
		if !carriesMessage(n.Type) {
			continue
		}
		e, err := f.Entry(n.ID)
		if err != nil {
			return nil, err
		}
		if m := entryMessage(&e); m != nil {
			runs[run].Messages = append(runs[run].Messages, m)
			runs[run].EntryIDs = append(runs[run].EntryIDs, n.ID)
			anchor[n.ID] = n.ID
		}
	}
	out := runs[:0]
	for _, r := range runs {
		if len(r.Messages) > 0 {
			out = append(out, r)
		}
	}
	return out, nil
}

func parentAnchor(anchor map[string]string, parentID *string) string {
	if parentID == nil {
		return ""
	}
	return anchor[*parentID]
}

func carriesMessage(t session.EntryType) bool {
	switch t {
	case session.TypeMessage, session.TypeCompaction, session.TypeBranchSummary, session.TypeCustomMessage:
		return true
	}
	return false
}

// entryMessage returns what an entry shows as a message in the page, or
// nil for entries that only change settings or carry extension state.
func entryMessage(e *session.Entry) core.Message {
	ts := unixMilli(e.Timestamp)
	switch p := e.Payload.(type) {
	case *session.MessageEntry:
		return p.Message
	case *session.CompactionEntry:
		return &core.CompactionSummaryMessage{Summary: p.Summary, TokensBefore: p.TokensBefore, Timestamp: ts}
	case *session.BranchSummaryEntry:
		if p.Summary != "" {
			return &core.BranchSummaryMessage{Summary: p.Summary, FromID: p.FromID, Timestamp: ts}
		}
	case *session.CustomMessageEntry:
		return &core.CustomMessage{CustomType: p.CustomType, Content: p.Content, Display: p.Display, Timestamp: ts}
	}
	return nil
}

func unixMilli(ts string) int64 {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
