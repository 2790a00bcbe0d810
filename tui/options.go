package tui

import (
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/themes"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// Options is everything the TUI works with. Session is required; the rest
// may be left empty, which turns the matching features off.
type Options struct {
	// Session is the conversation the TUI shows and drives.
	Session *agent.Session
	// UI is the bridge the session's questions arrive through (the one the
	// approval gate was built with); nil means a fresh one nobody asks.
	UI *UI
	// Approvals switches the approval mode (/mode, the footer shows it).
	Approvals *approval.Gate
	// Models lists the models /model offers.
	Models func() []core.Model
	// Sessions manages session files (/new, /resume, /fork, /tree, /name,
	// /export); nil means the session lives in memory only.
	Sessions Sessions
	// Theme is the theme to start with; nil picks dark or light from the
	// terminal's background.
	Theme *themes.Theme
	// Themes are the custom themes /theme offers besides the built-ins.
	Themes map[string]*themes.Theme
	// SaveTheme, when set, records the person's /theme choice.
	SaveTheme func(name string) error
	// Keys are the keybindings; a zero value means the defaults.
	Keys keymap.Map
	// Cwd is the working directory shown in the footer and used by `!cmd`
	// and @ completion.
	Cwd string
	// Dir is cairn's own directory (~/.cairn): prompt history lives there.
	Dir string
	// Shell runs `!cmd` ("" picks bash).
	Shell string
	// Templates are the prompt templates offered as slash commands.
	Templates []Template
	// FirstRun, when set, is shown instead of the transcript until a model
	// is available: no credentials were found.
	FirstRun *FirstRun
	// Notices are shown at the top of the transcript (warnings from
	// loading settings, a resumed session's damaged lines).
	Notices []string
	// Version is cairn's version, shown in the header.
	Version string
	// OpenResume opens the session picker at start (--resume).
	OpenResume bool
	// ApprovalGuard is how long after an approval prompt appears keys are
	// ignored, so a key typed for something else cannot answer it; zero
	// means 300 ms.
	ApprovalGuard time.Duration
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

// FirstRun explains what cairn needs before it can talk to a model.
type FirstRun struct {
	// Lines say where cairn looked for credentials and how to point it at
	// a local server.
	Lines []string
}

// Template is a prompt template: /Name expands to Body with the
// arguments substituted.
type Template struct {
	Name        string
	Description string
	Body        string
}

// Sessions manages the session files behind the conversation.
type Sessions interface {
	// Info names the current session.
	Info() SessionInfo
	// SetName names the current session.
	SetName(name string) error
	// New starts an empty session.
	New() (Conversation, error)
	// List returns the sessions of the working directory, newest first.
	List() ([]session.Info, error)
	// Open continues the session stored at path.
	Open(path string) (Conversation, error)
	// Fork starts a session holding the current one up to, not including,
	// the user message with entry id entryID, and returns that message's
	// text.
	Fork(entryID string) (string, Conversation, error)
	// Tree lists the entries of the current session for /tree.
	Tree() ([]TreeNode, error)
	// Branch continues the current session from entry id (a new branch
	// grows from it); the conversation is the path to it.
	Branch(entryID string) (Conversation, error)
}

// SessionInfo identifies the current session.
type SessionInfo struct {
	ID   string
	File string
	Name string
}

// Conversation is a conversation to continue after /new, /resume, /fork or
// /tree: its store, its messages with their entry ids, and the model and
// thinking level it last used (empty: keep the current ones).
type Conversation struct {
	Store    agent.Store
	Messages []core.Message
	EntryIDs []string
	Provider string
	ModelID  string
	Thinking core.ThinkingLevel
}

// TreeNode is one entry of the session tree.
type TreeNode struct {
	ID       string
	ParentID string
	// Role is the message role ("user", "assistant", ...) or the entry type.
	Role string
	// Text is the message's text (the tree shows its start).
	Text string
	// OnPath is set for the entries of the current branch.
	OnPath bool
}
