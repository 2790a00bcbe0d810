package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/shell"
)

// The background tools: bash with run_in_background starts a command in a
// session's background.Table, bash_output reads it and kill_shell stops it
// (Claude Code's shapes). Background commands always run on the local
// machine, even when a host (an ACP editor) runs the foreground ones in its
// terminals: a host terminal lives only as long as the call that made it.

// maxOutputWait bounds bash_output's wait.
const maxOutputWait = 60 * time.Second

var bashBackgroundSpec = core.ToolSpec{
	Name: "bash",
	Description: bashSpec.Description + " With run_in_background the command starts in the background " +
		"and the call returns at once with an id: read its new output with bash_output and stop it with " +
		"kill_shell. Use it for servers, watchers and other commands that do not end by themselves.",
	Parameters: json.RawMessage(`{"type":"object","required":["command"],"properties":{` +
		`"command":{"type":"string","description":"The command line to run"},` +
		`"timeout":{"type":"number","description":"Seconds after which the command is stopped (optional; by default it may run as long as it needs; not for background commands)"},` +
		`"run_in_background":{"type":"boolean","description":"Start the command in the background and return its id at once (optional)"}}}`),
}

// BackgroundDetails are the details of the results of a background start,
// bash_output and kill_shell: which command, and how it stands.
type BackgroundDetails struct {
	ID         string `json:"id"`
	Command    string `json:"command"`
	Pid        int    `json:"pid"`
	Running    bool   `json:"running"`
	Status     string `json:"status"`
	ExitCode   *int   `json:"exitCode,omitempty"`
	OutputPath string `json:"outputPath"`
}

func backgroundDetails(i background.Info) BackgroundDetails {
	d := BackgroundDetails{ID: i.ID, Command: i.Command, Pid: i.Pid, Running: i.Running, Status: i.Status(), OutputPath: i.OutputPath}
	if code, ok := i.ExitCode(); ok {
		d.ExitCode = &code
	}
	return d
}

// startBackground starts line in b's table and says how to follow it.
// It runs in the sandbox exactly as the same call would in the foreground:
// the gate decided on that (auto_edit lets sandboxed commands run unasked).
func (b *Bash) startBackground(line string, timeoutSet, leaveSandbox bool) core.ToolResult {
	if b.Background == nil {
		return errorResult("Background commands are not available here: run the command without run_in_background.")
	}
	info, err := b.Background.Start(background.Command{Line: line, Dir: b.Dir, Env: b.Env, Sandbox: b.sandboxFor(leaveSandbox)})
	if err != nil {
		return errorResult("Could not start the command in the background: " + err.Error())
	}
	text := fmt.Sprintf("Started in the background as %s (pid %d). All its output goes to %s.\n"+
		"Read its new output with bash_output (bash_id %q); stop it with kill_shell (shell_id %q) when it is no longer needed.",
		info.ID, info.Pid, info.OutputPath, info.ID, info.ID)
	if timeoutSet {
		text += "\nThe timeout was not applied: a background command runs until it ends or is killed."
	}
	return withDetails(text, backgroundDetails(info))
}

// BashOutput is the bash_output tool: what a background command wrote
// since the last read, and whether it still runs.
type BashOutput struct {
	Table *background.Table
}

var bashOutputSpec = core.ToolSpec{
	Name: "bash_output",
	Description: "Read what a background command (started with bash and run_in_background) printed since the " +
		"last read, and whether it is still running or how it ended. With filter, only lines matching the " +
		"regular expression are returned; the others are dropped. With wait, waits up to that many seconds " +
		fmt.Sprintf("(at most %d) for new output or the command's end.", int(maxOutputWait/time.Second)),
	Parameters: json.RawMessage(`{"type":"object","required":["bash_id"],"properties":{` +
		`"bash_id":{"type":"string","description":"The id bash returned, such as bash_1"},` +
		`"filter":{"type":"string","description":"Regular expression (Go syntax); only matching lines are returned (optional)"},` +
		`"wait":{"type":"number","description":"Seconds to wait for new output or the end of the command (optional; default 0, at most 60)"}}}`),
}

// Spec describes the tool to the model.
func (*BashOutput) Spec() core.ToolSpec { return bashOutputSpec }

// Category is info: it only reads what an approved command printed.
func (*BashOutput) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is read.
func (*BashOutput) Kind() core.ToolKind { return core.KindRead }

type bashOutputArgs struct {
	BashID *string `json:"bash_id"`
	Filter string  `json:"filter"`
	Wait   number  `json:"wait"`
}

// Execute reads the command's new output.
func (o *BashOutput) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a bashOutputArgs
	if err := decodeArgs(bashOutputSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("bash_output", "bash_id", a.BashID); err != nil {
		return errorResult(err.Error()), nil
	}
	var filter *regexp.Regexp
	if a.Filter != "" {
		re, err := regexp.Compile(a.Filter)
		if err != nil {
			return errorResult(fmt.Sprintf("Invalid arguments for bash_output: filter is not a valid regular expression: %v", err)), nil
		}
		filter = re
	}
	wait := time.Duration(a.Wait.value * float64(time.Second))
	if wait > maxOutputWait {
		wait = maxOutputWait
	}
	r, err := o.Table.Read(ctx, *a.BashID, filter, wait)
	if err != nil {
		return errorResult(unknownCommandText(o.Table, err)), nil
	}
	return withDetails(outputText(r, filter), backgroundDetails(r.Info)), nil
}

// outputText writes a read for the model: the status line, notes on what
// is not shown, then the new output cut to the usual limits.
func outputText(r background.Read, filter *regexp.Regexp) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", r.Info.ID, r.Info.Status())
	if r.Info.Running {
		fmt.Fprintf(&b, " (pid %d)", r.Info.Pid)
	}
	b.WriteString("\n")
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "[%s of new output are no longer in memory; all output is in %s]\n", formatSize(int(r.Skipped)), r.Info.OutputPath)
	}
	if r.Unmatched > 0 {
		fmt.Fprintf(&b, "[%d new lines did not match /%s/]\n", r.Unmatched, filter)
	}
	if r.Text == "" {
		b.WriteString("(no new output)")
		return b.String()
	}
	tail := shell.CutTail(r.Text, DefaultMaxLines, DefaultMaxBytes)
	if tail.Truncated {
		fmt.Fprintf(&b, "[Showing the last %d of %d new lines. All output: %s]\n", tail.Lines, tail.TotalLines, r.Info.OutputPath)
	}
	b.WriteString(tail.Text)
	return b.String()
}

// unknownCommandText words a table error for the model, listing the ids
// it may use.
func unknownCommandText(t *background.Table, err error) string {
	if !errors.Is(err, background.ErrUnknown) {
		return err.Error()
	}
	var ids []string
	for _, i := range t.List() {
		ids = append(ids, i.ID+" ("+i.Status()+")")
	}
	if len(ids) == 0 {
		return err.Error() + "; none has been started in this session."
	}
	return err.Error() + ". Background commands: " + strings.Join(ids, ", ")
}

// KillShell is the kill_shell tool: it stops a background command of this
// session and everything it started.
type KillShell struct {
	Table *background.Table
}

var killShellSpec = core.ToolSpec{
	Name: "kill_shell",
	Description: "Stop a background command started with bash and run_in_background, and everything it " +
		"started (SIGTERM, then SIGKILL). Only this session's background commands can be stopped.",
	Parameters: json.RawMessage(`{"type":"object","required":["shell_id"],"properties":{` +
		`"shell_id":{"type":"string","description":"The id bash returned, such as bash_1"}}}`),
}

// Spec describes the tool to the model.
func (*KillShell) Spec() core.ToolSpec { return killShellSpec }

// Category is info: it can only stop commands this session started, each
// of them approved as a bash call when it started, so it asks nothing.
func (*KillShell) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is execute.
func (*KillShell) Kind() core.ToolKind { return core.KindExecute }

type killShellArgs struct {
	ShellID *string `json:"shell_id"`
}

// Execute stops the command and waits for it to end.
func (k *KillShell) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a killShellArgs
	if err := decodeArgs(killShellSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("kill_shell", "shell_id", a.ShellID); err != nil {
		return errorResult(err.Error()), nil
	}
	info, err := k.Table.Kill(ctx, *a.ShellID)
	switch {
	case errors.Is(err, background.ErrExited):
		ended, _ := k.Table.Info(*a.ShellID)
		return errorResult(fmt.Sprintf("Nothing to stop: %s has already ended (%s).", ended.ID, ended.Status())), nil
	case err != nil:
		return errorResult(unknownCommandText(k.Table, err)), nil
	}
	return withDetails(fmt.Sprintf("Killed %s (%s).", info.ID, info.Command), backgroundDetails(info)), nil
}

// WithBackground gives the bash tool among ts the table t for
// run_in_background, and adds bash_output and kill_shell reading and
// stopping t's commands.
func WithBackground(ts []core.Tool, t *background.Table) []core.Tool {
	for _, tool := range ts {
		if b, ok := tool.(*Bash); ok {
			b.Background = t
		}
	}
	return append(ts, &BashOutput{Table: t}, &KillShell{Table: t})
}
