package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// Timings of the bash tool: the least time between two progress updates,
// how long a stopped command has between SIGTERM and SIGKILL, and how long
// output is still read after the shell exits while a background process
// holds the pipe open.
const (
	bashUpdateInterval = 100 * time.Millisecond
	bashKillGrace      = time.Second
	bashPipeGrace      = 100 * time.Millisecond
)

// Bash is the bash tool: it runs a command line with `bash -c` in the
// working directory, stdout and stderr merged, in its own process group so
// that a timeout or cancellation stops everything it started.
type Bash struct {
	// Dir is the working directory commands run in.
	Dir string
	// Shell is the shell to run, called as `Shell -c command`; empty means
	// /bin/bash, else bash on PATH, else sh.
	Shell string
	// TempDir is where the full output of a long command is saved; empty
	// means os.TempDir().
	TempDir string
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

// Spec describes the tool to the model.
func (*Bash) Spec() core.ToolSpec { return bashSpec }

// Category is exec: it runs programs.
func (*Bash) Category() core.ApprovalCategory { return core.CategoryExec }

// Kind is execute.
func (*Bash) Kind() core.ToolKind { return core.KindExecute }

type bashArgs struct {
	Command *string `json:"command"`
	Timeout number  `json:"timeout"`
}

// Execute runs the call's command. A non-zero exit, a timeout and
// cancellation all give an error result holding the output so far.
func (b *Bash) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	var a bashArgs
	if err := decodeArgs("bash", call.Arguments, &a); err != nil {
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
	var timeout time.Duration
	if a.Timeout.set && a.Timeout.value > 0 {
		timeout = time.Duration(a.Timeout.value * float64(time.Second))
	}
	r := bashRun{
		ctx: ctx, cmd: exec.Command(b.shell(), "-c", *a.Command), timeout: timeout,
		out: newOutputBuffer(b.TempDir, "cairn-bash"), update: update,
	}
	r.cmd.Dir = b.Dir
	return r.run(formatNumber(a.Timeout.value)), nil
}

// shell returns the shell to run commands with.
func (b *Bash) shell() string {
	if b.Shell != "" {
		return b.Shell
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
}

// bashRun is one running command and the state of its progress updates. It
// is used by a single goroutine, the one in Execute, so update is never
// called after Execute returns.
type bashRun struct {
	ctx     context.Context
	cmd     *exec.Cmd
	timeout time.Duration
	out     *outputBuffer
	update  func(core.ToolUpdate)

	lastUpdate time.Time
	dirty      bool
}

// How a command was stopped before it finished on its own.
const (
	stopNone = iota
	stopAborted
	stopTimedOut
)

func (r *bashRun) run(timeoutText string) core.ToolResult {
	defer r.out.close()
	if r.update != nil {
		r.update(core.ToolUpdate{Content: []core.Content{}})
	}
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.out
	r.cmd.WaitDelay = bashPipeGrace
	startGroup(r.cmd)
	if err := r.cmd.Start(); err != nil {
		return errorResult(fmt.Sprintf("Could not start %s: %v", r.cmd.Path, err))
	}
	waited := make(chan error, 1)
	go func() { waited <- r.cmd.Wait() }()

	stop, err := r.wait(waited)
	if stop != stopNone {
		// The shell is gone; take whatever it left behind in its group too.
		killGroup(r.cmd)
	}
	r.flush()
	return r.result(stop, err, timeoutText)
}

// wait waits for the command to end, stopping it on cancellation or
// timeout and sending throttled progress updates meanwhile.
func (r *bashRun) wait(waited <-chan error) (int, error) {
	done := r.ctx.Done()
	var timedOut, killNow, updateDue <-chan time.Time
	if r.timeout > 0 {
		t := time.NewTimer(r.timeout)
		defer t.Stop()
		timedOut = t.C
	}
	var killTimer, updateTimer *time.Timer
	defer func() {
		if killTimer != nil {
			killTimer.Stop()
		}
		if updateTimer != nil {
			updateTimer.Stop()
		}
	}()
	stop := stopNone
	terminate := func(why int) {
		stop, done, timedOut = why, nil, nil
		terminateGroup(r.cmd)
		killTimer = time.NewTimer(bashKillGrace)
		killNow = killTimer.C
	}
	for {
		select {
		case err := <-waited:
			return stop, err
		case <-done:
			terminate(stopAborted)
		case <-timedOut:
			terminate(stopTimedOut)
		case <-killNow:
			killNow = nil
			killGroup(r.cmd)
		case <-r.out.changed:
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
	t, path := r.out.snapshot()
	d := BashDetails{FullOutputPath: path}
	if t.Truncated {
		d.Truncation = &t
	}
	r.update(core.ToolUpdate{Content: []core.Content{core.TextBlock(t.Content)}, Details: mustJSON(d)})
}

// flush sends a last update for output not yet reported.
func (r *bashRun) flush() {
	if r.update == nil {
		return
	}
	select {
	case <-r.out.changed:
		r.dirty = true
	default:
	}
	r.emit()
}

// result turns how the command ended into the tool's result.
func (r *bashRun) result(stop int, err error, timeoutText string) core.ToolResult {
	switch stop {
	case stopAborted:
		return r.failed("", "Command aborted")
	case stopTimedOut:
		return r.failed("", "Command timed out after "+timeoutText+" seconds")
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		if sig := signalled(exitErr); sig != "" {
			return r.failed("(no output)", "Command terminated by signal: "+sig)
		}
		return r.failed("(no output)", fmt.Sprintf("Command exited with code %d", exitErr.ExitCode()))
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return r.failed("(no output)", "Command failed: "+err.Error())
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
	t, path := r.out.snapshot()
	text := t.Content
	if text == "" {
		text = empty
	}
	if !t.Truncated {
		return text, nil
	}
	where := path
	if where == "" {
		where = "(could not be saved)"
	}
	first := t.TotalLines - t.OutputLines + 1
	switch {
	case t.LastLinePartial:
		text += fmt.Sprintf("\n\n[Showing last %s of line %d (line is %s). Full output: %s]",
			formatSize(t.OutputBytes), t.TotalLines, formatSize(r.out.lastLine()), where)
	case t.TruncatedBy == TruncatedByLines:
		text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. Full output: %s]", first, t.TotalLines, t.TotalLines, where)
	default:
		text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d (%s limit). Full output: %s]",
			first, t.TotalLines, t.TotalLines, formatSize(DefaultMaxBytes), where)
	}
	return text, &BashDetails{Truncation: &t, FullOutputPath: path}
}
