package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// View implements tea.Model: transcript, then whatever sits above the
// editor (work indicator, queue, prompt or picker), the editor, the status
// line and the footer. Bubble Tea calls it after every Update; the frame
// clock redraws only when something changed and a frame is due, and
// otherwise returns the last frame.
func (m *Model) View() tea.View {
	return m.frames.frame(m.now(), m.drawView)
}

// drawView draws a new frame.
func (m *Model) drawView() tea.View {
	// Backgrounds are written out, never left to the terminal's erase
	// (see solidBackgrounds).
	content := solidBackgrounds(m.overlayComponents(m.render()))
	if s := m.frames.screen; s != nil {
		// cairn draws the frame; Bubble Tea keeps a blank one.
		s.draw(content, m.width, m.height)
		content = blankFrame
	}
	v := tea.NewView(content)
	v.AltScreen = true
	if !m.opts.NoMouse {
		// The wheel scrolls the transcript; selecting text then takes
		// shift (see Options.NoMouse).
		v.MouseMode = tea.MouseModeCellMotion
	}
	// Focus reports tell when the person is elsewhere, so a finished run
	// or a waiting question can alert them.
	v.ReportFocus = m.opts.Alert != AlertOff
	v.WindowTitle = m.windowTitle()
	return v
}

func (m *Model) windowTitle() string {
	if m.ext.title != "" {
		return m.ext.title
	}
	return "cairn — " + filepath.Base(m.opts.Cwd)
}

// render draws the whole screen as text.
func (m *Model) render() string {
	if m.quitting {
		return ""
	}
	bottom := m.bottomView()
	h := max(m.height-strings.Count(bottom, "\n")-1, 1)
	rc := m.renderContext()
	follow := m.tr.follow
	if len(m.tr.entries) == 0 {
		return strings.Join(m.welcomeView(h), "\n") + "\n" + bottom
	}
	lines := m.tr.view(rc, h)
	if m.tr.follow != follow {
		// The view reached the bottom: the scrolled-back marker goes.
		bottom = m.bottomView()
		h = max(m.height-strings.Count(bottom, "\n")-1, 1)
		lines = m.tr.view(rc, h)
	}
	return strings.Join(lines, "\n") + "\n" + bottom
}

// welcomeView fills an empty transcript's h lines: what cairn is running
// with and where to start, at the bottom, next to the editor.
func (m *Model) welcomeView(h int) []string {
	w := max(m.width-4, 10)
	st := m.sess.State()
	about := st.Model.Provider + "/" + st.Model.ID
	if st.Model.Reasoning {
		about += " · thinking " + string(st.Thinking)
	}
	about += " · " + shortenHome(m.foot.cwd)
	if c := &m.welcome; c.st == m.st && c.w == w && c.h == h && c.about == about {
		return c.lines // typing on the welcome screen redraws nothing of it
	}
	text := []string{
		m.st.accent.Bold(true).Render("cairn") + m.st.muted.Render(" "+m.opts.Version),
		m.st.muted.Render(ansi.Truncate(about, w, "…")),
		"",
	}
	if loaded := m.loadedLines(w); len(loaded) > 0 {
		text = append(append(text, loaded...), "")
	}
	intro := "Ask anything below. /help lists the commands and /hotkeys the keys; !cmd runs a shell command, @ names a file, esc interrupts."
	for _, l := range strings.Split(lipgloss.Wrap(intro, w, " "), "\n") {
		text = append(text, m.st.dim.Render(l))
	}
	// The way into plan mode, where a person looks first.
	plan := firstKey(m.keys, keymap.CycleApprovalMode) + " switches the mode: default, auto_edit, plan (the model plans before it changes anything)."
	for _, l := range strings.Split(lipgloss.Wrap(plan, w, " "), "\n") {
		text = append(text, m.st.dim.Render(l))
	}
	out := make([]string, 0, h)
	for i := len(text) + 1; i < h; i++ {
		out = append(out, "")
	}
	for _, l := range text {
		out = append(out, "  "+l)
	}
	out = append(out, "")
	if len(out) > h {
		out = out[len(out)-h:]
	}
	m.welcome = welcomeCache{st: m.st, w: w, h: h, about: about, lines: out}
	return out
}

// welcomeCache is the last drawing of the welcome text and what it was
// drawn from.
type welcomeCache struct {
	st    *styles
	w, h  int
	about string
	lines []string
}

// transcriptHeight is how many lines the transcript gets now.
func (m *Model) transcriptHeight() int {
	return max(m.height-strings.Count(m.bottomView(), "\n")-1, 1)
}

func (m *Model) renderContext() *renderContext {
	return &renderContext{
		width:         m.width,
		height:        m.height,
		gen:           m.tr.gen,
		st:            m.st,
		md:            m.md,
		expandTools:   m.expandTools,
		showThinking:  m.showThinking,
		thinkingLabel: m.thinkingLabel(),
		now:           m.now(),
		spinner:       m.spinner(),
		expandHint:    firstKey(m.keys, keymap.ExpandTools),
		modeHint:      firstKey(m.keys, keymap.CycleApprovalMode),
	}
}

// bottomView is everything under the transcript.
func (m *Model) bottomView() string {
	w := m.width
	var parts []string
	if !m.tr.follow {
		parts = append(parts, m.scrolledView(w))
	}
	if q := m.queueView(w); q != "" {
		parts = append(parts, q)
	}
	if m.busy {
		if t := m.todos.view(m.st, w); t != "" {
			parts = append(parts, t)
		}
		if !m.draw.working.hidden {
			parts = append(parts, m.workingView(w))
		}
	}
	prompt := len(parts)
	switch {
	case m.approval != nil:
		parts = append(parts, "") // drawn last, in the room the rest leaves
	case m.dialog != nil:
		parts = append(parts, m.dialogView())
	case m.picker != nil:
		parts = append(parts, m.picker.view(m))
	}
	if v := m.extWidgetsView(w, false); v != "" {
		parts = append(parts, v)
	}
	if v, ok := m.inlineComponentView(w); ok {
		// An extension's component takes the editor's place, as in pi.
		parts = append(parts, v)
	} else {
		parts = append(parts, m.editorView(w))
	}
	if v := m.extWidgetsView(w, true); v != "" {
		parts = append(parts, v)
	}
	parts = append(parts, m.statusView(w))
	if v := m.extStatusView(w); v != "" {
		parts = append(parts, v)
	}
	parts = append(parts, m.footerOrExtension(w))
	if m.approval != nil {
		// The prompt gets every row but the rest of the bottom and one
		// line of transcript: a long command shows whole or scrolls,
		// never runs off the screen.
		used := 1
		for i, p := range parts {
			if i != prompt {
				used += strings.Count(p, "\n") + 1
			}
		}
		parts[prompt] = m.approvalView(max(m.height-used, 3))
	}
	return strings.Join(parts, "\n")
}

// workingView is the line that says the agent is at work.
func (m *Model) workingView(w int) string {
	elapsed := formatElapsed(m.now().Sub(m.busySince))
	hint := firstKey(m.keys, keymap.Interrupt) + " to interrupt"
	state := m.agentState()
	detail := elapsed
	if m.approval != nil || m.dialog != nil {
		// The agent is not working: it waits for the person, and the
		// working time stands still meanwhile.
		switch {
		case m.dialog != nil:
			hint = "esc dismisses"
		case !m.approval.focused:
			hint = approvalSwitchKey + " to answer · esc interrupts"
		default:
			hint = "esc denies"
		}
		text := m.st.warning.Render("◆ Waiting for you") + m.st.muted.Render(" "+formatElapsed(m.now().Sub(m.waitingSince))+" · "+hint)
		return " " + ansi.Truncate(text, w-1, "…")
	}
	if m.retry != nil {
		state = m.retry.text(m.now())
		detail = oneLine(m.retry.err, 60)
	}
	return m.working.line(m.st, w, m.workingState(state), " "+detail+" · "+hint)
}

// workingLine is the working line's last drawing and what it was drawn
// from: streamed frames come faster than its spinner and clock change.
type workingLine struct {
	st          *styles
	w           int
	state, rest string
	text        string
}

// line draws the working line at width w: state in the accent colour,
// then rest, muted.
func (c *workingLine) line(st *styles, w int, state, rest string) string {
	if c.st != st || c.w != w || c.state != state || c.rest != rest {
		text := st.accent.Render(state) + st.muted.Render(rest)
		*c = workingLine{st: st, w: w, state: state, rest: rest, text: " " + ansi.Truncate(text, w-1, "…")}
	}
	return c.text
}

// scrolledView is the marker shown while the transcript is scrolled back:
// it says so and names the key that jumps back to the bottom.
func (m *Model) scrolledView(w int) string {
	text := "↓ scrolled back · " + firstKey(m.keys, keymap.ScrollBottom) + " jumps to the bottom and follows"
	return " " + m.st.warning.Render(ansi.Truncate(text, w-1, "…"))
}

// agentState names what the agent is doing, for the working line:
// thinking, writing, running tools, compacting, or just working.
func (m *Model) agentState() string {
	if n := m.runningTools(); n == 1 {
		return "Working: running a tool…"
	} else if n > 1 {
		return fmt.Sprintf("Working: running %d tools…", n)
	}
	if m.compacting {
		return "Working: compacting…"
	}
	if m.current != nil {
		if a, ok := m.current.it.(*assistantItem); ok && len(a.msg.Content) > 0 {
			switch a.msg.Content[len(a.msg.Content)-1].Type {
			case core.ContentThinking:
				return "Working: thinking…"
			case core.ContentText:
				return "Working: writing…"
			}
		}
	}
	return "Working…"
}

// queueView lists messages waiting to be delivered.
func (m *Model) queueView(w int) string {
	var lines []string
	for _, s := range m.queue.Steering {
		lines = append(lines, m.st.muted.Render(" ↳ steer: ")+oneLine(s, w-11))
	}
	for _, s := range m.queue.FollowUp {
		lines = append(lines, m.st.muted.Render(" ↳ follow-up: ")+oneLine(s, w-15))
	}
	if len(lines) > 0 {
		lines = append(lines, m.st.dim.Render(" "+firstKey(m.keys, keymap.Dequeue)+" takes them back into the editor"))
	}
	return strings.Join(lines, "\n")
}

func oneLine(s string, w int) string {
	return ansi.Truncate(strings.Join(strings.Fields(s), " "), max(w, 1), "…")
}

// editorView frames the editor between two rules whose colour tells the
// mode: the thinking level, or bash mode.
func (m *Model) editorView(w int) string {
	rule, kind := m.st.border, "border"
	if m.ed.Mode() == editor.ModeBash {
		rule, kind = m.st.bash, "bash"
	} else if m.foot.model.Reasoning {
		rule, kind = m.st.thinkingLevel(m.foot.thinking), "thinking "+string(m.foot.thinking)
	}
	line := m.rules.rule(m.st, kind, rule, "", w)
	if m.ed.Mode() == editor.ModeBash {
		return m.rules.rule(m.st, kind, rule, "── shell ", w) + "\n" + m.ed.View() + "\n" + line
	}
	return line + "\n" + m.ed.View() + "\n" + line
}

func (m *Model) statusView(w int) string {
	text, level := m.status.line(m.now())
	if text == "" {
		return ""
	}
	st := m.st.muted
	switch level {
	case core.NotifyError:
		st = m.st.errorText
	case core.NotifyWarning:
		st = m.st.warning
	}
	// A note wraps rather than losing its end at the screen's edge; a
	// few lines at most, so it never pushes the editor away.
	lines := wrapText(text, max(w-1, 1))
	if len(lines) > statusLines {
		lines = lines[:statusLines]
		lines[statusLines-1] = ansi.Truncate(lines[statusLines-1]+" …", w-1, "…")
	}
	for i, l := range lines {
		lines[i] = " " + st.Render(l)
	}
	return strings.Join(lines, "\n")
}

// statusLines is the most lines a status note takes.
const statusLines = 3

// firstRunItem explains what cairn needs before it can answer.
type firstRunItem struct{ fr *FirstRun }

func (f *firstRunItem) render(rc *renderContext) string {
	full := f.text(rc, false)
	// Under the editor and footer, about 7 rows are taken; on a short
	// terminal the text drops its blank lines rather than its start.
	if rc.height > 0 && strings.Count(full, "\n")+2 > rc.height-7 {
		return f.text(rc, true)
	}
	return full
}

// text draws the first-run explanation; compact leaves out the greeting
// and the blank lines.
func (f *firstRunItem) text(rc *renderContext, compact bool) string {
	var b strings.Builder
	gap := "\n\n"
	if compact {
		gap = "\n"
	} else {
		b.WriteString(rc.st.accent.Bold(true).Render("Welcome to cairn.") + gap)
	}
	b.WriteString(rc.st.warning.Render("No model is set up: cairn found no credentials.") + gap)
	for _, l := range reflow(f.fr.Lines) {
		if l == "" && compact {
			continue
		}
		b.WriteString(lipgloss.Wrap(l, rc.contentWidth(), " ,") + "\n")
	}
	if !compact {
		b.WriteString("\n")
	}
	b.WriteString(rc.st.muted.Render("Meanwhile, !cmd runs shell commands and /help lists the commands."))
	return indent(b.String())
}

// reflow joins lines of running text that were broken by hand, so they
// wrap to the screen's width instead; blank and indented lines (examples)
// stay as they are.
func reflow(lines []string) []string {
	var out []string
	joinable := false
	for _, l := range lines {
		text := l != "" && !strings.HasPrefix(l, " ")
		if text && joinable {
			out[len(out)-1] += " " + l
			continue
		}
		out = append(out, l)
		joinable = text
	}
	return out
}
