package editor

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/mattn/go-runewidth"
)

// SubmitMsg is what the editor sends when the person submits the input.
// Text is the input with every paste marker replaced by its paste and
// every image marker by its label. Images are the images attached, in the
// order their markers stood. FollowUp is set when it was sent with the
// FollowUp key, asking for the message to wait until the agent has
// finished rather than steer the current run.
type SubmitMsg struct {
	Text     string
	Images   []Image
	FollowUp bool
}

// WarningMsg reports a problem the person should hear about but that does
// not stop the editor, such as a damaged history file. The parent shows
// Err in its status line.
type WarningMsg struct {
	Err error
}

// InternalMsg carries the result of the editor's background work (history
// loaded, files listed, fuzzy matches found) back to the editor. The
// parent passes it to Update unchanged.
type InternalMsg struct {
	payload any
}

// Command is an entry for `/` completion: Name without the slash, and a
// one-line Description shown next to it.
type Command struct {
	Name        string
	Description string
}

// Mode tells how the input will be understood.
type Mode int

const (
	// ModeNormal is a prompt for the agent.
	ModeNormal Mode = iota
	// ModeBash is a shell command: the input starts with "!".
	ModeBash
)

// Default limits used when Options leaves them at zero.
const (
	DefaultMaxHeight    = 10
	DefaultHistoryLimit = 1000
	DefaultMaxFiles     = 50000
)

// Options configure a new editor.
type Options struct {
	// Cwd is the directory whose files `@` completes. Empty turns file
	// completion off.
	Cwd string
	// UseGit lists Cwd's files for `@` with git when Cwd is in a work tree,
	// leaving out what .gitignore excludes. Set it only for a project the
	// person trusts: git obeys the repository's own configuration, which
	// can name programs it runs (core.fsmonitor). Unset, the files are
	// found by walking the tree.
	UseGit bool
	// HistoryFile is where prompt history persists, as JSON lines. Empty
	// keeps history in memory only.
	HistoryFile string
	// HistoryLimit caps the number of history entries; 0 means
	// DefaultHistoryLimit.
	HistoryLimit int
	// MaxFiles caps the file index for `@`; 0 means DefaultMaxFiles.
	MaxFiles int
	// MaxHeight is the most rows the input grows to before it scrolls; 0
	// means DefaultMaxHeight. The completion popup comes on top of it.
	MaxHeight int
	// Commands are offered after `/`.
	Commands []Command
	// Mentions are offered after `@` instead of files once the word holds
	// a colon (MCP resources, as server:uri).
	Mentions []Command
	// Keys are the key bindings; a zero Keys means DefaultKeys().
	Keys Keys
	// Placeholder is shown, dimmed, while the input is empty.
	Placeholder string
	// Prompt starts the first row; the rows below are indented to match.
	// Empty means "> ".
	Prompt string
	// AttachImages makes `@` completion of an image file send ImageRefMsg
	// instead of inserting the path.
	AttachImages bool
	// RealCursor leaves the cursor to the terminal: View draws none and
	// Cursor reports where it goes. By default View draws the cursor.
	RealCursor bool
}

// Model is the prompt editor. It is a handle: copies of a Model share one
// editor, so the value returned by Update and the one it was called on are
// interchangeable. Use New to make one; the zero Model is not usable.
type Model struct {
	s *state
}

// state is everything the editor holds.
type state struct {
	opts    Options
	keys    keyTable
	styles  Styles
	paint   painters
	buf     *buffer
	pastes  pastes
	hist    history
	journal *journal
	files   fileIndex
	comp    completion
	focused bool
	width   int
	// top is the first visual row shown when the input scrolls.
	top int
	// value caches Value for the buffer version valueVersion.
	value        string
	valueVersion int
	// view caches View until something it shows may have changed.
	view   string
	viewOK bool
}

// New returns a focused, empty editor. Call Init to load history and list
// files.
func New(opts Options) Model {
	if opts.HistoryLimit <= 0 {
		opts.HistoryLimit = DefaultHistoryLimit
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.MaxHeight <= 0 {
		opts.MaxHeight = DefaultMaxHeight
	}
	if opts.Prompt == "" {
		opts.Prompt = "> "
	}
	if len(opts.Keys.table()) == 0 {
		opts.Keys = DefaultKeys()
	}
	s := &state{opts: opts, keys: opts.Keys.table(), focused: true, valueVersion: -1}
	s.styles = DefaultStyles()
	s.paint = s.styles.painters()
	s.buf = newBuffer(s.pastes.cellWidth)
	s.hist.limit = opts.HistoryLimit
	if opts.HistoryFile != "" {
		s.journal = &journal{path: opts.HistoryFile, limit: opts.HistoryLimit}
	}
	s.files.cwd = opts.Cwd
	s.setWidth(80)
	return Model{s: s}
}

// Init returns the commands that load the history file and list the files
// under Cwd.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.s.journal != nil {
		cmds = append(cmds, m.s.journal.load)
	}
	cmds = append(cmds, m.RefreshFiles())
	return tea.Batch(cmds...)
}

// RefreshFiles returns a command that lists the files under Cwd again, for
// when the parent knows they changed. It returns nil when Cwd is empty.
func (m Model) RefreshFiles() tea.Cmd {
	if m.s.opts.Cwd == "" {
		return nil
	}
	m.s.files.generation++
	return indexFiles(m.s.opts.Cwd, m.s.opts.UseGit, m.s.opts.MaxFiles, m.s.files.generation)
}

// Update handles key presses, pastes and the editor's InternalMsg values.
// Keys and pastes are ignored while the editor is blurred.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	s := m.s
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !s.focused {
			return m, nil
		}
		s.viewOK = false
		return m, s.key(msg)
	case tea.PasteMsg:
		if !s.focused {
			return m, nil
		}
		s.viewOK = false
		return m, s.paste(msg.Content)
	case InternalMsg:
		s.viewOK = false
		return m, s.internal(msg.payload)
	}
	return m, nil
}

func (s *state) internal(payload any) tea.Cmd {
	switch p := payload.(type) {
	case historyLoaded:
		return s.historyLoaded(p)
	case filesIndexed:
		return s.filesIndexed(p)
	case fileMatches:
		s.fileMatches(p)
	}
	return nil
}

// Value returns the input with paste markers replaced by their pastes:
// exactly what Submit would send. It is computed once per edit.
func (m Model) Value() string {
	s := m.s
	if s.valueVersion != s.buf.version {
		s.value = s.buf.text(s.pastes.expand)
		s.valueVersion = s.buf.version
	}
	return s.value
}

// Empty reports whether the input holds nothing, without building Value.
func (m Model) Empty() bool { return m.s.buf.empty() }

// SetValue replaces the input with text, as typed (no paste markers), and
// puts the cursor at its end. It leaves history browsing.
func (m Model) SetValue(text string) {
	m.s.viewOK = false
	s := m.s
	s.clear()
	s.buf.setText(sanitize(text))
	s.changed()
}

// Reset empties the input, drops its pastes and leaves history browsing.
func (m Model) Reset() {
	m.s.viewOK = false
	m.s.clear()
	m.s.changed()
}

// InsertText inserts text at the cursor as if typed.
func (m Model) InsertText(text string) {
	m.s.viewOK = false
	m.s.buf.insert(sanitize(text))
	m.s.changed()
}

// Focus lets the editor take keys and pastes and shows its cursor.
func (m Model) Focus() tea.Cmd {
	m.s.viewOK = false
	m.s.focused = true
	return nil
}

// Blur makes the editor ignore keys and pastes and hides its cursor.
func (m Model) Blur() {
	m.s.viewOK = false
	m.s.focused = false
}

// Focused reports whether the editor takes keys.
func (m Model) Focused() bool { return m.s.focused }

// SetWidth sets the width, in cells, of every line View returns.
func (m Model) SetWidth(w int) { m.s.setWidth(w) }

func (s *state) setWidth(w int) {
	s.viewOK = false
	s.width = max(w, runewidth.StringWidth(s.opts.Prompt)+1)
	s.buf.setWidth(s.width - runewidth.StringWidth(s.opts.Prompt))
	s.scroll()
}

// Width returns the width set by SetWidth.
func (m Model) Width() int { return m.s.width }

// SetMaxHeight sets the most rows the input grows to before scrolling.
func (m Model) SetMaxHeight(rows int) {
	m.s.viewOK = false
	m.s.opts.MaxHeight = max(rows, 1)
	m.s.scroll()
}

// Height returns the number of lines View returns: the popup, if open,
// and the input rows.
func (m Model) Height() int { return m.s.popupHeight() + m.s.inputHeight() }

// SetPlaceholder sets the text shown while the input is empty.
func (m Model) SetPlaceholder(text string) {
	m.s.viewOK = false
	m.s.opts.Placeholder = text
}

// SetStyles sets the styles View draws with.
func (m Model) SetStyles(st Styles) {
	m.s.viewOK = false
	m.s.styles = st
	m.s.paint = st.painters()
}

// SetKeys replaces the key bindings.
func (m Model) SetKeys(k Keys) {
	m.s.opts.Keys = k
	m.s.keys = k.table()
}

// SetCommands replaces the commands offered after `/`.
func (m Model) SetCommands(cmds []Command) {
	m.s.viewOK = false
	m.s.opts.Commands = cmds
	m.s.comp.trig = trigger{}
	m.s.refresh()
}

// SetMentions replaces the mentions offered after `@` (see
// Options.Mentions).
func (m Model) SetMentions(ms []Command) {
	m.s.viewOK = false
	m.s.opts.Mentions = ms
	m.s.comp.trig = trigger{}
	m.s.refresh()
}

// CompletionOpen reports whether a completion popup is showing, in which
// case the CloseCompletion key (Esc) closes it and means nothing else.
func (m Model) CompletionOpen() bool { return m.s.comp.open() }

// Mode returns ModeBash when the input starts with "!", else ModeNormal.
func (m Model) Mode() Mode { return m.s.mode() }

func (s *state) mode() Mode {
	if s.buf.first() == '!' {
		return ModeBash
	}
	return ModeNormal
}

// BashCommand returns the shell command of a `!` input, trimmed of spaces.
// excludeFromContext is true for `!!`, whose output stays out of the
// model's context. ok is false when the input is not a command or the
// command is empty.
func (m Model) BashCommand() (cmd string, excludeFromContext bool, ok bool) {
	v := m.Value()
	if !strings.HasPrefix(v, "!") {
		return "", false, false
	}
	v, excludeFromContext = strings.CutPrefix(v[1:], "!")
	cmd = strings.TrimSpace(v)
	return cmd, excludeFromContext, cmd != ""
}

// Cursor returns where the terminal cursor goes, relative to the top left
// of View, when Options.RealCursor is set and the editor has focus. It
// returns nil otherwise.
func (m Model) Cursor() *tea.Cursor {
	s := m.s
	if !s.opts.RealCursor || !s.focused {
		return nil
	}
	x := runewidth.StringWidth(s.opts.Prompt) + s.buf.cursorX()
	return tea.NewCursor(x, s.popupHeight()+s.buf.cursorRow()-s.top)
}

// clear empties the input and its pastes and ends history browsing.
func (s *state) clear() {
	s.buf.setText(nil)
	s.pastes.reset()
	s.hist.stopBrowsing()
	s.comp.dismissed = trigger{}
}

// changed brings the derived state up to date after any edit or cursor
// move, and returns the command for a fuzzy match if one is due.
func (s *state) changed() tea.Cmd {
	s.scroll()
	return s.refresh()
}

// inputHeight is the number of input rows shown.
func (s *state) inputHeight() int {
	return min(max(s.buf.totalRows(), 1), s.opts.MaxHeight)
}

// scroll keeps the cursor's row in view.
func (s *state) scroll() {
	h := s.inputHeight()
	row := s.buf.cursorRow()
	if row < s.top {
		s.top = row
	}
	if row >= s.top+h {
		s.top = row - h + 1
	}
	s.top = max(min(s.top, s.buf.totalRows()-h), 0)
}
