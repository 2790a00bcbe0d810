package aionrs

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// Marks the adapter places among the session's events (agent.Subscription
// .Mark), so its own frames come out in order with theirs.
type (
	// markLine is a finished frame.
	markLine struct{ line []byte }
	// markStart opens a turn: stream_start.
	markStart struct{ msgID string }
	// markRefused closes a turn the session refused to start.
	markRefused struct{ msgID, err string }
	// markEnd ends translation: nothing follows it.
	markEnd struct{}
	// markKeepAlive re-sends tool_running for the calls running at this
	// point of the stream (so never after a call's tool_result).
	markKeepAlive struct{}
)

func (markLine) EventType() string    { return "aionrs_line" }
func (markStart) EventType() string   { return "aionrs_start" }
func (markRefused) EventType() string { return "aionrs_refused" }
func (markEnd) EventType() string     { return "aionrs_end" }

func (markKeepAlive) EventType() string { return "aionrs_keep_alive" }

// maxOutputBytes bounds a tool_result's output; tools truncate their own
// results well below it.
const maxOutputBytes = 256 << 10

// tool_cancelled's reasons for calls a stop ended and for denials without
// a reason of the host's.
const (
	reasonStopped = "Cancelled: the client sent stop"
	reasonDenied  = "User denied"
)

// translate writes the frames for the session's events and the adapter's
// marks until markEnd, then closes written.
func (s *server) translate(written chan<- struct{}) {
	defer close(written)
	for e := range s.sub.Events() {
		if _, end := e.(markEnd); end {
			return
		}
		lines, then := s.frames(e)
		for _, l := range lines {
			if s.writeErr != nil {
				break
			}
			if err := s.write(l); err != nil {
				s.writeErr = err
				s.cancel() // nobody reads the output any more
			}
		}
		if then != nil {
			then()
		}
	}
}

func (s *server) write(b []byte) error {
	_, err := s.out.Write(b)
	return err
}

// frames translates one event under the lock. then, when set, runs after
// the frames are written, outside the lock (it calls into the session).
func (s *server) frames(e core.Event) (lines [][]byte, then func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch e := e.(type) {
	case markLine:
		return [][]byte{e.line}, nil
	case markStart:
		if s.turn != nil {
			s.turn.open = true
		}
		return [][]byte{line(msgFrame{Type: "stream_start", MsgID: e.msgID})}, nil
	case markRefused:
		s.turn = nil
		return [][]byte{errorLine(e.msgID, codeProvider, e.err, false), line(streamEndFrame{Type: "stream_end", MsgID: e.msgID})}, nil
	case core.Settled:
		// A set_config that waited applies after the stream_end.
		return s.settled(e), s.applyPendingConfig
	case markKeepAlive:
		return s.keepAliveFrames(), nil
	}
	t := s.turn
	if t == nil || !t.open {
		if q, ok := e.(core.Question); ok {
			// Nobody could answer it: the protocol asks only within a
			// message.
			return nil, func() { _ = s.sess.Dismiss(q.ID) }
		}
		return nil, nil // events of no message
	}
	switch e := e.(type) {
	case core.MessageUpdate:
		switch e.Kind {
		case core.UpdateTextDelta:
			return [][]byte{line(textFrame{Type: "text_delta", Text: e.Delta, MsgID: t.msgID})}, nil
		case core.UpdateThinkingDelta:
			return [][]byte{line(textFrame{Type: "thinking", Text: e.Delta, MsgID: t.msgID})}, nil
		}
	case core.MessageEnd:
		if m, ok := e.Message.(*core.AssistantMessage); ok {
			t.usage = t.usage.Add(m.Usage)
		}
	case core.TurnStart:
		t.rounds++
		if max := s.host.MaxTurns; max > 0 && t.rounds > max && !t.stopped {
			t.stopped = true
			msg := fmt.Sprintf("Stopped after %d turns (--max-turns)", max)
			return [][]byte{s.info(msg)}, s.sess.Abort
		}
	case core.ToolExecutionStart:
		t.calls[e.ToolCallID] = &call{id: e.ToolCallID, name: e.ToolName, category: s.category(e.ToolName), args: e.Args}
	case core.Question:
		return s.question(t, e)
	case core.QuestionClosed:
		return s.questionClosed(t, e), nil
	case core.ToolExecutionRunning:
		if c := t.calls[e.ToolCallID]; c != nil {
			return s.running(t, c), nil
		}
	case core.ToolExecutionUpdate:
		if c := t.calls[e.ToolCallID]; c != nil {
			return append(s.running(t, c), s.subagentInfo(e)...), nil
		}
	case core.ToolExecutionEnd:
		return s.toolEnd(t, e), nil
	case core.AutoRetryStart:
		return [][]byte{s.info(fmt.Sprintf("The request failed (%s); retrying in %s (%d/%d)",
			e.ErrorMessage, e.Delay.Round(100*time.Millisecond), e.Attempt, e.MaxAttempts))}, nil
	case core.Notice:
		return [][]byte{s.info(e.Message)}, nil
	}
	return nil, nil
}

func (s *server) info(message string) []byte {
	f := infoFrame{Type: "info", Message: message}
	if s.turn != nil {
		f.MsgID = &s.turn.msgID
	}
	return line(f)
}

// settled ends the turn: the final error, if any and not caused by stop,
// then stream_end with the turn's usage. The turn is cleared first, so a
// message the host sends on reading stream_end is accepted.
func (s *server) settled(e core.Settled) [][]byte {
	t := s.turn
	if t == nil {
		return nil
	}
	s.turn = nil
	for id, c := range s.questions {
		if t.calls[c.id] == c {
			delete(s.questions, id)
		}
	}
	var out [][]byte
	if e.Error != "" && !t.stopped {
		out = append(out, errorLine(t.msgID, codeProvider, e.Error, false))
	}
	return append(out, line(streamEndFrame{Type: "stream_end", MsgID: t.msgID, Usage: usageOf(t.usage)}))
}

// question handles a question of the core gate. An approval becomes a
// tool_request (after a scope "always" the gate's rule lets the calls it
// covers through without asking). The protocol has no way to
// put other questions to the host, so they are dismissed (tool_deny gives
// its reason with the choice, so the gate never asks for one).
func (s *server) question(t *turn, q core.Question) ([][]byte, func()) {
	dismiss := func() { _ = s.sess.Dismiss(q.ID) }
	c := t.calls[q.ToolCallID]
	switch {
	case c == nil:
		return nil, dismiss
	case q.Purpose != core.PurposeApproval:
		return nil, dismiss
	}
	c.question, c.options = q.ID, q.Options
	s.questions[q.ID] = c
	return [][]byte{line(toolRequestFrame{Type: "tool_request", MsgID: t.msgID, CallID: c.id,
		Tool: toolInfo{Name: c.name, Category: string(c.category), Args: aionrsArgs(c.args), Description: describe(c.name, c.args)}})}, nil
}

// questionClosed: an approved call is about to run.
func (s *server) questionClosed(t *turn, e core.QuestionClosed) [][]byte {
	c := s.questions[e.ID]
	if c == nil {
		return nil
	}
	delete(s.questions, e.ID)
	c.question = ""
	if e.Outcome != core.Answered {
		c.verdict = unanswered
		return nil
	}
	if c.verdict == approved {
		return s.running(t, c)
	}
	return nil
}

// keepAlive places a markKeepAlive in the stream at every tick until
// serving ends.
func (s *server) keepAlive(ticks <-chan time.Time) {
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-ticks:
			s.sub.Mark(markKeepAlive{})
		}
	}
}

// keepAliveFrames are tool_running again for each call that is running:
// its tool_running was written and its result was not.
func (s *server) keepAliveFrames() [][]byte {
	t := s.turn
	if t == nil || !t.open {
		return nil
	}
	var out [][]byte
	for _, c := range t.calls {
		if c.running {
			out = append(out, line(toolRunningFrame{Type: "tool_running", MsgID: t.msgID, CallID: c.id, ToolName: c.name}))
		}
	}
	return out
}

// running writes tool_running once per call.
func (s *server) running(t *turn, c *call) [][]byte {
	if c.running || c.verdict == denied || c.verdict == unanswered {
		return nil
	}
	c.running = true
	return [][]byte{line(toolRunningFrame{Type: "tool_running", MsgID: t.msgID, CallID: c.id, ToolName: c.name})}
}

// toolEnd writes the call's one terminal frame: tool_cancelled for a
// denied call or one a stop ended, tool_result otherwise.
func (s *server) toolEnd(t *turn, e core.ToolExecutionEnd) [][]byte {
	c := t.calls[e.ToolCallID]
	if c == nil {
		c = &call{id: e.ToolCallID, name: e.ToolName, category: s.category(e.ToolName)}
	}
	delete(t.calls, e.ToolCallID)
	cancel := func(reason string) [][]byte {
		return [][]byte{line(toolCancelledFrame{Type: "tool_cancelled", MsgID: t.msgID, CallID: c.id, Reason: reason})}
	}
	switch {
	case c.verdict == denied && c.reason != "":
		return cancel(c.reason)
	case c.verdict == denied:
		return cancel(reasonDenied)
	case c.verdict == unanswered && t.stopped:
		return cancel(reasonStopped)
	case c.verdict == unanswered:
		return cancel("The approval went unanswered")
	case t.stopped && e.Result.IsError:
		return cancel(reasonStopped)
	}
	out := s.running(t, c)
	return append(out, line(s.result(t, c, e.Result)))
}

// result builds tool_result; a successful edit reports its unified diff.
func (s *server) result(t *turn, c *call, r core.ToolResult) toolResultFrame {
	f := toolResultFrame{Type: "tool_result", MsgID: t.msgID, CallID: c.id, ToolName: c.name,
		Status: "success", Output: resultText(r), OutputType: "text"}
	if r.IsError {
		f.Status = "error"
		return f
	}
	if c.category == core.CategoryEdit {
		var d struct {
			Patch string `json:"patch"`
		}
		if json.Unmarshal(r.Details, &d) == nil && d.Patch != "" {
			f.Output, f.OutputType = d.Patch, "diff"
			f.Metadata = &resultMetadata{FilePath: s.filePath(c.args)}
		}
	}
	return f
}

// filePath is the file an edit call names, as the tools resolved it
// against the workspace ('@', '~' and links followed).
func (s *server) filePath(args []byte) string {
	p := stringArg(args, "path")
	if p == "" {
		p = stringArg(args, "file_path")
	}
	if p == "" || s.host.Dir == "" && !filepath.IsAbs(p) {
		return p
	}
	return toolpath.Resolve(p, s.host.Dir)
}

func resultText(r core.ToolResult) string {
	out := core.PlainText(r.Content)
	if len(out) > maxOutputBytes {
		cut := maxOutputBytes
		for cut > 0 && out[cut]&0xC0 == 0x80 {
			cut-- // do not split a UTF-8 sequence
		}
		out = out[:cut] + "\n[output truncated]"
	}
	return out
}

// describe is a one-line description of a call: the tool and what it acts
// on ("bash: git status"), its control characters escaped so that a host
// showing it shows all of it.
func describe(name string, args []byte) string {
	for _, key := range []string{"command", "path", "file_path", "pattern"} {
		if v := stringArg(args, key); v != "" {
			if i := strings.IndexByte(v, '\n'); i >= 0 {
				v = v[:i] + " …"
			}
			return escape.Visible(name + ": " + v)
		}
	}
	return escape.Visible(name)
}

func stringArg(args []byte, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	var v string
	if json.Unmarshal(m[key], &v) != nil {
		return ""
	}
	return v
}

// aionrsArgs are a call's arguments as aionrs names them, for the host's
// confirmation dialog: AionUi reads an edit's file from file_path, so
// cairn's path is sent under that name. Other arguments are unchanged.
func aionrsArgs(args []byte) json.RawMessage {
	raw := rawArgs(args)
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m["path"] == nil || m["file_path"] != nil {
		return raw
	}
	m["file_path"] = m["path"]
	delete(m, "path")
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// rawArgs is a call's arguments as a JSON object ({} when missing).
func rawArgs(args []byte) json.RawMessage {
	if len(args) == 0 || !json.Valid(args) {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(args)
}
