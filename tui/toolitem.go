package tui

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/tui/markdown"
	"github.com/cairn-dev/cairn/tui/toolview"
)

// toolState is where a tool call is in its life.
type toolState int

const (
	toolStreaming toolState = iota // the model is still writing its arguments
	toolPending                    // waiting to run (or for approval)
	toolRunning
	toolDone
	// toolNotRun is a call the run ended without starting: it streamed or
	// waited when the person interrupted, or a resumed conversation holds
	// no result for it.
	toolNotRun
)

// toolItem is one tool call with its preview, live output and result.
type toolItem struct {
	id, name string
	args     json.RawMessage
	state    toolState
	partial  *core.ToolUpdate
	result   *core.ToolResult
	started  time.Time
	elapsed  time.Duration
	// previewDiff is the change an edit call will make, computed when its
	// approval is asked; previewErr says why the edit would fail instead.
	previewDiff, previewErr string
	awaiting                bool // an approval prompt is showing for it
	// ran is set once the core says the tool is executing: an aborted
	// call that never got there did not run.
	ran bool
	// steps are a task call's subagent's steps (subagent.go); loading
	// says its transcript is being read for them.
	steps   []string
	loading bool
	// drawn, when set, is its extension's drawing (pi's renderCall and
	// renderResult; extrender.go).
	drawn *extItem
}

func (t *toolItem) running() bool { return t.state == toolRunning }

// endUnrun marks a call that never started as not run and reports whether
// it was one: its run is over, so it will not start now.
func (t *toolItem) endUnrun() bool {
	if t.state != toolStreaming && t.state != toolPending {
		return false
	}
	t.state, t.awaiting = toolNotRun, false
	return true
}

// setArgs takes the arguments streamed so far.
func (t *toolItem) setArgs(name string, args json.RawMessage, streaming bool) {
	if name != "" {
		t.name = name
	}
	if args != nil {
		t.args = args
	}
	if t.state == toolStreaming && !streaming {
		t.state = toolPending
	}
}

func (t *toolItem) start(now time.Time) {
	if t.state < toolRunning {
		t.state, t.started = toolRunning, now
	}
}

func (t *toolItem) finish(r *core.ToolResult, now time.Time) {
	if !t.started.IsZero() {
		t.elapsed = now.Sub(t.started)
	}
	t.state, t.result, t.partial = toolDone, r, nil
}

func (t *toolItem) render(rc *renderContext) string {
	if t.drawn != nil {
		if s, ok := t.drawn.toolLines(rc); ok {
			return s
		}
	}
	c := toolview.Call{
		ID: t.id, Name: t.name, Args: t.args,
		Partial: t.partial, Result: t.result,
		PreviewDiff: t.previewDiff, PreviewError: t.previewErr,
		Steps: t.steps,
	}
	if t.name == approval.ExitPlanModeTool && rc.md != nil {
		palette := rc.md.Palette()
		c.RenderMarkdown = func(md string, width int) string { return markdown.New(palette, width).Render(md) }
	}
	switch t.state {
	case toolStreaming:
		c.State = toolview.Streaming
	case toolPending:
		c.State = toolview.Pending
	case toolRunning:
		if t.awaiting {
			c.State = toolview.Pending
			break
		}
		c.State = toolview.Running
		c.Elapsed = rc.now.Sub(t.started)
		c.Spinner = rc.spinner
	case toolDone:
		c.State = toolview.Done
		if t.result != nil && t.result.IsError {
			c.State = toolview.Failed
			switch {
			case planRefused(t.result):
				c.State, c.RefusedBy = toolview.Denied, "plan mode"
				c.Reason = "Not run: plan mode runs only what reads. Accept the model's plan to make changes, or leave plan mode with " + rc.modeHint + "."
			case denied(t.result):
				c.State = toolview.Denied
			case skipped(t.result):
				c.State = toolview.Cancelled
			case !t.ran && aborted(t.result):
				c.State = toolview.NotRun
			}
		}
		c.Elapsed = t.elapsed
	case toolNotRun:
		c.State = toolview.NotRun
	}
	return indent(toolview.Render(c, rc.contentWidth(), rc.st.tool, rc.expandTools))
}

// keep replaces the finished result's content with the same content as
// the session stores it (large texts read back from the file when drawn).
func (t *toolItem) keep(content []core.Content) {
	if t.result == nil {
		return
	}
	r := *t.result
	r.Content = content
	t.result = &r
}

// skippedText is the result the core gives a call it did not run because a
// message the person queued came first (core/agent's textSkipped).
const skippedText = "Skipped due to queued user message."

// skipped reports whether a failed result is a call skipped for a queued
// message: the person's choice, not a failure.
func skipped(r *core.ToolResult) bool {
	return len(r.Content) == 1 && r.Content[0].Type == core.ContentText && r.Content[0].Text == skippedText
}

// abortedText starts the result the core and MCP tools give a call the
// run was interrupted before or while it ran (core/agent's textAborted).
const abortedText = "Tool execution was aborted"

// aborted reports whether a failed result is an interrupted call's.
func aborted(r *core.ToolResult) bool {
	return len(r.Content) == 1 && r.Content[0].Type == core.ContentText && strings.HasPrefix(r.Content[0].Text, abortedText)
}

// denied reports whether a failed result is an approval denial.
func denied(r *core.ToolResult) bool {
	for _, c := range r.Content {
		if c.Type == core.ContentText && approval.IsDenial(c.Text) {
			return true
		}
	}
	return false
}

// planRefused reports whether a failed result is plan mode's refusal of
// a call that could change something.
func planRefused(r *core.ToolResult) bool {
	return len(r.Content) > 0 && r.Content[0].Type == core.ContentText && approval.IsPlanRefusal(r.Content[0].Text)
}
