package synaps

import (
	"bytes"
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// ProtocolVersion is the synaps rpc version this package speaks.
const ProtocolVersion = 1

// body is a response's payload; its keys are flattened into the frame.
type body map[string]any

// encode marshals v without HTML escaping, so text reaches the host as
// the model wrote it.
func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only values of our own making are encoded; say so rather than
		// write a broken frame.
		return encode(map[string]any{"type": "error", "id": nil, "message": "internal error: " + err.Error()})
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
}

// responseFrame is response{id, command, ...b}. A nil id is written as
// null (tools_list without an id).
func responseFrame(id *string, command string, b body) []byte {
	if len(b) == 0 {
		return responseOf(id, command, nil)
	}
	return responseOf(id, command, b)
}

// responseOf is response{id, command, ...v}, v being nil or a value whose
// JSON form is an object (a body, or a struct of the core's).
func responseOf(id *string, command string, v any) []byte {
	dst := []byte(`{"type":"response","id":`)
	if id == nil {
		dst = append(dst, "null"...)
	} else {
		dst = core.AppendJSONString(dst, *id)
	}
	dst = append(dst, `,"command":`...)
	dst = core.AppendJSONString(dst, command)
	if v != nil {
		rest := encode(v) // a JSON object: its keys follow ours
		if len(rest) > 2 {
			dst = append(dst, ',')
			dst = append(dst, rest[1:]...)
			return dst
		}
	}
	return append(dst, '}')
}

// errorFrame is error{id, message}; id nil is written as null.
func errorFrame(id *string, message string) []byte {
	return encode(struct {
		Type    string  `json:"type"`
		ID      *string `json:"id"`
		Message string  `json:"message"`
	}{"error", id, message})
}

// readyFrame opens the conversation.
func readyFrame(sessionID, model string) []byte {
	return encode(struct {
		Type            string `json:"type"`
		SessionID       string `json:"session_id"`
		Model           string `json:"model"`
		ProtocolVersion int    `json:"protocol_version"`
	}{"ready", sessionID, model, ProtocolVersion})
}

// assistantEvent is the event of a message_update frame; only the fields
// of its type are set.
type assistantEvent struct {
	Type     string          `json:"type"`
	ToolID   string          `json:"tool_id,omitempty"`
	ToolName string          `json:"tool_name,omitempty"`
	Delta    *string         `json:"delta,omitempty"`
	Input    json.RawMessage `json:"input,omitempty"`
	Result   *string         `json:"result,omitempty"`
}

func updateFrame(e assistantEvent) []byte {
	return encode(struct {
		Type  string         `json:"type"`
		Event assistantEvent `json:"event"`
	}{"message_update", e})
}

// turnUsage is agent_end's usage, in synaps's names.
type turnUsage struct {
	InputTokens              int    `json:"input_tokens"`
	OutputTokens             int    `json:"output_tokens"`
	CacheReadInputTokens     int    `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int    `json:"cache_creation_input_tokens"`
	CacheCreation5m          *int   `json:"cache_creation_5m,omitempty"`
	CacheCreation1h          *int   `json:"cache_creation_1h,omitempty"`
	Model                    string `json:"model,omitempty"`
}

func usageOf(u core.Usage, model string) turnUsage {
	t := turnUsage{InputTokens: u.Input, OutputTokens: u.Output, CacheReadInputTokens: u.CacheRead,
		CacheCreationInputTokens: u.CacheWrite, Model: model}
	if u.CacheWrite1h != nil {
		h, m := *u.CacheWrite1h, u.CacheWrite-*u.CacheWrite1h
		t.CacheCreation1h, t.CacheCreation5m = &h, &m
	}
	return t
}

func agentEndFrame(u turnUsage) []byte {
	return encode(struct {
		Type  string    `json:"type"`
		Usage turnUsage `json:"usage"`
	}{"agent_end", u})
}
