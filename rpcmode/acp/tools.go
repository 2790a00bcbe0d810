package acp

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/toolpath"
	"github.com/cairn-dev/cairn/core/tools"
)

// toolCall is an open tool call as the writer tracks it.
type toolCall struct {
	name    string
	title   string // the card's title, as tool_call sent it
	kind    core.ToolKind
	path    string          // the absolute path it acts on, or ""
	diffs   []toolContent   // the diff preview of an edit or write
	rawArgs json.RawMessage // its arguments
	running bool            // in_progress was sent
	// terminal is the client terminal a bash call runs in, or "".
	terminal string
}

// The tool call shapes.
type (
	toolCallStart struct {
		SessionUpdate string          `json:"sessionUpdate"`
		ToolCallID    string          `json:"toolCallId"`
		Title         string          `json:"title"`
		Kind          core.ToolKind   `json:"kind"`
		Status        string          `json:"status"`
		Content       []toolContent   `json:"content,omitempty"`
		Locations     []location      `json:"locations,omitempty"`
		RawInput      json.RawMessage `json:"rawInput,omitempty"`
	}
	toolCallUpdate struct {
		SessionUpdate string        `json:"sessionUpdate,omitempty"`
		ToolCallID    string        `json:"toolCallId"`
		Title         string        `json:"title,omitempty"`
		Kind          core.ToolKind `json:"kind,omitempty"`
		Status        string        `json:"status,omitempty"`
		Content       []toolContent `json:"content,omitempty"`
		Locations     []location    `json:"locations,omitempty"`
	}
	// toolContent is one ToolCallContent: "content" with a text block,
	// "diff", or "terminal" (a client terminal the call runs in).
	toolContent struct {
		Type       string     `json:"type"`
		Content    *textBlock `json:"content,omitempty"`
		Path       string     `json:"path,omitempty"`
		OldText    *string    `json:"oldText,omitempty"`
		NewText    *string    `json:"newText,omitempty"`
		TerminalID string     `json:"terminalId,omitempty"`
	}
	location struct {
		Path string `json:"path"`
		Line *int   `json:"line,omitempty"`
	}
)

// toolArgs are the arguments cairn's tools share, read for titles,
// locations and diffs.
type toolArgs struct {
	Path    string `json:"path"`
	Command string `json:"command"`
	// RunInBackground, BashID and ShellID are the background tools' (bash,
	// bash_output, kill_shell): their calls are titled by the command and
	// where it runs, or by the id they act on.
	RunInBackground bool            `json:"run_in_background"`
	BashID          string          `json:"bash_id"`
	ShellID         string          `json:"shell_id"`
	Pattern         string          `json:"pattern"`
	Content         *string         `json:"content"`
	Edits           json.RawMessage `json:"edits"`
	OldText         *string         `json:"oldText"`
	NewText         *string         `json:"newText"`
	Offset          *int            `json:"offset"`
	// Plan is exit_plan_mode's plan, shown as the call's content.
	Plan string `json:"plan"`
	// Description and SubagentType are a task call's: its card is titled
	// by what the subagent does, not just "task".
	Description  string `json:"description"`
	SubagentType string `json:"subagent_type"`
}

// maxPreviewFile bounds the file a write's diff preview reads.
const maxPreviewFile = 4 << 20

// describe builds a call's title, locations and diff preview.
// A replayed call (readFile false) does not read the file, which holds
// the call's result by now.
func (s *server) describe(b *bound, name string, raw json.RawMessage, readFile bool) (*toolCall, string, []location) {
	c := &toolCall{name: name, kind: kind(b, name), rawArgs: raw}
	if inner, ok := mcpCallTarget(name, raw); ok {
		// A call through mcp_call is shown as the MCP tool it calls.
		return &toolCall{name: name, kind: kind(b, inner), rawArgs: raw}, inner, nil
	}
	var a toolArgs
	_ = json.Unmarshal(raw, &a)
	title := name
	switch {
	case a.Command != "" && a.RunInBackground:
		title = firstLine(a.Command) + " (in the background)"
	case a.Command != "":
		title = firstLine(a.Command)
	case a.BashID != "":
		title = name + " " + a.BashID
	case a.ShellID != "":
		title = name + " " + a.ShellID
	case a.Path != "" && a.Pattern != "":
		title = name + " " + a.Pattern + " in " + a.Path
	case a.Path != "":
		title = name + " " + a.Path
	case a.Pattern != "":
		title = name + " " + a.Pattern
	case name == "task" && a.Description != "":
		title = firstLine(a.Description)
		if a.SubagentType != "" {
			title += " (" + a.SubagentType + ")"
		}
	}
	if strings.HasPrefix(name, "mcp__") && title != name && !strings.HasPrefix(title, name+" ") {
		// An MCP tool's card names the tool, not only what it acts on.
		title = name + " " + title
	}
	// The title quotes the model's command or path: escaped, so an
	// editor showing it shows all of it.
	title = escape.Visible(title)
	var locs []location
	if a.Path != "" {
		// The file the tools will read or write: '@', '~' and links
		// resolved as the gate resolved them.
		c.path = toolpath.Resolve(a.Path, b.host.Cwd)
		l := location{Path: c.path}
		if a.Offset != nil && *a.Offset > 0 {
			l.Line = a.Offset
		}
		locs = []location{l}
	}
	if c.path != "" && c.kind == core.KindEdit {
		c.diffs = diffPreview(c.path, a, readFile)
	}
	if name == approval.ExitPlanModeTool && a.Plan != "" {
		// The editor shows the plan on the card its permission request
		// asks about.
		title = "Plan"
		c.diffs = []toolContent{{Type: "content", Content: &textBlock{Type: "text", Text: a.Plan}}}
	}
	return c, title, locs
}

// kind is the ACP kind of the tool named name in b's session: from the
// tools the session began with, else from the tools it has now (an MCP
// server's tools come while it runs), else other.
func kind(b *bound, name string) core.ToolKind {
	if k := b.kinds[name]; k != "" {
		return k
	}
	if t := b.sess.Tool(name); t != nil && t.Kind() != "" {
		return t.Kind()
	}
	return core.KindOther
}

// mcpCallTarget is the MCP tool a call of mcp_call names, if it names one.
func mcpCallTarget(name string, raw json.RawMessage) (string, bool) {
	if name != mcp.CallToolName {
		return "", false
	}
	var a struct {
		Tool string `json:"tool"`
	}
	if json.Unmarshal(raw, &a) != nil || a.Tool == "" {
		return "", false
	}
	return a.Tool, true
}

// diffPreview is the change an edit or write call asks for: the edit's
// replacements, or the whole file before and after a write.
func diffPreview(path string, a toolArgs, readFile bool) []toolContent {
	if a.Content != nil {
		var old *string
		if !readFile {
			return []toolContent{{Type: "diff", Path: path, NewText: a.Content}}
		}
		// Only a regular file: a pipe or a device named by the model
		// could block this goroutine (all output) or never end.
		if b, err := tools.ReadRegular(path, maxPreviewFile); err == nil {
			s := string(b)
			old = &s
		}
		return []toolContent{{Type: "diff", Path: path, OldText: old, NewText: a.Content}}
	}
	type pair struct {
		OldText *string `json:"oldText"`
		NewText *string `json:"newText"`
	}
	var pairs []pair
	if len(a.Edits) > 0 {
		if json.Unmarshal(a.Edits, &pairs) != nil {
			// Some models send the array as a JSON string.
			var s string
			if json.Unmarshal(a.Edits, &s) == nil {
				_ = json.Unmarshal([]byte(s), &pairs)
			}
		}
	} else if a.OldText != nil && a.NewText != nil {
		pairs = []pair{{a.OldText, a.NewText}}
	}
	var out []toolContent
	for _, p := range pairs {
		if p.OldText != nil && p.NewText != nil {
			out = append(out, toolContent{Type: "diff", Path: path, OldText: p.OldText, NewText: p.NewText})
		}
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

// toolStarted announces a call as pending: it waits for approval or is
// about to run.
func (w *writer) toolStarted(e core.ToolExecutionStart) {
	if isPlanTool(e.ToolName) {
		// Shown as the plan when it ends, not also as a tool card.
		w.plans[e.ToolCallID] = true
		return
	}
	c, title, locs := w.srv.describe(w.t.b, e.ToolName, e.Args, true)
	c.title = title
	w.calls[e.ToolCallID] = c
	w.order = append(w.order, e.ToolCallID)
	raw := json.RawMessage(nil)
	if json.Valid(e.Args) {
		raw = e.Args
	}
	w.update(toolCallStart{SessionUpdate: "tool_call", ToolCallID: e.ToolCallID, Title: title, Kind: c.kind,
		Status: "pending", Content: c.diffs, Locations: locs, RawInput: raw})
}

// running marks a call in_progress, once.
func (w *writer) running(id string) {
	c, ok := w.calls[id]
	if !ok || c.running {
		return
	}
	c.running = true
	w.update(toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "in_progress"})
}

// toolProgress reports a running call's partial output, or the client
// terminal it runs in (which shows its output itself).
func (w *writer) toolProgress(e core.ToolExecutionUpdate) {
	c, ok := w.calls[e.ToolCallID]
	if !ok {
		return
	}
	status := ""
	if !c.running {
		// in_progress is said once per call; later updates carry content.
		status, c.running = "in_progress", true
	}
	var term tools.BashTerminalDetails
	if c.name == "bash" && json.Unmarshal(e.Partial.Details, &term) == nil && term.TerminalID != "" {
		c.terminal = term.TerminalID
	}
	content := textContent(e.Partial.Content)
	if c.terminal != "" {
		content = c.terminalContent()
	}
	w.update(toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: e.ToolCallID, Status: status,
		Content: content})
}

func (c *toolCall) terminalContent() []toolContent {
	return []toolContent{{Type: "terminal", TerminalID: c.terminal}}
}

// toolEnded closes a call: completed, or failed for an error, a refusal
// or an abort.
func (w *writer) toolEnded(id string, r core.ToolResult) {
	if w.plans[id] {
		delete(w.plans, id)
		if p, ok := planOf(planTool, r.IsError, r.Details); ok {
			w.update(p)
		} else if r.IsError {
			w.update(failedPlan(id, r.Content))
		}
		return
	}
	c, ok := w.calls[id]
	if !ok {
		return
	}
	delete(w.calls, id)
	w.order = slices.DeleteFunc(w.order, func(o string) bool { return o == id })
	status := "completed"
	if r.IsError {
		status = "failed"
	}
	content := textContent(r.Content)
	switch {
	case c.terminal != "" && r.IsError:
		// The client still shows the released terminal's output; the
		// result's text says why the call failed.
		content = append(c.terminalContent(), content...)
	case c.terminal != "":
		content = c.terminalContent()
	case !r.IsError && len(c.diffs) > 0:
		content = c.diffs
	}
	u := toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: id, Status: status, Content: content}
	if c.path != "" {
		var d struct {
			FirstChangedLine int `json:"firstChangedLine"`
		}
		if json.Unmarshal(r.Details, &d) == nil && d.FirstChangedLine > 0 {
			u.Locations = []location{{Path: c.path, Line: &d.FirstChangedLine}}
		}
	}
	w.update(u)
}

// failedPlan is the card of a todo_write call that failed: shown once,
// failed, so the person sees why the plan did not change.
func failedPlan(id string, content []core.Content) toolCallStart {
	return toolCallStart{SessionUpdate: "tool_call", ToolCallID: id, Title: planTool, Kind: core.KindThink,
		Status: "failed", Content: textContent(content)}
}

// planTool is the tool whose calls ACP shows as the plan: the task list.
const planTool = tools.TodoWriteName

// isPlanTool reports whether calls of the tool named name are shown as
// the plan (a plan session update) rather than as tool cards.
func isPlanTool(name string) bool { return name == planTool }

// planUpdate is the plan session update: the whole plan as it stands.
type planUpdate struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Entries       []planEntry `json:"entries"`
}

// planEntry is one step of an ACP plan.
type planEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// planOf is the plan a successful todo_write call set, from its result's
// details: each item a step of medium priority (todo_write has none).
func planOf(tool string, isError bool, details json.RawMessage) (planUpdate, bool) {
	todos, ok := tools.TodosOf(tool, isError, details)
	if !ok {
		return planUpdate{}, false
	}
	entries := make([]planEntry, len(todos))
	for i, t := range todos {
		entries[i] = planEntry{Content: t.Content, Priority: "medium", Status: t.Status}
	}
	return planUpdate{SessionUpdate: "plan", Entries: entries}, true
}

// textContent turns result blocks into tool call content: text as text,
// images as a note (ACP content could carry them, but editors show tool
// output as text).
func textContent(blocks []core.Content) []toolContent {
	text := core.PlainText(blocks)
	if text == "" {
		return nil
	}
	return []toolContent{{Type: "content", Content: &textBlock{Type: "text", Text: text}}}
}

// questionClosed marks an approved call in_progress. A permission request
// the client has not answered when its question ended without it (a
// timeout) is withdrawn with $/cancel_request; after session/cancel the
// client answers its requests itself, as the protocol asks.
func (w *writer) questionClosed(e core.QuestionClosed) {
	delete(w.asked, e.ID)
	c, answered, stale := w.srv.closedQuestion(w.t, e.ID)
	if e.Outcome == core.Aborted && w.srv.cancelling(w.t) {
		stale = nil
	}
	for _, n := range stale {
		id := json.RawMessage(strconv.Itoa(n))
		w.write(w.mustMarshal(outRequest{JSONRPC: "2.0", Method: "$/cancel_request", Params: cancelRequest{RequestID: id}}))
	}
	if callID, ok := w.retitle[e.ID]; ok {
		delete(w.retitle, e.ID)
		if tc := w.calls[callID]; tc != nil {
			w.update(toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: callID, Title: tc.title})
		}
	}
	if answered && e.Outcome == core.Answered && c.option.Allows() {
		w.running(c.callID)
	}
}
