package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/bashmode"
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/tui/keymap"
	"github.com/cairn-dev/cairn/tui/toolview"
)

// bashRun is the `!cmd` running now.
type bashRun struct {
	run     *bashmode.Run
	entry   *entry
	item    *bashItem
	exclude bool
	gen     agent.Generation // the conversation the command ran in
	// escAt is when the stop key was last pressed, if the key after it has
	// not come yet: a second press soon after stops the command.
	escAt time.Time
}

// bashStopWindow is how soon a second esc must follow the first to stop a
// running command; a single esc goes to the command.
const bashStopWindow = 800 * time.Millisecond

func (b *bashRun) resize(w, h int) { _ = b.run.Resize(max(w-4, 20), max(h-8, 5)) }

// bashUpdateMsg says the running command printed something.
type bashUpdateMsg struct{ run *bashmode.Run }

// bashDoneMsg says the running command ended.
type bashDoneMsg struct {
	run     *bashmode.Run
	denials []toolview.SandboxDenial // what the sandbox refused it
}

// interactiveDoneMsg says a full-screen program gave the terminal back.
type interactiveDoneMsg struct {
	command string
	err     error
}

// bashPreviewLines is how much of a command's output shows collapsed.
const bashPreviewLines = 20

// startBash runs `!cmd` (or `!!cmd`, kept out of the model's context) in a
// PTY, streaming its screen into the transcript.
func (m *Model) startBash(text string) tea.Cmd {
	exclude := strings.HasPrefix(text, "!!")
	command := strings.TrimSpace(strings.TrimLeft(text, "!"))
	if command == "" {
		return nil
	}
	if m.bash != nil {
		m.status.set(core.NotifyWarning, "A command is already running. Press esc twice or ctrl+c to stop it first.", m.now())
		m.ed.SetValue(text)
		return nil
	}
	opts := bashmode.Options{Dir: m.opts.Cwd, Shell: m.opts.Shell, Sandbox: m.opts.Sandbox, BaseEnv: m.opts.ShellEnv, Cols: max(m.width-4, 20), Rows: max(m.height-8, 5)}
	if bashmode.Interactive(command) && m.opts.Attached {
		m.say(core.NotifyWarning, "$ "+command+" needs the whole screen, which only the terminal that owns the session can give it; run it there.")
		return nil
	}
	if bashmode.Interactive(command) {
		m.say(core.NotifyInfo, "$ "+command+"  (full screen)")
		c := m.onTerminal(bashmode.Command(command, opts))
		return tea.ExecProcess(c, func(err error) tea.Msg { return interactiveDoneMsg{command: command, err: err} })
	}
	run, err := bashmode.Start(context.Background(), command, opts)
	if err != nil {
		m.say(core.NotifyError, fmt.Sprintf("Could not run %s: %v", command, err))
		return nil
	}
	stop := firstKey(m.keys, keymap.Interrupt)
	it := &bashItem{command: command, exclude: exclude, started: m.now(),
		hint: "keys go to the command · " + stop + " " + stop + " or ctrl+c stops it"}
	m.bash = &bashRun{run: run, item: it, entry: m.tr.add(it), exclude: exclude, gen: m.sess.Generation()}
	m.tr.end()
	return tea.Batch(waitBashUpdate(run), waitBashDone(run, m.opts.Sandbox, m.opts.Cwd))
}

func waitBashUpdate(run *bashmode.Run) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-run.Updates():
			return bashUpdateMsg{run: run}
		case <-run.Done():
			return nil
		}
	}
}

// waitBashDone reports the end of run; a sandboxed command that failed
// comes with what the sandbox refused it, read here, off the UI loop
// (naming a path resolves its links).
func waitBashDone(run *bashmode.Run, policy *sandbox.Policy, cwd string) tea.Cmd {
	return func() tea.Msg {
		<-run.Done()
		msg := bashDoneMsg{run: run}
		if res := run.Result(); policy != nil && res.ExitCode != nil && *res.ExitCode != 0 {
			home, _ := os.UserHomeDir()
			msg.denials = toolview.SandboxDenials(policy.Explain(res.Output, cwd, home))
		}
		return msg
	}
}

// onBashKey gives a key to the running command, as its terminal would:
// ctrl+c stops it, and so does the stop key (esc) pressed twice in a row
// within bashStopWindow.
func (m *Model) onBashKey(k tea.KeyPressMsg) tea.Cmd {
	b := m.bash
	switch {
	case k.String() == "ctrl+c" || m.is(k, keymap.Clear):
		b.run.Cancel()
		return nil
	case k.Code == tea.KeyEscape && k.Mod == tea.ModAlt:
		// Two escapes read in one go decode as alt+esc.
		b.run.Cancel()
		return nil
	case m.is(k, keymap.Interrupt):
		if !b.escAt.IsZero() && m.now().Sub(b.escAt) < bashStopWindow {
			b.run.Cancel()
			return nil
		}
		b.escAt = m.now()
	default:
		b.escAt = time.Time{}
	}
	m.sendToBash(b.run.Send(keyBytes(k, b.run.Modes())))
	return nil
}

// sendToBash reports input the running command could not take.
func (m *Model) sendToBash(err error) {
	if errors.Is(err, bashmode.ErrInputFull) {
		m.status.set(core.NotifyWarning, "The command is not reading its input; what you type is dropped.", m.now())
	}
}

func (m *Model) onBashUpdate(msg bashUpdateMsg) tea.Cmd {
	if m.bash == nil || m.bash.run != msg.run {
		return nil
	}
	m.bash.item.screen = msg.run.Snapshot()
	m.bash.entry.touch()
	return waitBashUpdate(msg.run)
}

// onBashDone records the command's result: in the transcript at once, and
// in the conversation when the session is idle (else when it settles).
func (m *Model) onBashDone(msg bashDoneMsg) tea.Cmd {
	if m.bash == nil || m.bash.run != msg.run {
		return nil
	}
	b := m.bash
	m.bash = nil
	res := msg.run.Result()
	b.item.screen = msg.run.Snapshot()
	b.item.result = &res
	b.item.elapsed = m.now().Sub(b.item.started)
	// A bare "Permission denied" says nothing of the sandbox: the item
	// says what it refused and what would allow it.
	b.item.denials = msg.denials
	b.entry.touch()
	// The session adds it now, or when the agent settles if it is busy.
	m.sess.AddBashExecution(res.Message(b.item.command, b.exclude, m.now()), b.gen)
	return nil
}

// bashItem shows a `!cmd` run: the command, its live screen and its exit.
type bashItem struct {
	command string
	exclude bool
	started time.Time
	hint    string // what keys do while it runs
	elapsed time.Duration
	screen  bashmode.Screen
	result  *bashmode.Result
	// message is set for runs loaded from the session.
	message *core.BashExecutionMessage
	// denials are what the sandbox refused the command, read from its
	// output when it failed.
	denials []toolview.SandboxDenial
}

func finishedBashItem(msg *core.BashExecutionMessage) *bashItem {
	return &bashItem{command: msg.Command, exclude: msg.ExcludeFromContext, message: msg}
}

func (b *bashItem) render(rc *renderContext) string {
	w := rc.contentWidth()
	prompt := rc.st.bash.Render("!")
	if b.exclude {
		prompt = rc.st.bash.Render("!!")
	}
	head := prompt + " " + rc.st.text.Bold(true).Render(ansi.Truncate(b.command, w-4, "…"))
	var lines []string
	var status string
	switch {
	case b.message != nil:
		lines = strings.Split(strings.TrimRight(b.message.Output, "\n"), "\n")
		status = exitText(rc, b.message.ExitCode, b.message.Cancelled)
	default:
		lines = b.screen.Lines
		if b.result != nil {
			status = exitText(rc, b.result.ExitCode, b.result.Cancelled)
		} else {
			status = rc.st.muted.Render(ansi.Truncate(rc.spinner+" running "+formatElapsed(rc.now.Sub(b.started))+" · "+b.hint, w, "…"))
		}
	}
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	hidden := 0
	if !rc.expandTools && len(lines) > bashPreviewLines {
		hidden = len(lines) - bashPreviewLines
		lines = lines[hidden:]
	}
	var out []string
	out = append(out, head)
	if hidden > 0 {
		out = append(out, rc.st.dim.Render(fmt.Sprintf("… %d earlier lines (%s to expand)", hidden, rc.expandHint)))
	}
	for _, l := range lines {
		out = append(out, ansi.Truncate(strings.ReplaceAll(l, "\t", "    "), w, "…"))
	}
	for _, d := range b.denials {
		out = append(out, rc.st.warning.Render(lipgloss.Wrap("⊘ sandbox blocked "+d.What, w, " ")))
		for _, l := range strings.Split(lipgloss.Wrap(d.Allow, w-2, " "), "\n") {
			out = append(out, "  "+rc.st.muted.Render(l))
		}
	}
	if b.exclude {
		status += rc.st.dim.Render(" · not sent to the model")
	}
	out = append(out, status)
	return indent(strings.Join(out, "\n"))
}

func exitText(rc *renderContext, code *int, cancelled bool) string {
	switch {
	case cancelled:
		return rc.st.warning.Render("stopped")
	case code == nil:
		return rc.st.muted.Render("done")
	case *code == 0:
		return rc.st.success.Render("exit 0")
	}
	return rc.st.errorText.Render(fmt.Sprintf("exit %d", *code))
}

// formatElapsed shows a duration the way a person reads it: 4.2s, 1m05s.
func formatElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
