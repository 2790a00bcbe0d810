package tui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/editor"
)

// externalFileMsg says the draft was written to a file for the external
// editor, or why it could not be.
type externalFileMsg struct {
	program string
	path    string
	images  []editor.Image
	err     error
}

// externalEditedMsg carries the text the external editor left, or why the
// draft stays as it was.
type externalEditedMsg struct {
	text   string
	images []editor.Image
	err    error
}

// externalEditor names the person's editor program: $VISUAL, else $EDITOR.
func externalEditor() string {
	if v := strings.TrimSpace(os.Getenv("VISUAL")); v != "" {
		return v
	}
	return strings.TrimSpace(os.Getenv("EDITOR"))
}

// openExternalEditor starts editing the draft in $VISUAL or $EDITOR: the
// draft goes to a temporary file, written off the update loop.
func (m *Model) openExternalEditor() tea.Cmd {
	program := externalEditor()
	if program == "" {
		m.status.set(core.NotifyWarning, "No external editor: set $VISUAL or $EDITOR.", m.now())
		return nil
	}
	text, images := m.ed.Value(), m.ed.Images()
	return func() tea.Msg {
		f, err := os.CreateTemp("", "cairn-message-*.md")
		if err != nil {
			return externalFileMsg{err: fmt.Errorf("create a file for the editor: %w", err)}
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return externalFileMsg{err: fmt.Errorf("write %s: %w", f.Name(), err)}
		}
		return externalFileMsg{program: program, path: f.Name(), images: images}
	}
}

// onExternalFile hands the terminal to the editor program on the file.
func (m *Model) onExternalFile(msg externalFileMsg) tea.Cmd {
	if msg.err != nil {
		m.status.set(core.NotifyError, msg.err.Error(), m.now())
		return nil
	}
	run := m.execProcess
	if run == nil {
		run = tea.ExecProcess
	}
	return run(m.onTerminal(editorCommand(msg.program, msg.path)), func(err error) tea.Msg {
		defer os.Remove(msg.path)
		if err != nil {
			return externalEditedMsg{err: editorError(msg.program, err)}
		}
		b, err := os.ReadFile(msg.path)
		if err != nil {
			return externalEditedMsg{err: fmt.Errorf("read what %s wrote: %w", msg.program, err)}
		}
		return externalEditedMsg{text: string(b), images: msg.images}
	})
}

// onExternalEdited replaces the draft with what the editor left, keeping
// the images whose markers are still in it.
func (m *Model) onExternalEdited(msg externalEditedMsg) tea.Cmd {
	if msg.err != nil {
		m.status.set(core.NotifyError, msg.err.Error()+"; the message is unchanged.", m.now())
		return nil
	}
	// Editors end a file with a line break the message did not have.
	text := strings.TrimSuffix(strings.TrimSuffix(msg.text, "\n"), "\r")
	m.ed.SetDraft(text, msg.images)
	return nil
}

// editorCommand runs program on path. On Unix the shell reads program, as
// git does, so "code --wait" and quoted paths work.
func editorCommand(program, path string) *exec.Cmd {
	if runtime.GOOS == "windows" {
		f := strings.Fields(program)
		return exec.Command(f[0], append(f[1:], path)...)
	}
	return exec.Command("/bin/sh", "-c", program+` "$1"`, "sh", path)
}

// editorError says how the editor program failed, for the status line.
func editorError(program string, err error) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if exit.ExitCode() == 127 && runtime.GOOS != "windows" {
			return fmt.Errorf("editor %q was not found: set $VISUAL or $EDITOR to an installed editor", program)
		}
		return fmt.Errorf("editor %q exited with status %d", program, exit.ExitCode())
	}
	return fmt.Errorf("run editor %q: %w", program, err)
}
