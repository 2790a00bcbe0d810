package toolview

import (
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core/tools"
)

// Limits of a bash box: the tail of the output and the lines of a
// multi-line command after the first, while collapsed.
const (
	bashTailLimit    = 5
	bashCommandLimit = 4
)

func bashTitle(v *view) (string, string) {
	first, _, _ := strings.Cut(v.args.str("command"), "\n")
	meta := ""
	switch t, ok := v.args.num("timeout"); {
	case v.args.flag("run_in_background"):
		// A timeout does not apply to a background command.
		meta = "in the background"
	case ok && t > 0:
		meta = "timeout " + trimFloat(t) + "s"
	}
	return "$ " + first, meta
}

// bashBody shows the rest of a multi-line command, then, once the command
// runs, the tail of its output, where the whole output was saved when it
// was cut, and how the command ended unless it succeeded.
func bashBody(v *view, b *box) {
	if _, rest, ok := strings.Cut(trimNewline(v.args.str("command")), "\n"); ok {
		lines := headLines(rest, b.limit(bashCommandLimit))
		for _, l := range lines {
			b.text("  "+l, v.p.Title)
		}
		b.elided(countLines(rest)-len(lines), false)
	}
	if v.state == Streaming || v.state == Pending {
		return
	}
	if v.args.flag("run_in_background") && v.backgroundBody(b) {
		return
	}
	var d tools.BashDetails
	v.details(&d)
	text, denials := takeSandboxNotes(v.resultText())
	out := splitBashResult(text, v.Result != nil && v.Result.IsError, v.Result != nil && d.Truncation != nil)
	if out.output != "" {
		lines := tailLines(out.output, b.limit(bashTailLimit))
		total := countLines(out.output)
		if d.Truncation != nil {
			total += d.Truncation.TotalLines - d.Truncation.OutputLines
		}
		b.elided(total-len(lines), true)
		b.texts(lines, v.p.Output)
	}
	if d.Truncation != nil && d.FullOutputPath != "" {
		b.text("full output: "+d.FullOutputPath, v.p.Muted)
	}
	v.bashStatus(b, out.status)
	v.sandboxBody(b, denials)
}

// bashStatus shows how a command that did not succeed ended.
func (v *view) bashStatus(b *box, status string) {
	switch {
	case status == "":
	case strings.HasPrefix(status, "Command exited with code "):
		b.text("exit "+strings.TrimPrefix(status, "Command exited with code "), v.p.Error)
	case strings.HasPrefix(status, "Command timed out after "):
		secs := strings.TrimSuffix(strings.TrimPrefix(status, "Command timed out after "), " seconds")
		b.text("timed out after "+secs+"s", v.p.Warning)
	case status == "Command aborted":
		if v.state != Cancelled {
			b.text("cancelled", v.p.Warning)
		}
	case strings.HasPrefix(status, "Command terminated by signal: "):
		b.text("killed by "+strings.TrimPrefix(status, "Command terminated by signal: "), v.p.Error)
	default:
		b.wrapped(status, v.p.Error, b.limit(errorLimit))
	}
}

// bashResult is a bash result's text taken apart.
type bashResult struct {
	output string // what the command printed, as the tool kept it
	status string // why it failed, in the tool's words; "" when it did not
}

// splitBashResult takes apart the text of a bash result: the tool writes
// the output, then, when the output was cut, a blank line and a bracketed
// note, then, when the command failed, a blank line and a status line
// starting with "Command ". A failure without that shape (bad arguments, a
// missing working directory) is all status. "(no output)" counts as none.
func splitBashResult(text string, failed, noted bool) bashResult {
	var r bashResult
	r.output = text
	if failed {
		i := strings.LastIndex(text, "\n\n")
		if i < 0 || !strings.HasPrefix(text[i+2:], "Command ") {
			return bashResult{status: text}
		}
		r.output, r.status = text[:i], text[i+2:]
	}
	if noted {
		if i := strings.LastIndex(r.output, "\n\n["); i >= 0 {
			r.output = r.output[:i]
		}
	}
	if r.output == "(no output)" {
		r.output = ""
	}
	return r
}

// trimFloat writes a number without a needless fraction: 30, 2.5.
func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// backgroundBody shows a command started in the background as a person
// follows it: its id and pid, where its output goes, and /ps to watch or
// stop it, in place of the instructions the model reads. It reports
// whether the result was such a start.
func (v *view) backgroundBody(b *box) bool {
	var d tools.BackgroundDetails
	if v.Result == nil || v.Result.IsError || !v.details(&d) || d.ID == "" {
		return false
	}
	b.text("started as "+d.ID+" (pid "+strconv.Itoa(d.Pid)+"): /ps shows its output or stops it", v.p.Output)
	if d.OutputPath != "" {
		b.text("output: "+d.OutputPath, v.p.Muted)
	}
	return true
}
