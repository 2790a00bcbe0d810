package pi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/cairn-dev/cairn/core"
)

// AppendEvent appends e as one pi event line (without the newline) to dst,
// in pi 0.87's shapes, or pi 0.73.1's with compat073 (`--mode json`). ok is
// false for events pi has no frame for, which are then not written.
//
// message_update is written by hand: it is most of the traffic.
func AppendEvent(dst []byte, e core.Event, compat073 bool) (out []byte, ok bool, err error) {
	return appendEvent(dst, e, wire{full: compat073, v073: compat073})
}

// wire says which of pi's shapes events are written in. The zero value is
// pi 0.87's: delta-only message_update frames with the running usage, so a
// long answer costs linear bytes.
type wire struct {
	// full writes pi 0.73's cumulative message_update frames: the partial
	// message after every delta, twice (set_event_filter's messageUpdates
	// "full", for hosts written for pi 0.73).
	full bool
	// v073 writes pi 0.73.1's shapes throughout (Host.Compat "0.73"): full
	// message_update frames, and none of what pi added since (a streaming
	// answer's "pending" stop reason, agent_end's willRetry).
	v073 bool
}

// appendEvent is AppendEvent in the shapes w chooses.
func appendEvent(dst []byte, e core.Event, w wire) (out []byte, ok bool, err error) {
	switch e := e.(type) {
	case core.MessageUpdate:
		if w.full {
			return appendFullUpdate(dst, e)
		}
		return appendDeltaUpdate(dst, e)
	case core.AgentStart, core.TurnStart:
		return appendJSON(dst, struct {
			Type string `json:"type"`
		}{e.EventType()})
	case core.AgentEnd:
		msgs := e.Messages
		if msgs == nil {
			msgs = []core.Message{}
		}
		if w.v073 {
			msgs = withoutSystem(msgs)
			return appendJSON(dst, struct {
				Type     string         `json:"type"`
				Messages []core.Message `json:"messages"`
			}{"agent_end", msgs})
		}
		return appendJSON(dst, struct {
			Type      string         `json:"type"`
			Messages  []core.Message `json:"messages"`
			WillRetry bool           `json:"willRetry"`
		}{"agent_end", msgs, e.WillRetry})
	case core.TurnEnd:
		results := e.ToolResults
		if results == nil {
			results = []*core.ToolResultMessage{}
		}
		return appendJSON(dst, struct {
			Type        string                    `json:"type"`
			Message     *core.AssistantMessage    `json:"message"`
			ToolResults []*core.ToolResultMessage `json:"toolResults"`
		}{"turn_end", e.Message, results})
	case core.MessageStart:
		if _, ok := e.Message.(*core.SystemMessage); ok && w.v073 {
			return dst, false, nil // pi 0.73 had no system messages
		}
		if a, ok := e.Message.(*core.AssistantMessage); ok && a.StopReason == "" {
			// An answer that has only begun: pi 0.87 says "pending", pi
			// 0.73 said "stop".
			begun := *a
			begun.StopReason = stopPending
			if w.v073 {
				begun.StopReason = core.StopEnd
			}
			return appendJSON(dst, messageFrame{"message_start", &begun})
		}
		return appendJSON(dst, messageFrame{"message_start", e.Message})
	case core.MessageEnd:
		if _, ok := e.Message.(*core.SystemMessage); ok && w.v073 {
			return dst, false, nil
		}
		return appendJSON(dst, messageFrame{"message_end", e.Message})
	case core.ToolExecutionStart:
		return appendJSON(dst, struct {
			Type       string          `json:"type"`
			ToolCallID string          `json:"toolCallId"`
			ToolName   string          `json:"toolName"`
			Args       json.RawMessage `json:"args"`
		}{"tool_execution_start", e.ToolCallID, e.ToolName, args(e.Args)})
	case core.ToolExecutionUpdate:
		return appendJSON(dst, struct {
			Type          string          `json:"type"`
			ToolCallID    string          `json:"toolCallId"`
			ToolName      string          `json:"toolName"`
			Args          json.RawMessage `json:"args"`
			PartialResult resultFrame     `json:"partialResult"`
		}{"tool_execution_update", e.ToolCallID, e.ToolName, args(e.Args), resultFrame{content(e.Partial.Content), updateDetails(e.Partial, w)}})
	case core.ToolExecutionEnd:
		// pi 1.5's durationMs, an additive field, for a tool that ran.
		var ms *int64
		if e.Duration != nil && !w.v073 {
			n := e.Duration.Milliseconds()
			ms = &n
		}
		return appendJSON(dst, struct {
			Type       string      `json:"type"`
			ToolCallID string      `json:"toolCallId"`
			ToolName   string      `json:"toolName"`
			Result     resultFrame `json:"result"`
			IsError    bool        `json:"isError"`
			DurationMs *int64      `json:"durationMs,omitempty"`
		}{"tool_execution_end", e.ToolCallID, e.ToolName, resultFrame{content(e.Result.Content), e.Result.Details}, e.Result.IsError, ms})
	case core.AutoRetryStart:
		return appendJSON(dst, struct {
			Type         string `json:"type"`
			Attempt      int    `json:"attempt"`
			MaxAttempts  int    `json:"maxAttempts"`
			DelayMs      int64  `json:"delayMs"`
			ErrorMessage string `json:"errorMessage"`
		}{"auto_retry_start", e.Attempt, e.MaxAttempts, e.Delay.Milliseconds(), e.ErrorMessage})
	case core.AutoRetryEnd:
		return appendJSON(dst, struct {
			Type       string `json:"type"`
			Success    bool   `json:"success"`
			Attempt    int    `json:"attempt"`
			FinalError string `json:"finalError,omitempty"`
		}{"auto_retry_end", e.Success, e.Attempt, e.FinalError})
	case core.AutoCompactionStart:
		// pi 0.87 names every compaction's events alike, with its reason;
		// pi 0.73 named the automatic ones apart.
		name := "compaction_start"
		if w.v073 {
			name = "auto_compaction_start"
		}
		return appendJSON(dst, struct {
			Type   string `json:"type"`
			Reason string `json:"reason"`
		}{name, string(e.Reason)})
	case core.AutoCompactionEnd:
		if w.v073 {
			return appendJSON(dst, struct {
				Type         string            `json:"type"`
				Result       *CompactionResult `json:"result,omitempty"`
				Aborted      bool              `json:"aborted"`
				WillRetry    bool              `json:"willRetry"`
				ErrorMessage string            `json:"errorMessage,omitempty"`
			}{"auto_compaction_end", NewCompactionResult(e.Result, true), e.Aborted, e.WillRetry, e.ErrorMessage})
		}
		return appendJSON(dst, struct {
			Type         string            `json:"type"`
			Reason       string            `json:"reason"`
			Result       *CompactionResult `json:"result,omitempty"`
			Aborted      bool              `json:"aborted"`
			WillRetry    bool              `json:"willRetry"`
			ErrorMessage string            `json:"errorMessage,omitempty"`
		}{"compaction_end", string(e.Reason), NewCompactionResult(e.Result, false), e.Aborted, e.WillRetry, e.ErrorMessage})
	case core.EntryAppended:
		if w.v073 {
			break // pi 0.73 had no context edits
		}
		return appendJSON(dst, struct {
			Type  string         `json:"type"`
			Entry json.Marshaler `json:"entry"`
		}{"entry_appended", e.Entry})
	case core.SummarizationRetryScheduled:
		if w.v073 {
			break // pi 0.73 had no summary retries
		}
		return appendJSON(dst, struct {
			Type         string `json:"type"`
			Attempt      int    `json:"attempt"`
			MaxAttempts  int    `json:"maxAttempts"`
			DelayMs      int64  `json:"delayMs"`
			ErrorMessage string `json:"errorMessage"`
		}{"summarization_retry_scheduled", e.Attempt, e.MaxAttempts, e.Delay.Milliseconds(), e.ErrorMessage})
	case core.SummarizationRetryAttemptStart:
		if w.v073 {
			break
		}
		return appendJSON(dst, struct {
			Type   string `json:"type"`
			Source string `json:"source"`
			Reason string `json:"reason"`
		}{"summarization_retry_attempt_start", "compaction", string(e.Reason)})
	case core.SummarizationRetryFinished:
		if w.v073 {
			break
		}
		return appendJSON(dst, struct {
			Type string `json:"type"`
		}{"summarization_retry_finished"})
	case core.QueueUpdate:
		return appendJSON(dst, struct {
			Type     string   `json:"type"`
			Steering []string `json:"steering"`
			FollowUp []string `json:"followUp"`
		}{"queue_update", nonNil(e.Steering), nonNil(e.FollowUp)})
	case core.ThinkingLevelChanged:
		return appendJSON(dst, struct {
			Type  string `json:"type"`
			Level string `json:"level"`
		}{"thinking_level_changed", string(e.Level)})
	case core.SessionInfoChanged:
		return appendJSON(dst, struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}{"session_info_changed", e.Name})
	case core.Settled:
		if w.v073 {
			return appendJSON(dst, struct {
				Type  string `json:"type"`
				Error string `json:"error,omitempty"`
			}{"agent_settled", e.Error})
		}
		// pi 1.5's aborted, an additive field; error is cairn's own.
		return appendJSON(dst, struct {
			Type    string `json:"type"`
			Aborted bool   `json:"aborted"`
			Error   string `json:"error,omitempty"`
		}{"agent_settled", e.Aborted, e.Error})
	}
	return dst, false, nil
}

// withoutSystem leaves out system messages, for pi 0.73's shapes, which had
// none.
func withoutSystem(msgs []core.Message) []core.Message {
	out := make([]core.Message, 0, len(msgs))
	for _, m := range msgs {
		if _, ok := m.(*core.SystemMessage); !ok {
			out = append(out, m)
		}
	}
	return out
}

// stopPending is pi 0.87's stop reason of an answer that has only begun.
const stopPending core.StopReason = "pending"

// CompactionResult is pi's CompactionResult payload. pi 0.79 added the
// estimate of the compacted context and the summary's usage.
type CompactionResult struct {
	Summary              string            `json:"summary"`
	FirstKeptEntryID     string            `json:"firstKeptEntryId"`
	TokensBefore         int               `json:"tokensBefore"`
	EstimatedTokensAfter *int              `json:"estimatedTokensAfter,omitempty"`
	Usage                *core.Usage       `json:"usage,omitempty"`
	Details              CompactionDetails `json:"details"`
}

// CompactionDetails lists the files a compacted part of the conversation
// read and modified.
type CompactionDetails struct {
	ReadFiles     []string `json:"readFiles"`
	ModifiedFiles []string `json:"modifiedFiles"`
}

// NewCompactionResult converts a core result to pi's shape, pi 0.73's
// without the fields added since; nil stays nil.
func NewCompactionResult(r *core.CompactionResult, compat073 bool) *CompactionResult {
	if r == nil {
		return nil
	}
	out := &CompactionResult{
		Summary:          r.Summary,
		FirstKeptEntryID: r.FirstKeptEntryID,
		TokensBefore:     r.TokensBefore,
		Details:          CompactionDetails{ReadFiles: nonNil(r.ReadFiles), ModifiedFiles: nonNil(r.ModifiedFiles)},
	}
	if !compat073 {
		est, usage := r.EstimatedTokensAfter, r.Usage
		out.EstimatedTokensAfter, out.Usage = &est, &usage
	}
	return out
}

type messageFrame struct {
	Type    string       `json:"type"`
	Message core.Message `json:"message"`
}

type resultFrame struct {
	Content []core.Content  `json:"content"`
	Details json.RawMessage `json:"details,omitempty"`
}

func content(c []core.Content) []core.Content {
	if c == nil {
		return []core.Content{}
	}
	return c
}

func args(a []byte) json.RawMessage {
	if len(a) == 0 {
		return json.RawMessage(`{}`)
	}
	return a
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func appendJSON(dst []byte, v any) ([]byte, bool, error) {
	data, err := marshal(v)
	if err != nil {
		return dst, false, err
	}
	return append(dst, data...), true, nil
}

// updateKindNames are pi's assistantMessageEvent types.
var updateKindNames = [...]string{
	core.UpdateTextStart: "text_start", core.UpdateTextDelta: "text_delta", core.UpdateTextEnd: "text_end",
	core.UpdateThinkingStart: "thinking_start", core.UpdateThinkingDelta: "thinking_delta", core.UpdateThinkingEnd: "thinking_end",
	core.UpdateToolCallStart: "toolcall_start", core.UpdateToolCallDelta: "toolcall_delta", core.UpdateToolCallEnd: "toolcall_end",
}

// appendEventHead writes the part of pi's assistantMessageEvent every
// shape shares: type, contentIndex, the tool call's id and name on
// toolcall_start (pi 0.84.3+), and the delta or the block's final content.
func appendEventHead(dst []byte, e core.MessageUpdate, callIdentity bool) ([]byte, error) {
	dst = append(dst, `{"type":`...)
	dst = core.AppendJSONString(dst, updateKindNames[e.Kind])
	dst = append(dst, `,"contentIndex":`...)
	dst = strconv.AppendInt(dst, int64(e.Index), 10)
	var block *core.Content
	if e.Index >= 0 && e.Index < len(e.Message.Content) {
		block = &e.Message.Content[e.Index]
	}
	switch e.Kind {
	case core.UpdateToolCallStart:
		if callIdentity && block != nil {
			dst = append(dst, `,"id":`...)
			dst = core.AppendJSONString(dst, block.ID)
			dst = append(dst, `,"toolName":`...)
			dst = core.AppendJSONString(dst, block.Name)
		}
	case core.UpdateTextDelta, core.UpdateThinkingDelta, core.UpdateToolCallDelta:
		dst = append(dst, `,"delta":`...)
		dst = core.AppendJSONString(dst, e.Delta)
	case core.UpdateTextEnd:
		if block != nil {
			dst = append(dst, `,"content":`...)
			dst = core.AppendJSONString(dst, block.Text)
		}
	case core.UpdateThinkingEnd:
		if block != nil {
			dst = append(dst, `,"content":`...)
			dst = core.AppendJSONString(dst, block.Thinking)
		}
	case core.UpdateToolCallEnd:
		if block != nil {
			call, err := block.MarshalJSON()
			if err != nil {
				return dst, err
			}
			dst = append(dst, `,"toolCall":`...)
			dst = append(dst, call...)
		}
	}
	return dst, nil
}

// appendDeltaUpdate writes pi 0.87's frame:
// {"type":"message_update","usage":U,"assistantMessageEvent":{...}}.
func appendDeltaUpdate(dst []byte, e core.MessageUpdate) ([]byte, bool, error) {
	dst = append(dst, `{"type":"message_update","usage":`...)
	dst = appendUsage(dst, &e.Message.Usage)
	dst = append(dst, `,"assistantMessageEvent":`...)
	dst, err := appendEventHead(dst, e, true)
	if err != nil {
		return dst, false, err
	}
	return append(dst, '}', '}'), true, nil
}

// appendFullUpdate writes pi 0.73's frame:
// {"type":"message_update","assistantMessageEvent":{...,"partial":M},"message":M}.
// The message is encoded once and its bytes copied.
func appendFullUpdate(dst []byte, e core.MessageUpdate) ([]byte, bool, error) {
	dst = append(dst, `{"type":"message_update","assistantMessageEvent":`...)
	dst, err := appendEventHead(dst, e, false)
	if err != nil {
		return dst, false, err
	}
	dst = append(dst, `,"partial":`...)
	start := len(dst)
	dst, err = appendAssistant(dst, e.Message)
	if err != nil {
		return dst, false, err
	}
	dst = append(dst, `},"message":`...)
	// The same message again: copy the bytes just written.
	dst = append(dst, dst[start:len(dst)-len(`},"message":`)]...)
	return append(dst, '}'), true, nil
}

// appendUsage writes u as its JSON encoding does, without reflection: a
// delta-only frame carries it every time.
func appendUsage(dst []byte, u *core.Usage) []byte {
	dst = append(dst, `{"input":`...)
	dst = strconv.AppendInt(dst, int64(u.Input), 10)
	dst = append(dst, `,"output":`...)
	dst = strconv.AppendInt(dst, int64(u.Output), 10)
	dst = append(dst, `,"cacheRead":`...)
	dst = strconv.AppendInt(dst, int64(u.CacheRead), 10)
	dst = append(dst, `,"cacheWrite":`...)
	dst = strconv.AppendInt(dst, int64(u.CacheWrite), 10)
	if u.Reasoning != nil {
		dst = append(dst, `,"reasoning":`...)
		dst = strconv.AppendInt(dst, int64(*u.Reasoning), 10)
	}
	dst = append(dst, `,"totalTokens":`...)
	dst = strconv.AppendInt(dst, int64(u.TotalTokens), 10)
	dst = append(dst, `,"cost":{"input":`...)
	dst = appendFloat(dst, u.Cost.Input)
	dst = append(dst, `,"output":`...)
	dst = appendFloat(dst, u.Cost.Output)
	dst = append(dst, `,"cacheRead":`...)
	dst = appendFloat(dst, u.Cost.CacheRead)
	dst = append(dst, `,"cacheWrite":`...)
	dst = appendFloat(dst, u.Cost.CacheWrite)
	dst = append(dst, `,"total":`...)
	dst = appendFloat(dst, u.Cost.Total)
	dst = append(dst, '}')
	if u.CacheWrite1h != nil {
		dst = append(dst, `,"cacheWrite1h":`...)
		dst = strconv.AppendInt(dst, int64(*u.CacheWrite1h), 10)
	}
	return append(dst, '}')
}

// appendFloat writes f as encoding/json does: the shortest form, with an
// exponent only for very small or very large magnitudes (e-7, not e-07).
func appendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, '0') // encoding/json would fail; a cost is never either
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(dst) - start
		if n >= 4 && dst[len(dst)-4] == 'e' && dst[len(dst)-3] == '-' && dst[len(dst)-2] == '0' {
			dst[len(dst)-2] = dst[len(dst)-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst
}

// appendAssistant writes m exactly as its MarshalJSON does, straight into
// dst: message_update frames carry the growing message twice per delta,
// and going through encoding/json would copy and re-scan it several times.
func appendAssistant(dst []byte, m *core.AssistantMessage) ([]byte, error) {
	dst = append(dst, `{"role":"assistant","content":[`...)
	for i := range m.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendContent(dst, &m.Content[i]); err != nil {
			return dst, err
		}
	}
	dst = append(dst, `],"api":`...)
	dst = core.AppendJSONString(dst, m.API)
	dst = append(dst, `,"provider":`...)
	dst = core.AppendJSONString(dst, m.Provider)
	dst = append(dst, `,"model":`...)
	dst = core.AppendJSONString(dst, m.Model)
	usage, err := json.Marshal(m.Usage)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"usage":`...)
	dst = append(dst, usage...)
	dst = append(dst, `,"stopReason":`...)
	dst = core.AppendJSONString(dst, string(m.StopReason))
	dst = append(dst, `,"timestamp":`...)
	dst = strconv.AppendInt(dst, m.Timestamp, 10)
	if m.ResponseID != "" {
		dst = append(dst, `,"responseId":`...)
		dst = core.AppendJSONString(dst, m.ResponseID)
	}
	if m.ErrorMessage != "" {
		dst = append(dst, `,"errorMessage":`...)
		dst = core.AppendJSONString(dst, m.ErrorMessage)
	}
	return append(dst, '}'), nil
}

// appendContent writes a block as core.Content's MarshalJSON does.
func appendContent(dst []byte, c *core.Content) ([]byte, error) {
	if c.Type != core.ContentText && c.Type != core.ContentThinking {
		// Images and tool calls are rare in a stream and small next to
		// the text: let the block encode itself.
		b, err := c.MarshalJSON()
		if err != nil {
			return dst, err
		}
		// encoding/json compacts what MarshalJSON returns; so must this.
		var compacted bytes.Buffer
		if err := json.Compact(&compacted, b); err != nil {
			return dst, err
		}
		return append(dst, compacted.Bytes()...), nil
	}
	dst = append(dst, `{"type":`...)
	dst = core.AppendJSONString(dst, string(c.Type))
	switch c.Type {
	case core.ContentText:
		dst = append(dst, `,"text":`...)
		dst = core.AppendJSONString(dst, c.FullText())
		if c.TextSignature != "" {
			dst = append(dst, `,"textSignature":`...)
			dst = core.AppendJSONString(dst, c.TextSignature)
		}
	case core.ContentThinking:
		dst = append(dst, `,"thinking":`...)
		dst = core.AppendJSONString(dst, c.Thinking)
		if c.ThinkingSignature != "" {
			dst = append(dst, `,"thinkingSignature":`...)
			dst = core.AppendJSONString(dst, c.ThinkingSignature)
		}
		if c.Redacted {
			dst = append(dst, `,"redacted":true`...)
		}
	}
	return append(dst, '}'), nil
}
