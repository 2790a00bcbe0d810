package jsonrpc

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits on the terminal context added to a prompt.
const (
	maxRecentCommands = 20
	maxCommandBytes   = 500
	maxRecentOutput   = 8 << 10
	maxOpenFiles      = 50
)

// terminalContext is agent.query's context and context.update's params.
// env is read and dropped: it may hold secrets, and the model does not
// need it.
type terminalContext struct {
	Cwd            string                     `json:"cwd"`
	Shell          string                     `json:"shell"`
	Env            map[string]json.RawMessage `json:"env"`
	RecentCommands []recentCommand            `json:"recent_commands"`
	RecentOutput   string                     `json:"recent_output"`
	OpenFiles      []string                   `json:"open_files"`
	TerminalSize   *terminalSize              `json:"terminal_size"`
}

type recentCommand struct {
	Command   string `json:"command"`
	ExitCode  *int   `json:"exit_code"`
	Timestamp int64  `json:"timestamp"`
}

// terminalState is what the host told about its terminal so far: the
// lasting parts (directory, shell, size). Recent commands, output and open
// files belong to the query that carries them.
type terminalState struct {
	cwd, shell string
	size       terminalSize
}

func (t *terminalState) merge(c terminalContext) {
	if c.Cwd != "" {
		t.cwd = c.Cwd
	}
	if c.Shell != "" {
		t.shell = c.Shell
	}
	if c.TerminalSize != nil {
		t.size = *c.TerminalSize
	}
}

// prompt is the text added after a query's message to tell the model about
// the host's terminal; "" when nothing is known.
func (t *terminalState) prompt(q *terminalContext) string {
	var b strings.Builder
	if t.cwd != "" {
		fmt.Fprintf(&b, "Working directory: %s\n", t.cwd)
	}
	if t.shell != "" {
		fmt.Fprintf(&b, "Shell: %s\n", t.shell)
	}
	if q != nil {
		cmds := q.RecentCommands
		if len(cmds) > maxRecentCommands {
			cmds = cmds[len(cmds)-maxRecentCommands:]
		}
		if len(cmds) > 0 {
			b.WriteString("Recent commands:\n")
			for _, c := range cmds {
				fmt.Fprintf(&b, "  $ %s", clip(c.Command, maxCommandBytes))
				if c.ExitCode != nil {
					fmt.Fprintf(&b, "  (exit %d)", *c.ExitCode)
				}
				b.WriteByte('\n')
			}
		}
		if out := strings.TrimSpace(q.RecentOutput); out != "" {
			fmt.Fprintf(&b, "Recent output:\n%s\n", tail(out, maxRecentOutput))
		}
		files := q.OpenFiles
		if len(files) > maxOpenFiles {
			files = files[:maxOpenFiles]
		}
		if len(files) > 0 {
			fmt.Fprintf(&b, "Open files: %s\n", strings.Join(files, ", "))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n\n[The user's terminal, as their terminal reports it]\n" + strings.TrimRight(b.String(), "\n")
}

// clip cuts s to at most n bytes on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// tail keeps the last n bytes of s on a character boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return "…" + s[i:]
}
