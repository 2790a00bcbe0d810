package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/shell"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// Timings of the bash tool: the least time between two progress updates,
// and how long a stopped command has between SIGTERM and SIGKILL.
const (
	bashUpdateInterval = 100 * time.Millisecond
	bashKillGrace      = time.Second
)

// Bash is the bash tool: it runs a command line with `bash -c` in the
// working directory through the shell package, stdout and stderr merged, in
// its own process group so that a timeout or cancellation stops everything
// it started. The model sees the output cleaned of terminal escapes and
// progress redraws (shell.Clean); the saved full output is as written.
type Bash struct {
	// Dir is the working directory commands run in.
	Dir string
	// Shell is the shell to run, called as `Shell -c command`; empty means
	// /bin/bash, else bash on PATH, else sh.
	Shell string
	// TempDir is where the full output of a long command is saved; empty
	// means os.TempDir().
	TempDir string
	// Workspace is where commands run; nil is the local machine.
	Workspace *Workspace
	// Background, when set, runs calls with run_in_background (always on
	// the local machine, see background.go); nil leaves the parameter out
	// of the tool's spec and refuses such calls.
	Background *background.Table
	// Sandbox, when set, runs local commands in the OS sandbox (see
	// bash_sandbox.go).
	Sandbox *sandbox.Policy
	// Env is the environment local commands start with (the
	// "shellEnvironment" setting applied); nil means shell.DefaultEnv,
	// cairn's own without its secrets.
	Env []string
}

// NewBash returns the bash tool working in cwd.
func NewBash(cwd string) *Bash { return &Bash{Dir: cwd} }

// BashDetails are the details of a bash result: how the output was cut and
// where all of it was saved, when it was cut.
type BashDetails struct {
	Truncation     *Truncation `json:"truncation,omitempty"`
	FullOutputPath string      `json:"fullOutputPath,omitempty"`
}

var bashSpec = core.ToolSpec{
	Name: "bash",
	Description: "Run a bash command line in the working directory and return what it printed, stdout " +
		"and stderr together. Long output is cut to its last 2000 lines or 50KB, whichever comes first, " +
		"and then saved whole to a temporary file whose path the result gives. A timeout in seconds " +
		"can be set.",
	Parameters: json.RawMessage(`{"type":"object","required":["command"],"properties":{` +
		`"command":{"type":"string","description":"The command line to run"},` +
		`"timeout":{"type":"number","description":"Seconds after which the command is stopped (optional; by default it may run as long as it needs)"}}}`),
}

// Spec describes the tool to the model: with run_in_background when the
// tool has a Background table, and the sandbox's note and parameter when
// commands run sandboxed (bash_sandbox.go).
func (b *Bash) Spec() core.ToolSpec { return b.spec() }

// Category is exec: it runs programs.
func (*Bash) Category() core.ApprovalCategory { return core.CategoryExec }

// Kind is execute.
func (*Bash) Kind() core.ToolKind { return core.KindExecute }

type bashArgs struct {
	Command         *string `json:"command"`
	Timeout         number  `json:"timeout"`
	RunInBackground boolean `json:"run_in_background"`
	// DisableSandbox runs the command outside the sandbox.
	DisableSandbox bool `json:"dangerouslyDisableSandbox"`
}

// Execute runs the call's command. A non-zero exit, a timeout and
// cancellation all give an error result holding the output so far.
func (b *Bash) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	var a bashArgs
	if err := decodeArgs(b.Spec(), call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("bash", "command", a.Command); err != nil {
		return errorResult(err.Error()), nil
	}
	if ctx.Err() != nil {
		return errorResult("Command aborted"), nil
	}
	if info, err := os.Stat(b.Dir); err != nil || !info.IsDir() {
		return errorResult(fmt.Sprintf("Working directory does not exist: %s\nCannot execute bash commands.", b.Dir)), nil
	}
	if a.RunInBackground.value {
		return b.startBackground(*a.Command, a.Timeout.set, a.DisableSandbox), nil
	}
	var timeout time.Duration
	if a.Timeout.set && a.Timeout.value > 0 {
		timeout = time.Duration(a.Timeout.value * float64(time.Second))
	}
	r := bashRun{
		out:    shell.NewOutput(shell.OutputOptions{MaxLines: DefaultMaxLines, MaxBytes: DefaultMaxBytes, TempDir: b.TempDir}),
		update: update,
	}
	if term := b.Workspace.terminal(); term != nil {
		tc := TerminalCommand{Shell: shell.Path(b.Shell), Line: *a.Command, Dir: b.Dir, Timeout: timeout, OutputLimit: HostOutputLimit}
		return r.runHost(ctx, term, tc, formatNumber(a.Timeout.value)), nil
	}
	cmd := shell.Command{Line: *a.Command, Shell: b.Shell, Dir: b.Dir, Env: b.Env, Timeout: timeout, Grace: bashKillGrace,
		Sandbox: b.sandboxFor(a.DisableSandbox)}
	return noteSandbox(r.run(ctx, cmd, formatNumber(a.Timeout.value)), bashCommand{cmd.Sandbox, b.Dir}), nil
}

// HostOutputLimit is the most output a host terminal is asked to keep for
// a command: the model sees the last DefaultMaxBytes of it, and the file
// of the full output holds all of it.
const HostOutputLimit = 1 << 20

// BashTerminalDetails are the details of the update a bash call sends when
// its command runs in a host's terminal.
type BashTerminalDetails struct {
	TerminalID string `json:"terminalId"`
}

// runHost runs the command in a host terminal. The host shows it as it
// runs, so the only progress update names the terminal; the result is
// made from the output the host kept, as for a local command.
func (r *bashRun) runHost(ctx context.Context, term HostTerminal, tc TerminalCommand, timeoutText string) core.ToolResult {
	defer r.out.Close()
	started := func(id string) {
		if r.update != nil {
			r.update(core.ToolUpdate{Content: []core.Content{}, Details: mustJSON(BashTerminalDetails{TerminalID: id})})
		}
	}
	run, err := term.Run(ctx, tc, started)
	switch {
	case err != nil && ctx.Err() != nil:
		return errorResult("Command aborted")
	case err != nil:
		return errorResult("Could not run the command: " + err.Error())
	}
	_, _ = r.out.Write([]byte(run.Output))
	res := r.result(run.Exit, timeoutText)
	if run.Truncated && len(res.Content) > 0 && res.Content[0].Type == core.ContentText {
		res.Content[0].Text = "[The terminal kept only the end of the output; the start is lost.]\n" + res.Content[0].Text
	}
	return res
}

// bashRun is one running command and the state of its progress updates. It
// is used by a single goroutine, the one in Execute, so update is never
// called after Execute returns.
type bashRun struct {
	out    *shell.Output
	update func(core.ToolUpdate)

	lastUpdate time.Time
	dirty      bool
}

func (r *bashRun) run(ctx context.Context, cmd shell.Command, timeoutText string) core.ToolResult {
	defer r.out.Close()
	if r.update != nil {
		r.update(core.ToolUpdate{Content: []core.Content{}})
	}
	cmd.Output = r.out
	proc, err := shell.Start(ctx, cmd)
	switch {
	case err != nil && ctx.Err() != nil:
		return errorResult("Command aborted")
	case err != nil:
		return errorResult("Could not run the command: " + err.Error())
	}
	exit := r.wait(proc)
	r.flush()
	return r.result(exit, timeoutText)
}

// wait waits for the command to end, sending throttled progress updates
// meanwhile; the shell package stops it on cancellation or timeout.
func (r *bashRun) wait(proc *shell.Process) shell.Exit {
	var updateDue <-chan time.Time
	var updateTimer *time.Timer
	defer func() {
		if updateTimer != nil {
			updateTimer.Stop()
		}
	}()
	for {
		select {
		case <-proc.Done():
			return proc.Wait()
		case <-r.out.Changed():
			if r.update == nil {
				continue
			}
			r.dirty = true
			if wait := bashUpdateInterval - time.Since(r.lastUpdate); wait <= 0 {
				r.emit()
			} else if updateDue == nil {
				updateTimer = time.NewTimer(wait)
				updateDue = updateTimer.C
			}
		case <-updateDue:
			updateDue = nil
			r.emit()
		}
	}
}

// emit sends the current tail of the output as a progress update.
func (r *bashRun) emit() {
	if !r.dirty {
		return
	}
	r.dirty = false
	r.lastUpdate = time.Now()
	tail := r.out.Tail()
	d := BashDetails{FullOutputPath: tail.FullOutputPath}
	if tail.Truncated {
		t := truncation(tail)
		d.Truncation = &t
	}
	r.update(core.ToolUpdate{Content: []core.Content{core.TextBlock(tail.Text)}, Details: mustJSON(d)})
}

// flush sends a last update for output not yet reported.
func (r *bashRun) flush() {
	if r.update == nil {
		return
	}
	select {
	case <-r.out.Changed():
		r.dirty = true
	default:
	}
	r.emit()
}

// result turns how the command ended into the tool's result.
func (r *bashRun) result(exit shell.Exit, timeoutText string) core.ToolResult {
	switch {
	case exit.Cancelled:
		return r.failed("", "Command aborted")
	case exit.TimedOut:
		return r.failed("", "Command timed out after "+timeoutText+" seconds")
	case exit.Signal != "":
		return r.failed("(no output)", "Command terminated by signal: "+exit.Signal)
	case exit.Err != nil:
		return r.failed("(no output)", "Command failed: "+exit.Err.Error())
	case exit.Code != 0:
		return r.failed("(no output)", fmt.Sprintf("Command exited with code %d", exit.Code))
	}
	text, details := r.output("(no output)")
	if details == nil {
		return core.TextResult(text)
	}
	return withDetails(text, details)
}

// failed is an error result: the output (or empty), a blank line, status.
func (r *bashRun) failed(empty, status string) core.ToolResult {
	text, details := r.output(empty)
	if text != "" {
		status = text + "\n\n" + status
	}
	res := errorResult(status)
	if details != nil {
		res.Details = mustJSON(details)
	}
	return res
}

// output returns the text of the output, cut to the limits with a note on
// what was left out, and details when it was cut.
func (r *bashRun) output(empty string) (string, *BashDetails) {
	tail := r.out.Tail()
	text := tail.Text
	if text == "" {
		text = empty
	}
	if !tail.Truncated {
		return text, nil
	}
	where := tail.FullOutputPath
	if where == "" {
		where = "(could not be saved)"
	}
	first := tail.TotalLines - tail.Lines + 1
	switch {
	case tail.LastLinePartial:
		text += fmt.Sprintf("\n\n[Showing last %s of line %d (line is %s). Full output: %s]",
			formatSize(len(tail.Text)), tail.TotalLines, formatSize(tail.LastLineBytes), where)
	case tail.By == shell.LineLimit:
		text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. Full output: %s]", first, tail.TotalLines, tail.TotalLines, where)
	default:
		text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d (%s limit). Full output: %s]",
			first, tail.TotalLines, tail.TotalLines, formatSize(DefaultMaxBytes), where)
	}
	t := truncation(tail)
	return text, &BashDetails{Truncation: &t, FullOutputPath: tail.FullOutputPath}
}

// truncation describes a cut output tail in pi's shape.
func truncation(tail shell.Tail) Truncation {
	by := TruncatedBy("")
	switch tail.By {
	case shell.LineLimit:
		by = TruncatedByLines
	case shell.ByteLimit:
		by = TruncatedByBytes
	}
	return Truncation{
		Content: tail.Text, Truncated: tail.Truncated, TruncatedBy: by,
		TotalLines: tail.TotalLines, TotalBytes: tail.TotalBytes,
		OutputLines: tail.Lines, OutputBytes: len(tail.Text), LastLinePartial: tail.LastLinePartial,
		MaxLines: DefaultMaxLines, MaxBytes: DefaultMaxBytes,
	}
}
