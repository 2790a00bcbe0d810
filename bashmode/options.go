package bashmode

import (
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/shell"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// Defaults of Options.
const (
	DefaultCols     = 80
	DefaultRows     = 24
	DefaultMaxLines = 2000
)

// Options says how to run a command.
type Options struct {
	// Dir is the working directory; empty means the process's.
	Dir string
	// Shell runs the command as `Shell -c command`; empty means /bin/bash,
	// else bash on PATH, else sh.
	Shell string
	// Cols and Rows are the terminal's first size; 0 means 80x24.
	Cols, Rows int
	// BaseEnv is the environment commands start from when Env is nil:
	// cairn's own as the "shellEnvironment" setting passes it. Nil means
	// shell.DefaultEnv, cairn's own without its secrets.
	BaseEnv []string
	// Env is the command's environment. Nil means BaseEnv with
	// TERM=xterm-256color (what the screen model understands, so colours
	// work whatever terminal cairn runs in) and PAGER=cat, GIT_PAGER=cat
	// (the transcript cannot page). A non-nil Env is used as given, with
	// only TERM=xterm-256color added when it sets no TERM.
	Env []string
	// MaxLines caps the rows kept in memory (default 2000); older rows are
	// dropped and counted.
	MaxLines int
	// LogDir receives the full output when the result is cut; empty means
	// os.TempDir().
	LogDir string
	// Sandbox, when set, runs the command in the OS sandbox (Start only:
	// Command's interactive programs run unsandboxed).
	Sandbox *sandbox.Policy
}

func (o Options) withDefaults() Options {
	if o.Cols <= 0 {
		o.Cols = DefaultCols
	}
	if o.Rows <= 0 {
		o.Rows = DefaultRows
	}
	o.Cols = min(o.Cols, MaxCols)
	o.Rows = min(o.Rows, 0xffff)
	if o.MaxLines <= 0 {
		o.MaxLines = DefaultMaxLines
	}
	if o.LogDir == "" {
		o.LogDir = os.TempDir()
	}
	return o
}

// ptyEnv is the environment of a command run in the PTY.
func (o Options) ptyEnv() []string {
	if o.Env != nil {
		env := append([]string(nil), o.Env...)
		if !hasVar(env, "TERM") {
			env = append(env, "TERM=xterm-256color")
		}
		return env
	}
	env := o.baseEnv()
	for _, kv := range []string{"TERM=xterm-256color", "PAGER=cat", "GIT_PAGER=cat"} {
		env = setVar(env, kv)
	}
	return env
}

func hasVar(env []string, name string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}

// setVar replaces or adds the variable kv ("NAME=value").
func setVar(env []string, kv string) []string {
	name := kv[:strings.IndexByte(kv, '=')+1]
	out := env[:0]
	for _, e := range env {
		if !strings.HasPrefix(e, name) {
			out = append(out, e)
		}
	}
	return append(out, kv)
}

// baseEnv is a copy of BaseEnv, or shell.DefaultEnv when it is nil.
func (o Options) baseEnv() []string {
	if o.BaseEnv == nil {
		return shell.DefaultEnv()
	}
	return slices.Clone(o.BaseEnv)
}

// Command builds the same shell invocation as Start, for a program that
// should get the real terminal (see Interactive), for example through
// tea.ExecProcess. Its environment is Options.Env, or the base environment
// unchanged when nil (see BaseEnv): the real terminal's TERM and pager
// apply. On Linux it runs under a reaper (see package shell), so what it
// starts ends with it.
func Command(command string, opts Options) *exec.Cmd {
	cmd := exec.Command(shell.Path(opts.Shell), "-c", command)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	if cmd.Env == nil {
		cmd.Env = opts.baseEnv()
	}
	// What the program leaves behind ends with it, as for Start.
	shell.UnderReaper(cmd)
	return cmd
}
