package pi

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/cairn-dev/cairn/core/shell"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// homeDir is the person's home directory, for short names in notes; "" if
// unknown.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

// BashRunner runs the commands of rpc mode's bash command: a person's
// `!cmd`, not the model's bash tool.
type BashRunner interface {
	// Run runs command until it exits or ctx ends (abort_bash). A run
	// stopped by ctx is not an error: it returns the output so far with
	// Cancelled set and no exit code. An error means the command could not
	// be run at all. output, when set, receives the output as it arrives,
	// cleaned of terminal escapes (shell.Stream), on one goroutine.
	Run(ctx context.Context, command string, output func(delta string)) (BashResult, error)
}

// BashResult is what a bash command produced, in pi's shape.
type BashResult struct {
	// Output is stdout and stderr merged, cut to its last 2000 lines or
	// 50 KB.
	Output string `json:"output"`
	// ExitCode is nil when the command was stopped.
	ExitCode  *int `json:"exitCode,omitempty"`
	Cancelled bool `json:"cancelled"`
	Truncated bool `json:"truncated"`
	// FullOutputPath names the temporary file holding all of the output
	// when it was cut.
	FullOutputPath string `json:"fullOutputPath,omitempty"`
}

// ExecBash runs commands through the shell package: `bash -c` in a process
// group of their own, stdout and stderr merged and stdin empty, keeping the
// clean tail of the output (see shell.Clean) and spilling all of it to a
// temporary file once it outgrows pi's limits. Cancelling a run kills the
// whole group at once; a command that exits on its own leaves what it
// started in the background running.
type ExecBash struct {
	// Dir is the working directory; empty means the process's.
	Dir string
	// Shell is called as `Shell -c command`; empty means /bin/bash, else
	// bash on PATH, else sh.
	Shell string
	// Prefix is prepended to every command on a line of its own (the
	// shellCommandPrefix setting).
	Prefix string
	// TempDir receives full outputs; empty means os.TempDir().
	TempDir string
	// Env is the environment commands start with (the "shellEnvironment"
	// setting applied); nil means shell.DefaultEnv, cairn's own without
	// its secrets.
	Env []string
	// Compat073 cuts long output as pi 0.73 did: the last 2000 lines
	// counting the empty one after a final newline. By default it is cut
	// as pi 0.87 cuts it: the last 2000 lines, without the final newline.
	Compat073 bool
	// Sandbox, when set, runs commands in the OS sandbox; the output of a
	// command it blocked ends with notes saying what it blocked.
	Sandbox *sandbox.Policy
}

// Run implements BashRunner.
func (b *ExecBash) Run(ctx context.Context, command string, output func(delta string)) (BashResult, error) {
	if ctx.Err() != nil {
		return BashResult{Cancelled: true}, nil
	}
	line := command
	if b.Prefix != "" {
		line = b.Prefix + "\n" + command
	}
	opts := shell.OutputOptions{TempDir: b.TempDir}
	if !b.Compat073 {
		// One line more than pi keeps: the empty one after a final
		// newline, dropped below.
		opts.MaxLines = shell.DefaultMaxLines + 1
	}
	var live shell.Stream
	if output != nil {
		opts.OnWrite = func(p []byte) {
			if d := live.Write(p); d != "" {
				output(d)
			}
		}
	}
	out := shell.NewOutput(opts)
	defer out.Close()
	// No Grace: abort_bash kills the group at once, as pi does.
	proc, err := shell.Start(ctx, shell.Command{Line: line, Shell: b.Shell, Dir: b.Dir, Env: b.Env, Output: out, Sandbox: b.Sandbox})
	if err != nil {
		if ctx.Err() != nil {
			// abort_bash came as the command was starting.
			return BashResult{Cancelled: true}, nil
		}
		return BashResult{}, fmt.Errorf("run %q: %w", command, err)
	}
	exit := proc.Wait()
	if output != nil {
		if d := live.Flush(); d != "" {
			output(d)
		}
	}
	tail := out.Tail()
	if !b.Compat073 && tail.Truncated && tail.By == shell.LineLimit {
		tail.Text = lastLines(tail.Text, shell.DefaultMaxLines)
	}
	res := BashResult{Output: tail.Text, Cancelled: exit.Cancelled, Truncated: tail.Truncated, FullOutputPath: tail.FullOutputPath}
	switch {
	case exit.Cancelled:
	case exit.Err != nil:
		return res, fmt.Errorf("run %q: %w", command, exit.Err)
	case exit.Code >= 0:
		code := exit.Code
		res.ExitCode = &code
	}
	if b.Sandbox != nil && exit.Code != 0 && !exit.Cancelled {
		if note := b.Sandbox.Explain(res.Output, b.Dir, homeDir()); note != "" {
			res.Output += "\n" + note
		}
	}
	return res, nil
}

// truncateTail keeps the last whole lines of s within both limits, as
// shell.CutTail does, and reports whether it cut.
func truncateTail(s string, maxLines, maxBytes int) (string, bool) {
	t := shell.CutTail(s, maxLines, maxBytes)
	return t.Text, t.Truncated
}

// lastLines is the last n lines of s, without a final newline.
func lastLines(s string, n int) string {
	s = strings.TrimSuffix(s, "\n")
	i := len(s)
	for range n {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			return s
		}
		i = j
	}
	return s[i+1:]
}
