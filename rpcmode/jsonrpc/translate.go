package jsonrpc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/jsonl"
	"github.com/cairn-dev/cairn/core/tools"
)

// Limits on what notifications carry.
const (
	maxToolOutput   = 64 << 10
	maxProgressText = 4 << 10
	maxPreviewBytes = 64 << 10
)

// translator turns a connection's session events, and the reader's marks,
// into messages, and writes them in that order. It owns the query state
// and is the only writer to the socket.
type translator struct {
	c      *conn
	broken bool
	q      *queryState
	blocks int
	execs  int
}

// queryState is the query being streamed.
type queryState struct {
	id        string
	start     time.Time
	tokens    int
	cancelled bool
	usage     core.Usage
	model     string
	tools     []string
	calls     map[string]*execution // by tool call id
}

// execution is one tool call of the query.
type execution struct {
	id    string
	name  string
	args  json.RawMessage
	start time.Time
}

func newTranslator(c *conn) *translator { return &translator{c: c} }

// run handles events until the end mark (or the end of the stream).
func (t *translator) run(events <-chan core.Event) {
	for e := range events {
		if _, end := e.(endMark); end {
			return
		}
		t.handle(e)
	}
}

func (t *translator) handle(e core.Event) {
	switch e := e.(type) {
	case frameMark:
		t.write(e.line)
	case piecesMark:
		t.writeFrame(e.frame)
	case queryMark:
		t.q = &queryState{id: e.id, start: e.start, calls: map[string]*execution{}}
	case cancelMark:
		if t.q != nil && t.q.id == e.id {
			t.q.cancelled = true
		}
	case failMark:
		if t.q != nil && t.q.id == e.id {
			t.complete(CodeAgentError, e.err.Error())
		}
	case core.Question:
		t.question(e)
	case core.QuestionClosed:
		t.c.mu.Lock()
		for exec, q := range t.c.approvals {
			if q.ID == e.ID {
				delete(t.c.approvals, exec)
			}
		}
		t.c.mu.Unlock()
	}
	if t.q == nil {
		return
	}
	switch e := e.(type) {
	case core.MessageUpdate:
		t.update(e)
	case core.MessageEnd:
		if m, ok := e.Message.(*core.AssistantMessage); ok {
			t.q.usage.Input += m.Usage.Input
			t.q.usage.Output += m.Usage.Output
			t.q.model = m.Provider + "/" + m.Model
		}
	case core.ToolExecutionStart:
		t.execs++
		t.q.calls[e.ToolCallID] = &execution{id: "exec-" + strconv.Itoa(t.execs), name: e.ToolName, args: e.Args, start: t.c.cfg.Now()}
	case core.ToolExecutionUpdate:
		t.progress(e)
	case core.ToolExecutionEnd:
		t.toolEnd(e)
	case core.Settled:
		if e.Error != "" && !t.q.cancelled {
			t.complete(CodeModelError, e.Error)
		} else {
			t.complete(0, "")
		}
	}
}

// writeFrame sends a message written in pieces, through a buffer; each
// write to the client has the write time limit. Nothing else is written
// inside it: this goroutine alone writes.
func (t *translator) writeFrame(f jsonl.Frame) {
	if t.broken {
		return
	}
	w := bufio.NewWriterSize(deadlineWriter{t.c}, 64<<10)
	bodyErr, err := f.Write(w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		t.broken = true
		t.c.hangUp()
		return
	}
	if bodyErr != nil {
		fmt.Fprintf(t.c.cfg.Log, "cairn: jsonrpc: an answer was cut short: %v\n", bodyErr)
	}
}

// deadlineWriter writes to the client, each write within the write time
// limit.
type deadlineWriter struct{ c *conn }

func (d deadlineWriter) Write(p []byte) (int, error) {
	_ = d.c.nc.SetWriteDeadline(time.Now().Add(d.c.cfg.WriteTimeout))
	return d.c.nc.Write(p)
}

// notify writes a notification.
func (t *translator) notify(method string, params any) {
	t.write(encodeLine(notification{JSONRPC: "2.0", Method: method, Params: params}))
}

// write sends a line; after a failed write the client is dropped and
// nothing more is written.
func (t *translator) write(line []byte) {
	if t.broken {
		return
	}
	_ = t.c.nc.SetWriteDeadline(time.Now().Add(t.c.cfg.WriteTimeout))
	if _, err := t.c.nc.Write(line); err != nil {
		t.broken = true
		t.c.hangUp()
	}
}

// update streams text as stream.token, says when the model starts to
// reason, and sends the fenced code of a finished text block as
// stream.block.
func (t *translator) update(e core.MessageUpdate) {
	switch e.Kind {
	case core.UpdateTextDelta:
		// token and metadata are the documented fields; content and
		// type are what the shipped terminal reads (its backend's names).
		t.notify("stream.token", map[string]any{
			"query_id": t.q.id, "token": e.Delta, "index": t.q.tokens,
			"metadata": map[string]string{"type": "text"},
			"content":  e.Delta, "type": "text",
		})
		t.q.tokens++
	case core.UpdateThinkingStart:
		t.notify("agent.thinking", map[string]string{"query_id": t.q.id, "phase": "analyzing", "message": "The model is thinking."})
	case core.UpdateTextEnd:
		if e.Message == nil || e.Index < 0 || e.Index >= len(e.Message.Content) {
			return
		}
		for _, b := range codeBlocks(e.Message.Content[e.Index].Text) {
			t.block(map[string]any{"type": "code", "language": b.language, "content": b.content,
				"metadata": map[string]any{"diff": b.language == "diff"}})
		}
	}
}

// block sends a stream.block: the documented nested block, and its type,
// content and language flat beside it, where the shipped terminal reads
// them.
func (t *translator) block(b map[string]any) {
	t.blocks++
	t.notify("stream.block", map[string]any{"query_id": t.q.id, "block_id": "block-" + strconv.Itoa(t.blocks), "block": b,
		"type": b["type"], "content": b["content"], "language": b["language"]})
}

// execFor returns the execution of a tool call, or a stand-in for a call
// the translator did not see start.
func (t *translator) execFor(callID, name string) *execution {
	if t.q != nil {
		if x, ok := t.q.calls[callID]; ok {
			return x
		}
	}
	t.execs++
	return &execution{id: "exec-" + strconv.Itoa(t.execs), name: name, start: t.c.cfg.Now()}
}

// question turns an approval into tool.request_approval, answers the
// question asking why a call was denied with the reason tool.approve
// gave, and dismisses any other question: this protocol cannot ask it.
func (t *translator) question(q core.Question) {
	switch q.Purpose {
	case core.PurposeApproval:
		x := t.execFor(q.ToolCallID, "")
		t.c.mu.Lock()
		t.c.approvals[x.id] = q
		t.c.mu.Unlock()
		t.notify("tool.request_approval", t.approvalParams(x, q))
	default:
		// tool.approve gives a denial's reason with the choice, so the
		// gate never asks for one; nothing else can be asked here.
		_ = t.c.sess.Dismiss(q.ID)
	}
}

func (t *translator) approvalParams(x *execution, q core.Question) map[string]any {
	tool := t.c.tools[x.name]
	if tool == nil {
		tool = t.c.sess.Tool(x.name) // an MCP server's tool, there since
	}
	category := "other"
	if tool != nil {
		category = string(tool.Category())
	}
	args := x.args
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	risk := riskOf(tool)
	// tool, risk_assessment and preview_detail are the documented shapes;
	// tool_name, description, risk_level and preview (a string) are what
	// the shipped terminal prints.
	p := map[string]any{
		"execution_id":       x.id,
		"tool":               map[string]string{"name": x.name, "description": escape.Visible(q.Title), "category": category},
		"arguments":          args,
		"risk_assessment":    risk,
		"message":            escape.Visible(q.Message),
		"remember_available": offers(q, approval.OptionAllowSession),
		"similar_available":  offers(q, approval.OptionAllowProject),
		"tool_name":          x.name,
		"description":        escape.Visible(strings.TrimSpace(q.Title + " " + q.Message)),
		"risk_level":         risk["level"],
		"preview":            "",
	}
	if t.q != nil {
		p["query_id"] = t.q.id
	}
	if prev := t.preview(tool, x); prev != nil {
		p["preview_detail"] = prev
		p["preview"] = prev["content"]
	}
	if q.Timeout > 0 {
		p["timeout"] = int(math.Ceil(q.Timeout.Seconds()))
	}
	return p
}

func offers(q core.Question, o approval.Option) bool {
	for _, opt := range q.Options {
		if opt.Value == string(o) {
			return true
		}
	}
	return false
}

// riskOf rates a tool by its approval category.
func riskOf(tool core.Tool) map[string]any {
	if tool == nil {
		return map[string]any{"level": "high", "reasons": []string{"The tool is not one of cairn's own."}, "reversible": false}
	}
	switch tool.Category() {
	case core.CategoryInfo:
		return map[string]any{"level": "low", "reasons": []string{"Only reads."}, "reversible": true}
	case core.CategoryEdit:
		return map[string]any{"level": "medium", "reasons": []string{"Changes files."}, "reversible": true}
	}
	return map[string]any{"level": "high", "reasons": []string{"Runs a program, which may change anything the user can."}, "reversible": false}
}

// preview shows what a call will do: an edit's diff, a command, a file's
// new content.
func (t *translator) preview(tool core.Tool, x *execution) map[string]any {
	if tool == nil {
		return nil
	}
	var a struct {
		Command string `json:"command"`
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	_ = json.Unmarshal(x.args, &a)
	switch {
	case tool.Category() == core.CategoryExec && a.Command != "":
		return map[string]any{"type": "command", "content": a.Command}
	case x.name == "edit":
		diff, _, err := tools.EditPreview(t.c.ag.Dir, x.args)
		if err != nil {
			return map[string]any{"type": "error", "content": err.Error()}
		}
		return map[string]any{"type": "diff", "content": clip(diff, maxPreviewBytes), "file": a.Path}
	case tool.Category() == core.CategoryEdit && a.Path != "":
		return map[string]any{"type": "file", "content": clip(a.Content, maxPreviewBytes), "file": a.Path}
	}
	return nil
}

// progress sends a running tool's latest output.
func (t *translator) progress(e core.ToolExecutionUpdate) {
	x := t.execFor(e.ToolCallID, e.ToolName)
	t.notify("tool.progress", map[string]any{
		"execution_id": x.id, "query_id": t.q.id,
		"progress": map[string]any{"status": "running", "message": tail(textOf(e.Partial.Content), maxProgressText)},
	})
}

// toolEnd sends tool.complete, and an edit's diff as a stream.block.
func (t *translator) toolEnd(e core.ToolExecutionEnd) {
	x := t.execFor(e.ToolCallID, e.ToolName)
	delete(t.q.calls, e.ToolCallID)
	text := textOf(e.Result.Content)
	status := "success"
	switch {
	case !e.Result.IsError:
	case approval.IsDenial(text) || strings.HasPrefix(text, approval.PolicyDenialPrefix):
		status = "denied"
	case t.q.cancelled:
		status = "cancelled"
	default:
		status = "error"
	}
	if status == "success" {
		t.q.tools = append(t.q.tools, e.ToolName)
	}
	var args struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal(x.args, &args)
	modified := []string{}
	tool := t.c.tools[e.ToolName]
	if status == "success" && tool != nil && tool.Category() == core.CategoryEdit && args.Path != "" {
		modified = append(modified, args.Path)
	}
	if status == "success" && len(e.Result.Details) > 0 {
		var d struct {
			Diff  string `json:"diff"`
			Patch string `json:"patch"`
		}
		if json.Unmarshal(e.Result.Details, &d) == nil && (d.Patch != "" || d.Diff != "") {
			content := d.Patch
			if content == "" {
				content = d.Diff
			}
			t.block(map[string]any{"type": "diff", "language": "diff", "content": content,
				"metadata": map[string]any{"file": args.Path, "diff": true, "execution_id": x.id}})
		}
	}
	t.notify("tool.complete", map[string]any{
		"execution_id": x.id, "query_id": t.q.id, "status": status,
		"result": map[string]any{
			"output": clip(text, maxToolOutput), "files_modified": modified,
			"duration_ms": t.c.cfg.Now().Sub(x.start).Milliseconds(),
		},
	})
}

// complete ends the query: stream.error first when it failed (code is
// then the error's code), then its one stream.complete.
func (t *translator) complete(code int, message string) {
	q := t.q
	t.q = nil
	status := "success"
	switch {
	case q.cancelled:
		status = "cancelled"
	case code != 0:
		status = "error"
		t.notify("stream.error", map[string]any{"query_id": q.id,
			"error": map[string]any{"code": code, "message": codeMessage(code), "details": message}})
	}
	elapsed := t.c.cfg.Now().Sub(q.start)
	meta := map[string]any{
		"total_tokens": q.usage.Output, "input_tokens": q.usage.Input, "output_tokens": q.usage.Output,
		"tools_executed": append([]string{}, q.tools...), "duration_ms": elapsed.Milliseconds(),
	}
	if q.model != "" {
		meta["model_used"] = q.model
	}
	if s := elapsed.Seconds(); s > 0 {
		meta["tokens_per_second"] = math.Round(float64(q.usage.Output)/s*10) / 10
	}
	t.c.mu.Lock()
	var next *pendingQuery
	if t.c.running == q.id {
		t.c.running = ""
		if len(t.c.queued) > 0 {
			next = t.c.queued[0]
			t.c.queued = t.c.queued[1:]
			t.c.running = next.id
		}
	}
	t.c.mu.Unlock()
	t.notify("stream.complete", map[string]any{"query_id": q.id, "status": status, "metadata": meta})
	if next != nil {
		t.start(next)
	}
}

// start runs a query that waited for the one before it. The translator is
// the session's subscriber, so the query's state is in place before the
// session publishes anything for it.
func (t *translator) start(p *pendingQuery) {
	t.q = &queryState{id: p.id, start: t.c.cfg.Now(), calls: map[string]*execution{}}
	if err := t.c.sess.Prompt(p.text, nil, agent.BehaviorNone); err != nil {
		t.complete(CodeAgentError, err.Error())
	}
}

// textOf joins the text blocks of content.
func textOf(content []core.Content) string {
	var b strings.Builder
	for _, c := range content {
		if c.Type == core.ContentText {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.FullText())
		}
	}
	return b.String()
}
