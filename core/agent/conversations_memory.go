package agent

import (
	"fmt"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
)

// MemoryConversations keeps one conversation in memory, as pi does with
// --no-session: messages get entry ids, so fork points can be listed, but
// nothing is written, so opening, forking and branching are refused with
// an error saying why. It is safe for concurrent use.
type MemoryConversations struct {
	mu     sync.Mutex
	id     string
	name   string
	points []ForkPoint // user messages only
	inner  Store       // also told everything, when set (tests)
}

// NewMemoryConversations returns an empty in-memory conversation. inner,
// when not nil, also records everything (a test's store).
func NewMemoryConversations(inner Store) *MemoryConversations {
	return &MemoryConversations{id: core.NewUUIDv7(time.Now()), inner: inner}
}

// Info implements Conversations.
func (m *MemoryConversations) Info() ConversationInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	return ConversationInfo{ID: m.id, Name: m.name}
}

// Store implements Conversations.
func (m *MemoryConversations) Store() Store { return memoryStore{m} }

// SetName implements Conversations.
func (m *MemoryConversations) SetName(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.name = name
	return nil
}

// New implements Conversations: a new id, no messages.
func (m *MemoryConversations) New(string) (Loaded, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.id, m.name, m.points = core.NewUUIDv7(time.Now()), "", nil
	return Loaded{}, nil
}

// Open implements Conversations; it needs session files.
func (m *MemoryConversations) Open(path string) (Loaded, error) {
	return Loaded{}, fmt.Errorf("cannot switch to %s: %w; start cairn without --no-session to use session files", path, ErrNoSessionFile)
}

// List implements Conversations: nothing is stored.
func (m *MemoryConversations) List() ([]session.Info, error) { return nil, nil }

// Fork implements Conversations; it needs a session file.
func (m *MemoryConversations) Fork(string) (string, Loaded, error) {
	return "", Loaded{}, fmt.Errorf("cannot fork: %w; start cairn without --no-session to fork sessions", ErrNoSessionFile)
}

// Branch implements Conversations; it needs a session file.
func (m *MemoryConversations) Branch(string) (Loaded, error) {
	return Loaded{}, fmt.Errorf("cannot branch: %w; start cairn without --no-session to use /tree", ErrNoSessionFile)
}

// Tree implements Conversations: the user messages, one after another.
func (m *MemoryConversations) Tree() ([]TreeNode, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]TreeNode, len(m.points))
	for i, p := range m.points {
		out[i] = TreeNode{ID: p.EntryID, Role: string(core.RoleUser), Text: p.Text, OnPath: true}
		if i > 0 {
			out[i].ParentID = m.points[i-1].EntryID
		}
	}
	return out, nil
}

// ForkPoints implements Conversations.
func (m *MemoryConversations) ForkPoints() ([]ForkPoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]ForkPoint{}, m.points...), nil
}

// Close implements Conversations.
func (m *MemoryConversations) Close() error { return nil }

// memoryStore gives entry ids to what the agent records.
type memoryStore struct{ m *MemoryConversations }

func (s memoryStore) AppendMessage(msg core.Message) (string, error) {
	id := core.NewEntryID()
	if s.m.inner != nil {
		var err error
		if id, err = s.m.inner.AppendMessage(msg); err != nil {
			return id, err
		}
	}
	if u, ok := msg.(*core.UserMessage); ok {
		s.m.mu.Lock()
		s.m.points = append(s.m.points, ForkPoint{EntryID: id, Text: u.Text()})
		s.m.mu.Unlock()
	}
	return id, nil
}

func (s memoryStore) AppendModelChange(provider, id string) error {
	if s.m.inner != nil {
		return s.m.inner.AppendModelChange(provider, id)
	}
	return nil
}

func (s memoryStore) AppendThinkingLevel(level core.ThinkingLevel) error {
	if s.m.inner != nil {
		return s.m.inner.AppendThinkingLevel(level)
	}
	return nil
}

func (s memoryStore) AppendCompaction(r core.CompactionResult) (string, error) {
	if s.m.inner != nil {
		return s.m.inner.AppendCompaction(r)
	}
	return core.NewEntryID(), nil
}
