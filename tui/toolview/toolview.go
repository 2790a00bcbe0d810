package toolview

import (
	"encoding/json"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// State is where a tool call stands.
type State int

// The states of a tool call.
const (
	// Streaming means the model is still writing the call's arguments.
	Streaming State = iota
	// Pending means the call is complete and waits for approval or its
	// turn.
	Pending
	// Running means the tool is executing.
	Running
	// Done means the tool finished; with an error result it is drawn as
	// Failed.
	Done
	// Failed means the tool finished with an error result.
	Failed
	// Denied means the person (or a rule) refused the call; the result,
	// if any, holds the reason.
	Denied
	// Cancelled means the run was aborted before or while the tool ran.
	Cancelled
	// NotRun means the call never started and never will: the run ended
	// first (an interrupt while it streamed or waited, a run that stopped
	// before it). It is never drawn as a success.
	NotRun
)

var stateNames = [...]string{"streaming", "pending", "running", "done", "failed", "denied", "cancelled", "not run"}

// String names the state in lower case.
func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return "unknown"
	}
	return stateNames[s]
}

// Call is everything drawn of one tool call.
type Call struct {
	// ID and Name identify the call and its tool.
	ID, Name string
	// Args are the call's JSON arguments, possibly incomplete while the
	// model streams them.
	Args json.RawMessage
	// PreviewDiff is what an edit call will change, from
	// tools.EditPreview, shown before the call runs. The TUI computes it
	// once, off the render path.
	PreviewDiff string
	// PreviewError is why the preview could not be made (the edit would
	// fail); shown in its place.
	PreviewError string
	// Partial is the latest progress update of a running tool, or nil.
	Partial *core.ToolUpdate
	// Result is the tool's result once it finished, or nil.
	Result *core.ToolResult
	// State is where the call stands.
	State State
	// Elapsed is the time the tool has run so far or, once it finished,
	// took in all.
	Elapsed time.Duration
	// Spinner is the current frame of the spinner shown while the call
	// streams or runs; the TUI animates it.
	Spinner string
	// Steps are a task call's subagent's steps so far, one line each
	// (its tool calls and answers), shown when the call is expanded.
	Steps []string
	// RenderMarkdown, when set, draws markdown (a plan) width cells wide
	// with the front end's renderer; without it the text is shown as
	// written.
	RenderMarkdown func(md string, width int) string
	// RefusedBy names what refused a Denied call when it was not the
	// person ("plan mode", "sandbox"); the header says it instead of
	// "denied".
	RefusedBy string
	// Reason, when set, says for a person why a Denied or Failed call did
	// not run and what would let it, in place of the result's text (which
	// was written for the model).
	Reason string
}

// Limits of what a box shows.
const (
	// expandedLimit caps every part of an expanded box, so one call cannot
	// flood the transcript.
	expandedLimit = 500
	// headLimit is how many lines of a file or of results a collapsed box
	// shows.
	headLimit = 10
	// errorLimit is how many lines of an error a collapsed box shows.
	errorLimit = 5
)

// Render draws a call as a box exactly width cells wide: the header (see
// Header) and the tool's content, on the background of the call's state,
// with no blank line above or below. Collapsed, the content is a short preview
// ending with a note on how much is left out; expanded shows everything up
// to a cap of a few hundred lines per part.
func Render(c Call, width int, st Styles, expanded bool) string {
	width = max(width, 1)
	inner := max(width-2*boxPadding(width), 1)
	v := newView(c, st, expanded)
	b := &box{inner: inner, p: &v.p, expanded: expanded}
	k := kindOf(c.Name)
	switch {
	case expanded:
		v.fullTitle(k, b, 0)
	case k.wrapsTitle:
		// A command is what the person approved: it stays readable whole
		// (up to a few lines) after the approval, not cut to one line.
		v.fullTitle(k, b, bashCommandLimit)
	}
	switch {
	case c.Reason != "" && (v.state == Denied || v.state == Failed):
		b.wrapped(c.Reason, v.p.Warning, b.limit(errorLimit))
	case v.state == Denied:
		v.reasonBody(b, v.p.Warning)
		if c.PreviewDiff != "" {
			// The change that was refused stays readable, so the person
			// can see what they said no to.
			diffBlock(v, b, c.PreviewDiff)
		}
	case v.state == Cancelled && !k.ownsFailure, v.state == NotRun && v.Result != nil:
		v.reasonBody(b, v.p.Muted)
	case v.state == Failed && !k.ownsFailure:
		v.reasonBody(b, v.p.Error)
	default:
		k.body(v, b)
	}
	return b.render(v.header(k, inner), width, background(v.background()))
}

// Header draws a call's one-line title in at most width cells: a status
// mark (spinner, tick, cross), what the call does (such as "$ go test
// ./..." or "read core/agent.go:10-49"), muted details (sizes, counts) and,
// on the right, the elapsed time or why the call stopped.
func Header(c Call, width int, st Styles) string {
	return newView(c, st, false).header(kindOf(c.Name), max(width, 1))
}

// view is a call being drawn, with its arguments read once.
type view struct {
	Call
	st       Styles
	p        palette
	state    State
	args     args
	expanded bool

	diffText string // the edit's diff from the result's details, once read
	diffRead bool
	// headTitle is the part of a long title the header holds when
	// fullTitle wrapped the rest under it.
	headTitle string
}

func newView(c Call, st Styles, expanded bool) *view {
	v := &view{Call: c, st: st, p: newPalette(st), state: c.State, args: parseArgs(c.Args), expanded: expanded}
	if v.state == Done && c.Result != nil && c.Result.IsError {
		v.state = Failed
	}
	return v
}

// kind is how one tool is drawn: its title and details for the header, its
// content, and whether the content covers failures itself.
type kind struct {
	title       func(v *view) (title, meta string)
	body        func(v *view, b *box)
	ownsFailure bool
	metaSep     string // between the title and the details
	// wrapsTitle shows a title too long for the header whole while
	// collapsed too (bash's command).
	wrapsTitle bool
}

func kindOf(name string) kind {
	switch name {
	case "bash":
		return kind{title: bashTitle, body: bashBody, ownsFailure: true, metaSep: " · ", wrapsTitle: true}
	case "read":
		return kind{title: readTitle, body: readBody, ownsFailure: false, metaSep: " · "}
	case "write":
		return kind{title: writeTitle, body: writeBody, ownsFailure: false, metaSep: " · "}
	case "edit":
		return kind{title: editTitle, body: editBody, ownsFailure: false, metaSep: " · "}
	case "grep", "find", "ls":
		return kind{title: searchTitle, body: searchBody, ownsFailure: false, metaSep: " · "}
	case "exit_plan_mode":
		return kind{title: planTitle, body: planBody, ownsFailure: true, metaSep: " · "}
	case "task":
		return kind{title: taskTitle, body: taskBody, ownsFailure: false, metaSep: " · "}
	case tools.TodoWriteName:
		return kind{title: todoTitle, body: todoBody, ownsFailure: false, metaSep: " · "}
	}
	return kind{title: genericTitle, body: genericBody, metaSep: " "}
}

// header lays out the header line in width cells.
func (v *view) header(k kind, width int) string {
	title, meta := k.title(v)
	if v.headTitle != "" {
		// fullTitle put the rest of the title under the header.
		title, meta = v.headTitle, ""
	}
	left := v.mark() + " " + v.p.Title.render(strings.TrimSpace(cleanLine(oneLine(title))))
	if meta != "" {
		left += v.p.Muted.render(k.metaSep + cleanLine(oneLine(meta)))
	}
	right := v.label()
	rw := ansi.StringWidth(right)
	if right == "" || rw+4 > width {
		return fit(left, width)
	}
	left = fit(left, width-rw-1)
	var b strings.Builder
	b.WriteString(left)
	writeSpaces(&b, width-ansi.StringWidth(left)-rw)
	b.WriteString(right)
	return b.String()
}

// fullTitle shows the whole title (a command, a path) when the header
// cannot hold it: the header holds its first part, uncut, and the rest is
// wrapped under it, once (expanding a call is how a person reads all of
// what it does). limit bounds the lines added, then an ellipsis says more
// is left; 0 means no bound.
func (v *view) fullTitle(k kind, b *box, limit int) {
	title, _ := k.title(v)
	t := strings.TrimSpace(cleanLine(oneLine(title)))
	room := b.inner - 2 // the mark and a space
	if rw := ansi.StringWidth(v.label()); rw > 0 && rw+4 <= b.inner {
		room -= rw + 1
	}
	if cells(t) <= room || b.inner < 8 {
		return
	}
	indent := 0
	if i := strings.IndexByte(t, ' '); i >= 0 && i < 8 {
		indent = i + 1 // under the command or path, past "$ " or "edit "
	}
	head, rest := cutLine(t, room)
	v.headTitle = head
	lead := strings.Repeat(" ", indent)
	for n := 0; rest != ""; n++ {
		var part string
		part, rest = cutLine(rest, b.inner-indent)
		if limit > 0 && n == limit-1 && rest != "" {
			part, _ = fitPlain(part+" "+rest, b.inner-indent)
			rest = ""
		}
		b.add(lead+v.p.Title.render(part), indent+cells(part))
	}
}

// mark is the status mark at the start of the header.
func (v *view) mark() string {
	spin := v.Spinner
	if spin == "" {
		spin = "●"
	}
	switch v.state {
	case Streaming:
		return v.p.Muted.render(spin)
	case Pending:
		return v.p.Warning.render("●")
	case Running:
		return v.p.Warning.render(spin)
	case Done:
		return v.p.Success.render("✓")
	case Failed:
		return v.p.Error.render("✗")
	case NotRun:
		return v.p.Muted.render("⊘")
	}
	return v.p.Warning.render("⊘")
}

// label is the right end of the header: elapsed time, or why the call
// stopped.
func (v *view) label() string {
	switch v.state {
	case Denied:
		if v.RefusedBy != "" {
			return v.p.Warning.render(v.RefusedBy)
		}
		return v.p.Warning.render("denied")
	case Cancelled:
		return v.p.Warning.render("cancelled")
	case NotRun:
		return v.p.Warning.render("not run")
	case Running, Done, Failed:
		if v.Elapsed > 0 {
			return v.p.Dim.render(humanDuration(v.Elapsed))
		}
	}
	return ""
}

// background is the style whose background the box is laid on.
func (v *view) background() lipgloss.Style {
	switch v.state {
	case Done:
		return v.st.SuccessBg
	case Failed, Denied, Cancelled, NotRun:
		return v.st.ErrorBg
	}
	return v.st.PendingBg
}

// resultText joins the text blocks of the result, or of the latest
// progress update while there is no result.
func (v *view) resultText() string {
	var content []core.Content
	switch {
	case v.Result != nil:
		content = v.Result.Content
	case v.Partial != nil:
		content = v.Partial.Content
	}
	if len(content) == 1 && content[0].Type == core.ContentText {
		return content[0].FullText()
	}
	var parts []string
	for _, c := range content {
		if c.Type == core.ContentText {
			parts = append(parts, c.FullText())
		}
	}
	return strings.Join(parts, "\n")
}

// images returns the MIME types of the result's images.
func (v *view) images() []string {
	if v.Result == nil {
		return nil
	}
	var out []string
	for _, c := range v.Result.Content {
		if c.Type == core.ContentImage {
			out = append(out, c.MimeType)
		}
	}
	return out
}

// details decodes the details of the result, or of the latest progress
// update, into d; it reports whether there were any.
func (v *view) details(d any) bool {
	var raw json.RawMessage
	switch {
	case v.Result != nil:
		raw = v.Result.Details
	case v.Partial != nil:
		raw = v.Partial.Details
	}
	return len(raw) > 0 && json.Unmarshal(raw, d) == nil
}

// reasonBody shows the result's text (an error, or why the call was denied
// or stopped) in style: its first lines, or more when expanded.
func (v *view) reasonBody(b *box, style paint) {
	b.wrapped(v.resultText(), style, b.limit(errorLimit))
}
