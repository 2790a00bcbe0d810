package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/jsonscan"
)

// writer turns one thread's events into session/update notifications and
// writes the adapter's own frames for it (marks) in order with them. It
// runs on one goroutine, which owns its fields.
type writer struct {
	srv  *server
	t    *thread
	sess *agent.Session // the session whose events it reads
	out  *output

	sessionID string
	promptID  json.RawMessage // the unanswered session/prompt, nil when none
	calls     map[string]*toolCall
	plans     map[string]bool // open calls of the plan tool, shown only as the plan
	// retitle maps a subagent's open question to the task call whose card
	// shows it, to give the card its title back when it closes.
	retitle map[string]string
	order   []string // open calls, in the order they started
	last    *core.AssistantMessage
	line    []byte
	// answering says an answer is streaming: a notice waits in held for
	// its end, so it never lands in the middle of a sentence. tail is the
	// end of the last message chunk, to set a notice apart from it.
	answering bool
	held      []core.Notice
	tail      string
	// own is the text of this client's prompt not yet seen as the
	// session's user message (attached clients only).
	own string
	// asked are the questions put to the client, so one is never put
	// twice (an attached client may learn of it twice).
	asked map[string]bool
}

// othersPrompt shows an attached client a prompt another client (the
// owner's front end, another attached one) sent: a client shows its own
// prompts itself, and would never learn of the others'.
func (w *writer) othersPrompt(m *core.UserMessage) {
	if w.srv.live == nil {
		return
	}
	text := m.Text()
	if w.own != "" && text == w.own {
		w.own = ""
		return
	}
	if text != "" {
		w.update(contentChunk{SessionUpdate: "user_message_chunk", Content: textBlock{Type: "text", Text: text}})
	}
}

// stillOpen reports whether question id still waits for an answer.
func (w *writer) stillOpen(id string) bool {
	for _, q := range w.sess.OpenQuestions() {
		if q.ID == id {
			return true
		}
	}
	return false
}

func (w *writer) run(sub *agent.Subscription, done chan<- struct{}) {
	defer close(done)
	w.calls, w.plans, w.retitle, w.asked = map[string]*toolCall{}, map[string]bool{}, map[string]string{}, map[string]bool{}
	events := sub.Events()
	for e := range events {
		if _, end := e.(markEnd); end {
			break
		}
		w.handle(e)
		if len(events) == 0 {
			w.out.flush()
		}
	}
	w.out.flush()
}

// write writes one frame line.
func (w *writer) write(line []byte) { w.out.write(line) }

// update writes a session/update notification for the open session.
func (w *writer) update(u any) {
	if w.sessionID == "" {
		return
	}
	line, err := json.Marshal(outRequest{JSONRPC: "2.0", Method: "session/update", Params: sessionUpdate{SessionID: w.sessionID, Update: u}})
	if err != nil {
		w.srv.warn("acp: cannot encode an update: %v", err)
		return
	}
	w.write(line)
}

// chunk writes a message or thought chunk; it is the hot path of a turn,
// so it is encoded by hand.
func (w *writer) chunk(kind, text string) {
	if w.sessionID == "" || text == "" {
		return
	}
	b := append(w.line[:0], `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":`...)
	b = jsonscan.AppendString(b, w.sessionID)
	b = append(b, `,"update":{"sessionUpdate":"`...)
	b = append(b, kind...)
	b = append(b, `","content":{"type":"text","text":`...)
	b = jsonscan.AppendString(b, text)
	b = append(b, "}}}}"...)
	w.line = b
	w.write(b)
	if kind == "agent_message_chunk" {
		w.tail = lastBytes(w.tail+text, 2)
	}
}

// lastBytes is the last n bytes of s.
func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// handle translates one event or mark.
func (w *writer) handle(e core.Event) {
	switch e := e.(type) {
	case markLine:
		w.write(e.line)
	case markReplay:
		w.replay(e.msgs)
	case markPrompt:
		w.promptID, w.last, w.tail = e.id, nil, ""
		w.own = e.text
	case markOpenQuestion:
		// Asked already when it was also published after the client
		// subscribed; answered meanwhile when it is no longer open.
		if !w.asked[e.q.ID] && w.stillOpen(e.q.ID) {
			w.asked[e.q.ID] = true
			w.srv.ask(w, e.q)
		}
	case markNotice:
		w.notice(e.notice)
	case markRefused:
		w.promptID = nil
		w.srv.endPrompt(w.t)
		if e.err == nil {
			w.write(w.mustMarshal(response{JSONRPC: "2.0", ID: e.id, Result: promptResult{StopReason: "cancelled"}}))
			break
		}
		w.write(w.mustMarshal(response{JSONRPC: "2.0", ID: e.id, Error: e.err}))
	case core.MessageUpdate:
		switch e.Kind {
		case core.UpdateTextDelta:
			w.chunk("agent_message_chunk", e.Delta)
		case core.UpdateThinkingDelta:
			w.chunk("agent_thought_chunk", e.Delta)
		}
	case core.MessageStart:
		switch m := e.Message.(type) {
		case *core.AssistantMessage:
			w.answering = true
		case *core.UserMessage:
			w.othersPrompt(m)
		}
	case core.MessageEnd:
		if m, ok := e.Message.(*core.AssistantMessage); ok {
			w.last = m
			w.answering = false
			w.flushNotices()
		}
	case core.ToolExecutionStart:
		w.toolStarted(e)
	case core.ToolExecutionRunning:
		w.running(e.ToolCallID)
	case core.ToolExecutionUpdate:
		w.toolProgress(e)
	case core.ToolExecutionEnd:
		w.toolEnded(e.ToolCallID, e.Result)
		if e.ToolName == approval.ExitPlanModeTool && !e.Result.IsError {
			// The person accepted the plan: the gate left plan mode.
			w.update(currentModeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: string(w.t.b.host.Approvals.Mode())})
			w.update(configOptionUpdate{SessionUpdate: "config_option_update", ConfigOptions: w.srv.configOptions(w.t.b)})
		}
	case core.Question:
		if w.asked[e.ID] {
			break
		}
		w.asked[e.ID] = true
		w.srv.ask(w, e)
	case core.QuestionClosed:
		w.questionClosed(e)
	case core.ModelChanged, core.ThinkingLevelChanged:
		w.update(configOptionUpdate{SessionUpdate: "config_option_update", ConfigOptions: w.srv.configOptions(w.t.b)})
	case core.SessionInfoChanged:
		w.update(sessionInfoUpdate{SessionUpdate: "session_info_update", Title: e.Name})
	case core.Notice:
		w.notice(e)
	case core.AutoRetryStart:
		// Without it the editor shows nothing while cairn waits to retry
		// (seconds, for a 429 or a 500).
		w.chunk("agent_thought_chunk", fmt.Sprintf("cairn: the model request failed (%s); retrying in %s (attempt %d of %d)\n",
			escape.Visible(e.ErrorMessage), retryDelay(e.Delay), e.Attempt, e.MaxAttempts))
	case core.AutoCompactionStart:
		w.chunk("agent_thought_chunk", "cairn: compacting the conversation to fit the model's context window\n")
	case core.Settled:
		w.settled(e)
	}
}

// notice shows the editor what the session wants the person to know (the
// MCP servers a prompt waits for, gives up on, or that failed). ACP has no
// update for notices: progress goes as a thought, a warning or an error
// into the agent's message, set apart, where the person reads it.
func (w *writer) notice(n core.Notice) {
	if n.Level == core.NotifyInfo {
		w.chunk("agent_thought_chunk", "cairn: "+n.Message+"\n")
		return
	}
	if w.answering {
		w.held = append(w.held, n)
		return
	}
	// A blank line before, unless the message already ends with one: a
	// quote glued to the answer's last line reads as part of it.
	sep := "\n\n"
	switch {
	case w.tail == "" || strings.HasSuffix(w.tail, "\n\n"):
		sep = ""
	case strings.HasSuffix(w.tail, "\n"):
		sep = "\n"
	}
	w.chunk("agent_message_chunk", sep+"> cairn: "+strings.ReplaceAll(n.Message, "\n", "\n> ")+"\n\n")
}

// flushNotices shows the notices held while an answer streamed.
func (w *writer) flushNotices() {
	held := w.held
	w.held = nil
	for _, n := range held {
		w.notice(n)
	}
}

// retryDelay is a wait as a person reads it: "2s", "1.5s", "250ms".
func retryDelay(d time.Duration) string {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// settled answers the open prompt: every open tool call is closed first,
// then the context's use is reported, then the response ends the turn.
func (w *writer) settled(e core.Settled) {
	w.answering = false
	w.flushNotices()
	if w.promptID == nil {
		return
	}
	for _, id := range append([]string(nil), w.order...) {
		w.toolEnded(id, core.ToolResult{IsError: true, Content: []core.Content{core.TextBlock("The tool call did not finish: the turn ended.")}})
	}
	if u := w.sess.ContextUsage(); u.Known && u.Window > 0 {
		up := usageUpdate{SessionUpdate: "usage_update", Used: u.Tokens, Size: u.Window}
		// The cost is the session's, its subagents' included; left out
		// while the model's prices are unknown (nothing spent).
		if total := w.sess.Stats().Usage.Cost.Total; total > 0 {
			up.Cost = &usageCost{Amount: total, Currency: "USD"}
		}
		w.update(up)
	}
	id := w.promptID
	w.promptID = nil
	cancelled := w.srv.endPrompt(w.t)
	reason, rerr := stopReason(cancelled, w.last, e.Error)
	if rerr != nil {
		w.write(w.mustMarshal(response{JSONRPC: "2.0", ID: id, Error: rerr}))
		return
	}
	w.write(w.mustMarshal(response{JSONRPC: "2.0", ID: id, Result: promptResult{StopReason: reason}}))
}

// stopReason reads how a turn ended. A turn that failed is answered with
// an internal error carrying the provider's message: ACP has no stop
// reason for it.
func stopReason(cancelled bool, last *core.AssistantMessage, settledErr string) (string, *rpcError) {
	if cancelled || (last != nil && last.StopReason == core.StopAborted) {
		return "cancelled", nil
	}
	if last != nil {
		switch last.StopReason {
		case core.StopLength:
			return "max_tokens", nil
		case core.StopError:
			msg := last.ErrorMessage
			if msg == "" {
				msg = settledErr
			}
			return "", errorf(CodeInternalError, "the model request failed: %s", msg)
		}
		switch strings.ToLower(last.RawStopReason) {
		case "refusal", "content_filter", "safety":
			return "refusal", nil
		}
	}
	if settledErr != "" {
		return "", errorf(CodeInternalError, "the turn failed: %s", settledErr)
	}
	return "end_turn", nil
}

// mustMarshal encodes a frame built from plain structs, strings and raw
// JSON validated on the way in, which cannot fail; if it did, the frame is
// dropped (write skips nil) with a warning rather than a crash.
func (w *writer) mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		w.srv.warn("acp: cannot encode a frame: %v", err)
		return nil
	}
	return b
}

// The update shapes.
type (
	sessionUpdate struct {
		SessionID string `json:"sessionId"`
		Update    any    `json:"update"`
	}
	contentChunk struct {
		SessionUpdate string    `json:"sessionUpdate"`
		Content       textBlock `json:"content"`
	}
	textBlock struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	configOptionUpdate struct {
		SessionUpdate string         `json:"sessionUpdate"`
		ConfigOptions []configOption `json:"configOptions"`
	}
	currentModeUpdate struct {
		SessionUpdate string `json:"sessionUpdate"`
		CurrentModeID string `json:"currentModeId"`
	}
	sessionInfoUpdate struct {
		SessionUpdate string `json:"sessionUpdate"`
		Title         string `json:"title"`
	}
	usageUpdate struct {
		SessionUpdate string     `json:"sessionUpdate"`
		Used          int        `json:"used"`
		Size          int        `json:"size"`
		Cost          *usageCost `json:"cost,omitempty"`
	}
	usageCost struct {
		Amount   float64 `json:"amount"`
		Currency string  `json:"currency"`
	}
	availableCommandsUpdate struct {
		SessionUpdate     string    `json:"sessionUpdate"`
		AvailableCommands []command `json:"availableCommands"`
	}
	command struct {
		Name        string        `json:"name"`
		Description string        `json:"description"`
		Input       *commandInput `json:"input,omitempty"`
	}
	commandInput struct {
		Hint string `json:"hint"`
	}
	promptResult struct {
		StopReason string `json:"stopReason"`
	}
)
