package tui

import (
	"fmt"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/themes"
	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/keymap"
	"github.com/cairn-dev/cairn/tui/markdown"
)

// Model is the root Bubble Tea model: the transcript above, the prompt
// editor, the footer below, and at most one prompt or picker at a time.
// Update dispatches each message to a small handler; View composes the
// parts, drawing only what is on screen.
type Model struct {
	// ext is what extensions show: status, widgets, title.
	ext extUI
	// components are extensions' interactive components shown (extcustom.go).
	components []*extComponent
	opts       Options
	sess       *agent.Session
	keys       keymap.Map
	now        func() time.Time

	width, height int
	theme         *themes.Theme
	themeChosen   bool // set once a theme is fixed (option or background)
	st            *styles
	md            *markdown.Renderer
	// mdCache keeps renderers for recent widths, so a resize drag back and
	// forth does not redraw every answer at each width again.
	mdCache markdown.Cache

	tr     transcript
	ed     editor.Model
	foot   footer
	status status

	// The current answer and tool calls, by id.
	current *entry
	tools   map[string]*entry
	// Streaming tool calls by content index of the current answer.
	streamingCalls map[int]string

	busy      bool      // the agent is working
	switching bool      // a session change (switchTo) is under way
	busySince time.Time // when it started
	// aborting is set from an interrupt until the run settles; messages
	// sent meanwhile wait in afterAbort and go as a new prompt then (the
	// stopping run would otherwise keep them queued for a later prompt).
	aborting   bool
	afterAbort []heldPrompt
	queue      core.QueueUpdate
	// loaded is what cairn loaded at start-up, for the welcome screen.
	loaded []LoadedGroup
	// typed is what the person typed for the templates they ran.
	typed typedPrompts
	// todos is the model's checklist, drawn above the editor while it works.
	todos      todoList
	retry      *retryState // an automatic retry under way, if any
	compacting bool        // an automatic compaction is under way
	// draw is what extensions draw in cairn's places (extrender.go).
	draw extDrawings

	expandTools  bool
	showThinking bool
	// thinkingUsed is the thinking level last used with each model that
	// can think (by provider/id): a switch back to it restores that level
	// (see switchThinking).
	thinkingUsed map[string]core.ThinkingLevel

	approval *approvalPrompt // the pending tool approval, if any
	// lastTyped is when the last character went into the editor: an
	// approval that appears soon after leaves the keyboard there.
	lastTyped time.Time
	// waitingSince is when the pending approval started waiting for the
	// person; that wait does not count as the agent's working time.
	waitingSince time.Time
	dialog       *dialogPrompt // another pending question, if any
	picker       *picker       // an open picker, if any

	bash *bashRun // the running `!cmd`, if any

	// execProcess hands the terminal to a program (the external editor);
	// nil means tea.ExecProcess. Tests run the program directly.
	execProcess func(*exec.Cmd, tea.ExecCallback) tea.Cmd

	frames   frameClock   // when the screen is drawn again
	welcome  welcomeCache // the empty transcript's text, drawn
	rules    ruleCache    // the editor's rules, drawn
	working  workingLine  // the working line, drawn
	lastSpin time.Time

	// mcpVersion is the MCP servers' version the command list was made
	// at, and mcpReady the ready servers whose resources @ offers (see
	// syncMCP).
	mcpVersion uint64
	// mcpWatching: a command waits for the MCP servers' next change
	// (while some are starting; see syncMCP).
	mcpWatching bool
	mcpReady    string

	// unfocused is set while the terminal reports it has lost the focus:
	// then a finished run or a waiting question alerts (see alert).
	unfocused bool

	quitArmed time.Time // when ctrl+c was pressed on an empty editor
	escArmed  time.Time // when esc was pressed on an empty, idle editor
	firstRun  *FirstRun
	quitting  bool
	// startMode is the approval mode the session started in, which
	// decides the modes shift+tab cycles through (modecycle.go).
	startMode approval.Mode
}

// eventsMsg carries session events, in order, to Update.
type eventsMsg []core.Event

// tickMsg is the frame tick: the next frame of a stream or an animation.
type tickMsg struct{}

// New builds the model for opts.
func New(opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if len(opts.Keys.Keys(keymap.Submit)) == 0 {
		opts.Keys = keymap.Defaults()
	}
	if opts.ApprovalGuard == 0 {
		opts.ApprovalGuard = 300 * time.Millisecond
	}
	m := &Model{
		opts:           opts,
		sess:           opts.Session,
		keys:           opts.Keys,
		now:            opts.Now,
		width:          80,
		height:         24,
		tr:             newTranscript(),
		frames:         frameClock{interval: frameInterval},
		tools:          map[string]*entry{},
		streamingCalls: map[int]string{},
		firstRun:       opts.FirstRun,
	}
	m.ed = newEditor(opts, m.commandList())
	m.thinkingUsed = map[string]core.ThinkingLevel{}
	m.noteThinking()
	if opts.Theme != nil {
		m.setTheme(opts.Theme)
		m.themeChosen = true
	} else {
		m.setTheme(themes.Dark())
	}
	m.foot = newFooter(opts)
	if opts.Approvals != nil {
		m.startMode = opts.Approvals.Mode()
	}
	m.loadHistory()
	if opts.FirstRun != nil {
		m.tr.add(&firstRunItem{fr: opts.FirstRun})
	}
	for _, n := range opts.Notices {
		m.tr.add(&noticeItem{level: core.NotifyWarning, text: n})
	}
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.ed.Init(), m.loadLoaded()}
	if m.opts.OpenResume {
		cmds = append(cmds, m.cmdResume(""))
	}
	if !m.themeChosen {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if ch := m.opts.Shutdown; ch != nil {
		cmds = append(cmds, func() tea.Msg {
			<-ch
			return shutdownMsg{}
		})
	}
	return tea.Batch(cmds...)
}

// Update implements tea.Model. It routes each message to its handler,
// tells the frame clock what changed, and keeps the frame tick going while
// something runs or a streamed change waits to be drawn.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.route(msg)
	m.syncFocus()
	if list := m.syncMCP(); list != nil {
		cmd = tea.Batch(cmd, list)
	}
	if ask := m.askDrawings(); ask != nil {
		cmd = tea.Batch(cmd, ask)
	}
	if streamed(msg) {
		m.frames.streamed(m.now())
	} else {
		m.frames.changed()
	}
	if m.quitting {
		return m, cmd
	}
	if tick := m.ensureTick(); tick != nil {
		cmd = tea.Batch(cmd, tick)
	}
	return m, cmd
}

// streamed reports messages that only move a stream along (deltas of an
// answer, a tool's output, a shell command's screen): they are drawn on
// the next frame, not at once.
func streamed(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case eventsMsg:
		return onlyDeltas(msg)
	case bashUpdateMsg:
		return true
	}
	return false
}

func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loadedMsg:
		m.loaded, m.welcome = msg.groups, welcomeCache{}
		return nil
	case drawnMsg:
		m.onDrawn(msg)
		return nil
	case processOutputMsg:
		return m.onProcessOutput(msg)
	case switchedMsg:
		return m.onSwitched(msg)
	case shutdownMsg:
		return m.quit()
	case mcpChangedMsg:
		m.mcpWatching = false // syncMCP, after route, reads the change
	case tea.WindowSizeMsg:
		return m.resize(msg.Width, msg.Height)
	case tea.FocusMsg:
		m.onFocus(true)
		return nil
	case tea.BlurMsg:
		m.onFocus(false)
		return nil
	case tea.BackgroundColorMsg:
		if !m.themeChosen {
			m.themeChosen = true
			if !msg.IsDark() {
				m.setTheme(themes.Light())
			}
		}
		return nil
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		return m.onPaste(msg)
	case tea.MouseWheelMsg:
		return m.onWheel(msg)
	case eventsMsg:
		return m.onEvents(msg)
	case tickMsg:
		return m.onTick()
	case bashUpdateMsg:
		return m.onBashUpdate(msg)
	case bashDoneMsg:
		return m.onBashDone(msg)
	case commandDoneMsg:
		return m.onCommandDone(msg)
	case loginNoticeMsg:
		return m.onLoginNotice(msg)
	case processesMsg:
		return m.onProcesses()
	case transcriptMsg:
		return m.onTranscript(msg)
	case pickedMsg:
		return m.onPicked(msg)
	case interactiveDoneMsg:
		if msg.err != nil {
			m.say(core.NotifyWarning, fmt.Sprintf("%s: %v", msg.command, msg.err))
		}
		return nil
	case imageAttachedMsg:
		return m.onImageAttached(msg)
	case editor.ImageRefMsg:
		return m.onImageRef(msg)
	case imageRefsMsg:
		return m.onImageRefs(msg)
	case mcpPromptMsg:
		return m.onMCPPrompt(msg)
	case mcpResourcesMsg:
		m.ed.SetMentions(msg.mentions)
		return nil
	case externalFileMsg:
		return m.onExternalFile(msg)
	case externalEditedMsg:
		return m.onExternalEdited(msg)
	case editor.WarningMsg:
		m.status.set(core.NotifyWarning, msg.Err.Error(), m.now())
		return nil
	}
	return m.updateEditor(msg)
}

// updateEditor passes msg to the editor and handles what it submits.
func (m *Model) updateEditor(msg tea.Msg) tea.Cmd {
	if sub, ok := msg.(editor.SubmitMsg); ok {
		return m.onSubmit(sub)
	}
	var cmd tea.Cmd
	m.ed, cmd = m.ed.Update(msg)
	return cmd
}

// resize lays the screen out for a new terminal size.
func (m *Model) resize(w, h int) tea.Cmd {
	if w == m.width && h == m.height {
		return nil
	}
	m.width, m.height = w, h
	m.md = m.mdCache.Get(palette(m.theme.ForProfile(m.opts.ColorProfile)), max(w-2, 10))
	m.ed.SetWidth(max(w-4, 10))
	m.tr.invalidate()
	if m.bash != nil {
		m.bash.resize(w, h)
	}
	m.resizeComponents()
	return nil
}

// setTheme switches every style to t.
func (m *Model) setTheme(t *themes.Theme) {
	m.theme = t
	// Drawn in the theme's rendering for the terminal's colours.
	t = t.ForProfile(m.opts.ColorProfile)
	m.st = newStyles(t, firstKey(m.keys, keymap.ExpandTools))
	m.md = m.mdCache.Get(palette(t), max(m.width-2, 10))
	m.ed.SetStyles(m.st.editor)
	m.tr.invalidate()
}

// editorHasFocus reports whether keys go to the editor rather than to a
// prompt: only one of them shows a cursor.
func (m *Model) editorHasFocus() bool {
	switch {
	case m.dialog != nil && m.dialog.input != nil:
		return false
	case m.approval != nil && m.approval.focused:
		return false
	}
	return true
}

// syncFocus shows the editor's cursor only while keys go to it.
func (m *Model) syncFocus() {
	if want := m.editorHasFocus(); want != m.ed.Focused() {
		if want {
			m.ed.Focus()
		} else {
			m.ed.Blur()
		}
	}
}

// ensureTick schedules the next frame tick when something moves on screen
// or a streamed change waits, and none is scheduled yet.
func (m *Model) ensureTick() tea.Cmd {
	if m.frames.ticking || !(m.animating() || m.frames.pending) {
		return nil
	}
	wait := m.frames.wait(m.now())
	m.frames.ticking, m.frames.due = true, m.now().Add(wait)
	return tea.Tick(wait, func(time.Time) tea.Msg { return tickMsg{} })
}

// animating reports whether anything on screen moves.
func (m *Model) animating() bool {
	return m.busy || m.bash != nil || m.runningTools() > 0
}

// onTick advances spinners and the elapsed times of running tools; the
// frame it ends with draws whatever streamed in since the last one.
func (m *Model) onTick() tea.Cmd {
	m.frames.ticking = false
	now := m.now()
	if now.Sub(m.lastSpin) >= 100*time.Millisecond {
		m.lastSpin = now
		for _, e := range m.tools {
			if t := e.it.(*toolItem); t.running() {
				e.touch()
			}
		}
		if m.bash != nil {
			// A silent command still shows its time and spinner moving.
			m.bash.entry.touch()
		}
	}
	return nil
}

// spinnerFrames animate anything that runs, one frame per 100 ms.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinner is the current spinner frame, taken from the clock so that
// every spinner on screen agrees.
func (m *Model) spinner() string {
	return spinnerFrames[(m.now().UnixMilli()/100)%int64(len(spinnerFrames))]
}

// notify shows a notice in the status line; errors and warnings also stay
// in the transcript.
func (m *Model) notify(level core.NotifyLevel, text string) {
	m.status.set(level, text, m.now())
	if level != core.NotifyInfo {
		m.tr.add(&noticeItem{level: level, text: text})
	}
}

// say adds a line from cairn to the transcript.
func (m *Model) say(level core.NotifyLevel, text string) {
	m.tr.add(&noticeItem{level: level, text: text})
}
