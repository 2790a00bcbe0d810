package pi

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// Sessions is the session file behind the conversation, as the session
// commands need it: new_session, switch_session, fork (omp: branch),
// get_fork_messages, set_session_name, and the id, file and name that
// get_state and export_html read. Implementations must be safe for
// concurrent use. NewMemorySessions is the one for --no-session; cmd/cairn
// adapts core/session's files to it.
type Sessions interface {
	// Info returns the current session's id, file and name.
	Info() SessionInfo
	// SetName names the current session.
	SetName(name string) error
	// New starts an empty session, recording parent (a session file path,
	// may be empty) as the one it came from.
	New(parent string) (Conversation, error)
	// Switch opens the session stored at path; a path that does not exist
	// starts a new session there.
	Switch(path string) (Conversation, error)
	// Fork starts a session holding the current one up to, not including,
	// the user message with entry id entryID, and returns that message's
	// text for the person to edit and send again.
	Fork(entryID string) (text string, c Conversation, err error)
	// ForkMessages lists the user messages of the current session, every
	// branch included, in file order: the points Fork accepts.
	ForkMessages() ([]ForkMessage, error)
}

// SessionInfo identifies the current session.
type SessionInfo struct {
	ID   string
	File string // "" for a session kept in memory
	Name string // "" until named
}

// Conversation is a conversation to continue after new_session,
// switch_session or fork: the store to record it in, its messages with
// their entry ids (see agent.Session.Replace), and the model and thinking
// level it last used (empty: keep the current ones).
type Conversation struct {
	Store    agent.Store
	Messages []core.Message
	EntryIDs []string
	Provider string
	ModelID  string
	Thinking core.ThinkingLevel
}

// ForkMessage is a user message a session can be forked at.
type ForkMessage struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}

// ErrNoSessionFile is the error of the commands that need a session file
// when the session is kept in memory.
var ErrNoSessionFile = errors.New("this session is kept in memory (cairn was started with --no-session), so it has no file")

// MemorySessions keeps a session in memory, as pi does with --no-session:
// messages get entry ids, so get_fork_messages works, but nothing is
// written, so switch_session, fork and export_html are refused with an
// error saying why. Use its Store as the agent.Session's store. It is safe
// for concurrent use.
type MemorySessions struct {
	mu      sync.Mutex
	id      string
	name    string
	entries []ForkMessage // user messages only
}

// NewMemorySessions returns an empty in-memory session.
func NewMemorySessions() *MemorySessions { return &MemorySessions{id: newUUIDv7()} }

// Store returns the agent.Store that records the session's entries.
func (m *MemorySessions) Store() agent.Store { return memoryStore{m} }

// Info implements Sessions.
func (m *MemorySessions) Info() SessionInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	return SessionInfo{ID: m.id, Name: m.name}
}

// SetName implements Sessions.
func (m *MemorySessions) SetName(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.name = name
	return nil
}

// New implements Sessions: a new id, no messages.
func (m *MemorySessions) New(string) (Conversation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.id, m.name, m.entries = newUUIDv7(), "", nil
	return Conversation{Store: memoryStore{m}}, nil
}

// Switch implements Sessions; it needs session files.
func (m *MemorySessions) Switch(path string) (Conversation, error) {
	return Conversation{}, fmt.Errorf("cannot switch to %s: %w; start cairn without --no-session to use session files", path, ErrNoSessionFile)
}

// Fork implements Sessions; it needs a session file.
func (m *MemorySessions) Fork(string) (string, Conversation, error) {
	return "", Conversation{}, fmt.Errorf("cannot fork: %w; start cairn without --no-session to fork sessions", ErrNoSessionFile)
}

// ForkMessages implements Sessions.
func (m *MemorySessions) ForkMessages() ([]ForkMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]ForkMessage{}, m.entries...), nil
}

// memoryStore gives entry ids to what the agent records.
type memoryStore struct{ m *MemorySessions }

func (s memoryStore) AppendMessage(msg core.Message) (string, error) {
	id := newEntryID()
	if u, ok := msg.(*core.UserMessage); ok {
		s.m.mu.Lock()
		s.m.entries = append(s.m.entries, ForkMessage{EntryID: id, Text: u.Text()})
		s.m.mu.Unlock()
	}
	return id, nil
}

func (memoryStore) AppendModelChange(string, string) error       { return nil }
func (memoryStore) AppendThinkingLevel(core.ThinkingLevel) error { return nil }
func (memoryStore) AppendCompaction(core.CompactionResult) (string, error) {
	return newEntryID(), nil
}

// newEntryID returns an 8-hex-digit entry id, as pi's session files use.
func newEntryID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newUUIDv7 returns a time-ordered UUID (version 7), as pi's session ids are.
func newUUIDv7() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	ms := uint64(time.Now().UnixMilli())
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], ms)
	copy(b[0:6], ts[2:8])
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
