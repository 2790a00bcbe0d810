package agent

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
)

// ConversationInfo identifies the current conversation.
type ConversationInfo struct {
	ID   string
	File string // "" for a conversation kept in memory or not yet written
	// Path is where the conversation's file is, or will be once its first
	// answer is written (pi's sessionFile); "" when kept in memory.
	Path string
	Name string // "" until named
}

// Loaded is a conversation to continue: its messages with their entry ids,
// and the model and thinking level it last used (empty: keep the current
// ones).
type Loaded struct {
	Messages []core.Message
	EntryIDs []string
	Provider string
	ModelID  string
	Thinking core.ThinkingLevel
}

// ForkPoint is a user message a conversation can be forked at.
type ForkPoint struct {
	EntryID string
	Text    string
}

// TreeNode is one entry of the conversation's tree, for /tree and
// get_tree.
type TreeNode struct {
	ID       string
	ParentID string
	// Role is the message role ("user", "assistant", ...) or the entry type.
	Role string
	// Text is a one-line preview: the message's text, or what it did.
	Text string
	// OnPath is set for the entries of the current branch.
	OnPath bool
	// Label is the entry's bookmark (pi's label entries), or "".
	Label string
}

// Conversations keeps the conversations a Session moves between: session
// files (NewFileConversations) or memory (NewMemoryConversations, for
// --no-session). Front ends never use it directly; they call the Session's
// conversation commands, which keep the agent's state in step.
// Implementations need not be safe for concurrent use: the Session
// serialises its calls.
type Conversations interface {
	// Info identifies the current conversation.
	Info() ConversationInfo
	// Store records the current conversation.
	Store() Store
	// SetName names the current conversation.
	SetName(name string) error
	// New starts an empty conversation, recording parent (a session file
	// path, may be empty) as the one it came from.
	New(parent string) (Loaded, error)
	// Open continues the conversation stored at path.
	Open(path string) (Loaded, error)
	// List returns the stored conversations of the working directory,
	// newest first.
	List() ([]session.Info, error)
	// Fork starts a conversation holding the current one up to, not
	// including, the user message entryID, and returns that message's text.
	Fork(entryID string) (string, Loaded, error)
	// Branch continues the current conversation from entryID ("" for
	// before the first entry): the next message grows a new branch there.
	Branch(entryID string) (Loaded, error)
	// Tree lists the current conversation's entries in file order.
	Tree() ([]TreeNode, error)
	// ForkPoints lists the user messages of the current conversation, every
	// branch included, in file order.
	ForkPoints() ([]ForkPoint, error)
	// Close flushes and closes the current conversation's storage.
	Close() error
}

// entryKeeper is implemented by the Conversations that keep every entry of
// a session file (FileConversations): the whole tree can be read back and
// the current branch copied.
type entryKeeper interface {
	// Entries returns every entry of the current conversation after the
	// header, in file order, and the current branch tip ("" before the
	// first entry).
	Entries() ([]session.Entry, string, error)
	// Clone starts a conversation holding the current branch up to its tip.
	Clone() (Loaded, error)
}

// ErrNoSessionFile is the error of the commands that need a session file
// when the conversation is kept in memory.
var ErrNoSessionFile = errors.New("this session is kept in memory (cairn was started with --no-session), so it has no file")

// errBusySwitch refuses a conversation change while the agent works.
var errBusySwitch = errors.New("cannot change sessions while the agent is working; abort first")

// Conversation returns the current conversation's identity.
func (s *Session) Conversation() ConversationInfo {
	s.convMu.Lock()
	defer s.convMu.Unlock()
	return s.convs.Info()
}

// InMemory reports whether conversations are kept in memory only.
func (s *Session) InMemory() bool {
	_, ok := s.convs.(*MemoryConversations)
	return ok
}

// SetName names the current conversation and publishes
// SessionInfoChanged.
func (s *Session) SetName(name string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return errors.New("the session name is empty")
	}
	s.convMu.Lock()
	err := s.convs.SetName(name)
	s.convMu.Unlock()
	if err != nil {
		return err
	}
	s.publish(core.SessionInfoChanged{Name: name})
	return nil
}

// NewConversation starts an empty conversation (parent names the session
// file it came from, may be empty). It fails while the agent works.
func (s *Session) NewConversation(parent string) error {
	return s.switchTo(SwitchEvent{Kind: SwitchNew}, func(c Conversations) (Loaded, error) { return c.New(parent) })
}

// OpenConversation continues the conversation stored at path.
func (s *Session) OpenConversation(path string) error {
	return s.switchTo(SwitchEvent{Kind: SwitchResume, Target: path}, func(c Conversations) (Loaded, error) { return c.Open(path) })
}

// Fork continues in a new conversation holding the current one up to, not
// including, the user message entryID, and returns that message's text for
// the person to edit and send again.
func (s *Session) Fork(entryID string) (string, error) {
	var text string
	err := s.switchTo(SwitchEvent{Kind: SwitchFork, EntryID: entryID}, func(c Conversations) (Loaded, error) {
		t, l, err := c.Fork(entryID)
		text = t
		return l, err
	})
	return text, err
}

// Branch moves the current conversation to entryID ("" for before the
// first entry): the next message grows a new branch from there.
func (s *Session) Branch(entryID string) error {
	return s.switchTo(SwitchEvent{}, func(c Conversations) (Loaded, error) { return c.Branch(entryID) })
}

// ListConversations returns the stored conversations of the working
// directory, newest first.
func (s *Session) ListConversations() ([]session.Info, error) {
	s.convMu.Lock()
	defer s.convMu.Unlock()
	return s.convs.List()
}

// Tree lists the current conversation's entries.
func (s *Session) Tree() ([]TreeNode, error) {
	s.convMu.Lock()
	defer s.convMu.Unlock()
	return s.convs.Tree()
}

// Entries returns every entry of the current session file after the
// header, in file order (every branch, and what compaction left out of the
// context), and the current branch tip ("" before the first entry). It
// fails with ErrNoSessionFile when conversations are kept in memory.
func (s *Session) Entries() ([]session.Entry, string, error) {
	s.convMu.Lock()
	defer s.convMu.Unlock()
	k, ok := s.convs.(entryKeeper)
	if !ok {
		return nil, "", fmt.Errorf("cannot read the session entries: %w; start cairn without --no-session to keep them", ErrNoSessionFile)
	}
	return k.Entries()
}

// Clone continues in a new conversation holding the current branch up to
// its tip (pi's /clone). It fails while the agent works, and with
// ErrNoSessionFile when conversations are kept in memory.
func (s *Session) Clone() error {
	var leaf string
	if k, ok := s.convs.(entryKeeper); ok {
		s.convMu.Lock()
		_, leaf, _ = k.Entries()
		s.convMu.Unlock()
	}
	return s.switchTo(SwitchEvent{Kind: SwitchClone, EntryID: leaf}, func(c Conversations) (Loaded, error) {
		k, ok := c.(entryKeeper)
		if !ok {
			return Loaded{}, fmt.Errorf("cannot clone: %w; start cairn without --no-session to clone sessions", ErrNoSessionFile)
		}
		return k.Clone()
	})
}

// ForkPoints lists the user messages Fork accepts.
func (s *Session) ForkPoints() ([]ForkPoint, error) {
	s.convMu.Lock()
	defer s.convMu.Unlock()
	return s.convs.ForkPoints()
}

// switchTo replaces the conversation with the one open returns, then
// restores the model and thinking level it last used. Queued messages and
// `!cmd` results that have not joined the old conversation are dropped.
// The BeforeSwitch handlers are asked first when ev has a Kind (a move
// within the conversation, Branch, has none).
func (s *Session) switchTo(ev SwitchEvent, open func(Conversations) (Loaded, error)) error {
	s.mu.Lock()
	busy := s.run != nil || s.compacting
	s.mu.Unlock()
	if busy {
		return errBusySwitch
	}
	if ev.Kind != "" {
		if err := s.beforeSwitch(ev); err != nil {
			return err
		}
	}
	s.endSession(EndSwitch)
	s.convMu.Lock()
	l, err := open(s.convs)
	store := s.convs.Store()
	s.convMu.Unlock()
	if err != nil {
		return err
	}
	if len(l.EntryIDs) != len(l.Messages) {
		l.EntryIDs = make([]string, len(l.Messages))
	}
	s.mu.Lock()
	if s.run != nil || s.compacting {
		s.mu.Unlock()
		return errBusySwitch
	}
	s.store = store
	s.messages = slices.Clone(l.Messages)
	s.entryIDs = slices.Clone(l.EntryIDs)
	s.steering, s.followUp = nil, nil
	s.pendingBash, s.pendingCustom, s.nextTurn = nil, nil, nil
	s.generation++
	s.contextStale = false
	s.mu.Unlock()
	s.restoreModel(l)
	return nil
}

// restoreModel switches to the model and thinking level a loaded
// conversation last used, when they are known and can still be used.
func (s *Session) restoreModel(l Loaded) {
	if l.Provider != "" && l.ModelID != "" && s.cfg.FindModel != nil {
		cur := s.currentModel()
		if cur.Provider != l.Provider || cur.ID != l.ModelID {
			if m, err := s.cfg.FindModel(l.Provider, l.ModelID); err == nil {
				// A model that cannot be used any more is not fatal: the
				// conversation goes on with the current one.
				_ = s.SetModel(m)
			}
		}
	}
	if l.Thinking != "" {
		level := ClampThinking(s.currentModel(), l.Thinking)
		if level != s.State().Thinking {
			_ = s.SetThinkingLevel(level)
		}
	}
}

// previewText is a message's text on one line, or what it did when it has
// none.
func previewText(m core.Message) string {
	var t string
	switch m := m.(type) {
	case *core.UserMessage:
		t = m.Text()
	case *core.AssistantMessage:
		t = m.Text()
		switch {
		case t == "" && len(m.ToolCalls()) > 0:
			t = "(calls " + m.ToolCalls()[0].Name + ")"
		case t == "" && m.StopReason == core.StopError:
			// A failed attempt (a retried 429, say) has nothing to show
			// but why it failed.
			t = "(failed: " + m.ErrorMessage + ")"
		}
	}
	return strings.TrimSpace(t)
}

// errNoEntry wraps a missing entry id.
func errNoEntry(id string, err error) error {
	return fmt.Errorf("no entry %s in this session: %w", id, err)
}
