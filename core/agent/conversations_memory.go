package agent

import (
	"fmt"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
)

// MemoryConversations keeps conversations in memory, as pi does with
// --no-session: each is a session.NewMemory tree, so entries, the tree,
// fork points, forks, clones and branches work as with files, but nothing
// is written; opening a session file is refused with an error saying why.
// The current conversation is replaced on new, fork and clone.
type MemoryConversations struct {
	files *FileConversations
	inner Store // also told everything, when set (tests)
}

// NewMemoryConversations returns an empty in-memory conversation. inner,
// when not nil, also records everything (a test's store).
func NewMemoryConversations(inner Store) *MemoryConversations {
	return &MemoryConversations{files: NewFileConversations(session.Store{}, "", session.NewMemory("", nil)), inner: inner}
}

// Info implements Conversations: an id and a name, never a file.
func (m *MemoryConversations) Info() ConversationInfo { return m.files.Info() }

// Store implements Conversations.
func (m *MemoryConversations) Store() Store {
	if m.inner == nil {
		return m.files.Store()
	}
	return teeStore{m.files.Store(), m.inner}
}

// SetName implements Conversations.
func (m *MemoryConversations) SetName(name string) error { return m.files.SetName(name) }

// New implements Conversations: a new id, no messages.
func (m *MemoryConversations) New(string) (Loaded, error) {
	return m.files.replace(session.NewMemory("", nil)), nil
}

// Open implements Conversations; it needs session files.
func (m *MemoryConversations) Open(path string) (Loaded, error) {
	return Loaded{}, fmt.Errorf("cannot switch to %s: %w; start cairn without --no-session to use session files", path, ErrNoSessionFile)
}

// List implements Conversations: nothing is stored.
func (m *MemoryConversations) List() ([]session.Info, error) { return nil, nil }

// Fork implements Conversations: a new conversation in memory holding the
// current one up to the user message's parent.
func (m *MemoryConversations) Fork(entryID string) (string, Loaded, error) {
	return m.files.Fork(entryID)
}

// Branch implements Conversations.
func (m *MemoryConversations) Branch(entryID string) (Loaded, error) {
	return m.files.Branch(entryID)
}

// Tree implements Conversations.
func (m *MemoryConversations) Tree() ([]TreeNode, error) { return m.files.Tree() }

// ForkPoints implements Conversations.
func (m *MemoryConversations) ForkPoints() ([]ForkPoint, error) { return m.files.ForkPoints() }

// Entries implements entryKeeper: every entry of the conversation.
func (m *MemoryConversations) Entries() ([]session.Entry, string, error) {
	return m.files.Entries()
}

// Clone implements entryKeeper: a new conversation in memory holding the
// current branch.
func (m *MemoryConversations) Clone() (Loaded, error) { return m.files.Clone() }

// Close implements Conversations.
func (m *MemoryConversations) Close() error { return m.files.Close() }

// teeStore records in the conversation, whose entry ids it returns, and
// also in a test's store; the test store's failure is the result.
type teeStore struct{ conv, inner Store }

func (s teeStore) AppendMessage(msg core.Message) (string, error) {
	id, err := s.conv.AppendMessage(msg)
	if err != nil {
		return id, err
	}
	_, err = s.inner.AppendMessage(msg)
	return id, err
}

func (s teeStore) AppendModelChange(provider, id string) error {
	if err := s.conv.AppendModelChange(provider, id); err != nil {
		return err
	}
	return s.inner.AppendModelChange(provider, id)
}

func (s teeStore) AppendThinkingLevel(level core.ThinkingLevel) error {
	if err := s.conv.AppendThinkingLevel(level); err != nil {
		return err
	}
	return s.inner.AppendThinkingLevel(level)
}

func (s teeStore) AppendCompaction(r core.CompactionResult) (string, error) {
	id, err := s.conv.AppendCompaction(r)
	if err != nil {
		return id, err
	}
	_, err = s.inner.AppendCompaction(r)
	return id, err
}

// AppendContextEdit records a context edit in the conversation.
func (s teeStore) AppendContextEdit(targetID string) (session.Entry, error) {
	ed, ok := s.conv.(contextEditor)
	if !ok {
		return session.Entry{}, fmt.Errorf("the conversation cannot record context edits")
	}
	return ed.AppendContextEdit(targetID)
}
