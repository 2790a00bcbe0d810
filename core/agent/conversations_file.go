package agent

import (
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
)

// *session.File is the agent's store as it is, with no adapter.
var _ Store = (*session.File)(nil)

// FileConversations keeps conversations as pi's JSONL session files in a
// session.Store, one file per conversation; the current file is replaced
// (and the old one closed) on new, open and fork.
type FileConversations struct {
	store session.Store
	cwd   string
	file  *session.File
	// Warn receives problems that do not stop a file from opening (damaged
	// lines that were skipped); nil drops them.
	Warn func(path string, w session.Warning)
}

// NewFileConversations continues with file (from store.Create or
// session.Open) as the current conversation of the working directory cwd.
func NewFileConversations(store session.Store, cwd string, file *session.File) *FileConversations {
	return &FileConversations{store: store, cwd: cwd, file: file}
}

// File returns the current session file.
func (c *FileConversations) File() *session.File { return c.file }

// Info implements Conversations.
func (c *FileConversations) Info() ConversationInfo {
	info := ConversationInfo{ID: c.file.Header().ID, Name: c.file.Name(), Path: c.file.FilePath()}
	if c.file.Persisted() {
		info.File = c.file.FilePath()
	}
	return info
}

// Store implements Conversations.
func (c *FileConversations) Store() Store { return c.file }

// SetName implements Conversations.
func (c *FileConversations) SetName(name string) error {
	_, err := c.file.Append(&session.SessionInfoEntry{Name: name})
	return err
}

// New implements Conversations.
func (c *FileConversations) New(string) (Loaded, error) {
	return c.replace(c.store.Create(c.cwd)), nil
}

// Open implements Conversations.
func (c *FileConversations) Open(path string) (Loaded, error) {
	f, err := session.Open(path)
	if err != nil {
		return Loaded{}, fmt.Errorf("open session %s: %w", path, err)
	}
	if c.Warn != nil {
		for _, w := range f.Warnings() {
			c.Warn(path, w)
		}
	}
	return c.replace(f), nil
}

// List implements Conversations.
func (c *FileConversations) List() ([]session.Info, error) { return c.store.List(c.cwd) }

// Fork implements Conversations: a new file with the path up to the user
// message's parent.
func (c *FileConversations) Fork(entryID string) (string, Loaded, error) {
	e, err := c.file.Entry(entryID)
	if err != nil {
		return "", Loaded{}, errNoEntry(entryID, err)
	}
	var u *core.UserMessage
	if me, ok := e.Payload.(*session.MessageEntry); ok {
		u, _ = me.Message.(*core.UserMessage)
	}
	if u == nil {
		return "", Loaded{}, errors.New("fork needs the entry id of a user message (see get_fork_messages)")
	}
	parent := ""
	if e.ParentID != nil {
		parent = *e.ParentID
	}
	f, err := c.file.Fork(parent)
	if err != nil {
		return "", Loaded{}, err
	}
	return u.Text(), c.replace(f), nil
}

// Branch implements Conversations.
func (c *FileConversations) Branch(entryID string) (Loaded, error) {
	if entryID == "" {
		c.file.ResetLeaf() // before the first entry: the next message is a new root
	} else if err := c.file.Branch(entryID); err != nil {
		return Loaded{}, err
	}
	return loadedFrom(c.file), nil
}

// Tree implements Conversations.
func (c *FileConversations) Tree() ([]TreeNode, error) {
	onPath := map[string]bool{}
	for _, e := range c.file.ActiveBranch() {
		onPath[e.ID] = true
	}
	var out []TreeNode
	for _, n := range c.file.Nodes() {
		tn := TreeNode{ID: n.ID, ParentID: n.ParentID, Role: string(n.Type), OnPath: onPath[n.ID], Label: n.Label}
		if n.Type == session.TypeMessage {
			m, err := c.message(n.ID)
			if err != nil {
				return nil, err
			}
			if m != nil {
				tn.Role = string(m.MessageRole())
				tn.Text = previewText(m)
			}
		}
		out = append(out, tn)
	}
	return out, nil
}

// ForkPoints implements Conversations.
func (c *FileConversations) ForkPoints() ([]ForkPoint, error) {
	out := []ForkPoint{}
	for _, n := range c.file.Nodes() {
		if n.Type != session.TypeMessage {
			continue
		}
		m, err := c.message(n.ID)
		if err != nil {
			return nil, err
		}
		if u, ok := m.(*core.UserMessage); ok {
			out = append(out, ForkPoint{EntryID: n.ID, Text: u.Text()})
		}
	}
	return out, nil
}

// Entries returns every entry after the header, in file order, and the
// leaf.
func (c *FileConversations) Entries() ([]session.Entry, string, error) {
	nodes := c.file.Nodes()
	out := make([]session.Entry, len(nodes))
	for i, n := range nodes {
		e, err := c.file.Entry(n.ID)
		if err != nil {
			return nil, "", err
		}
		out[i] = e
	}
	return out, c.file.Leaf(), nil
}

// Clone starts a new file holding the current branch up to the leaf.
func (c *FileConversations) Clone() (Loaded, error) {
	f, err := c.file.Fork(c.file.Leaf())
	if err != nil {
		return Loaded{}, fmt.Errorf("clone the session: %w", err)
	}
	return c.replace(f), nil
}

// Close implements Conversations.
func (c *FileConversations) Close() error { return c.file.Close() }

// message reads the message of entry id (nil for other entries).
func (c *FileConversations) message(id string) (core.Message, error) {
	e, err := c.file.Entry(id)
	if err != nil {
		return nil, err
	}
	if me, ok := e.Payload.(*session.MessageEntry); ok {
		return me.Message, nil
	}
	return nil, nil
}

// replace makes f the current file, closing the old one, and returns the
// conversation to continue.
func (c *FileConversations) replace(f *session.File) Loaded {
	if old := c.file; old != nil && old != f {
		_ = old.Close()
	}
	c.file = f
	return loadedFrom(f)
}

// loadedFrom is the conversation on f's current branch.
func loadedFrom(f *session.File) Loaded {
	ctx := f.Context()
	l := Loaded{Messages: ctx.Messages, EntryIDs: ctx.EntryIDs, Thinking: ctx.ThinkingLevel}
	if ctx.Model != nil {
		l.Provider, l.ModelID = ctx.Model.Provider, ctx.Model.ModelID
	}
	return l
}
