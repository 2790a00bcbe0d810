package aionrs

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// ProtocolVersion is the version of the json-stream protocol Serve speaks,
// reported in ready when Host.Version is empty.
const ProtocolVersion = "0.1.0"

// The frames Serve writes, one JSON object per line. Field names and
// shapes are the protocol's.

type capabilities struct {
	ToolApproval bool     `json:"tool_approval"`
	Thinking     bool     `json:"thinking"`
	ImageInput   bool     `json:"image_input"`
	MCP          bool     `json:"mcp"`
	Modes        []string `json:"modes"`
	CurrentMode  string   `json:"current_mode"`
	CurrentModel string   `json:"current_model,omitempty"`
	// Effort: set_config's effort (low, medium, high) sets the thinking
	// level.
	Effort       bool     `json:"effort"`
	EffortLevels []string `json:"effort_levels"`
	// Rewind is cairn's: what the rewind command can reach, left out when
	// checkpoints are off.
	Rewind *agent.RewindState `json:"rewind,omitempty"`
}

type readyFrame struct {
	Type         string       `json:"type"`
	Version      string       `json:"version"`
	SessionID    string       `json:"session_id,omitempty"`
	Capabilities capabilities `json:"capabilities"`
}

type configChangedFrame struct {
	Type         string       `json:"type"`
	Capabilities capabilities `json:"capabilities"`
}

type msgFrame struct {
	Type  string `json:"type"`
	MsgID string `json:"msg_id"`
}

type textFrame struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	MsgID string `json:"msg_id"`
}

type toolInfo struct {
	Name        string          `json:"name"`
	Category    string          `json:"category"`
	Args        json.RawMessage `json:"args"`
	Description string          `json:"description"`
}

type toolRequestFrame struct {
	Type   string   `json:"type"`
	MsgID  string   `json:"msg_id"`
	CallID string   `json:"call_id"`
	Tool   toolInfo `json:"tool"`
}

type toolRunningFrame struct {
	Type     string `json:"type"`
	MsgID    string `json:"msg_id"`
	CallID   string `json:"call_id"`
	ToolName string `json:"tool_name"`
}

type resultMetadata struct {
	FilePath string `json:"file_path"`
}

type toolResultFrame struct {
	Type       string          `json:"type"`
	MsgID      string          `json:"msg_id"`
	CallID     string          `json:"call_id"`
	ToolName   string          `json:"tool_name"`
	Status     string          `json:"status"`
	Output     string          `json:"output"`
	OutputType string          `json:"output_type"`
	Metadata   *resultMetadata `json:"metadata,omitempty"`
}

type toolCancelledFrame struct {
	Type   string `json:"type"`
	MsgID  string `json:"msg_id"`
	CallID string `json:"call_id"`
	Reason string `json:"reason"`
}

type usageFrame struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens"`
	CacheWriteTokens int `json:"cache_write_tokens"`
}

type streamEndFrame struct {
	Type  string     `json:"type"`
	MsgID string     `json:"msg_id"`
	Usage usageFrame `json:"usage"`
}

// Error codes of the protocol.
const (
	codeProtocol = "protocol_error"
	codeProvider = "provider_error"
	codeConfig   = "config_error"
)

type errorBody struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Retryable bool   `json:"retryable"`
}

type errorFrame struct {
	Type  string    `json:"type"`
	MsgID *string   `json:"msg_id"` // null when the error is about no message
	Error errorBody `json:"error"`
}

type infoFrame struct {
	Type    string  `json:"type"`
	MsgID   *string `json:"msg_id,omitempty"`
	Message string  `json:"message"`
}

type pongFrame struct {
	Type string `json:"type"`
}

// errorLine builds an error frame; msgID "" writes msg_id null.
func errorLine(msgID, code, message string, retryable bool) []byte {
	f := errorFrame{Type: "error", Error: errorBody{Code: code, Message: message, Retryable: retryable}}
	if msgID != "" {
		f.MsgID = &msgID
	}
	return line(f)
}

// ConfigError is the frame a host reads when cairn cannot start (bad
// flags, no credentials, a session that cannot be resumed), written before
// exiting with a non-zero status as the protocol's fatal errors are.
func ConfigError(message string) []byte { return errorLine("", codeConfig, message, false) }

// line encodes a frame as one line. The frames are plain structs, so
// encoding cannot fail.
func line(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(errorFrame{Type: "error", Error: errorBody{Code: "internal_error", Message: err.Error()}})
	}
	return append(b, '\n')
}

// usageOf converts the core's token counts.
func usageOf(u core.Usage) usageFrame {
	return usageFrame{InputTokens: u.Input, OutputTokens: u.Output, CacheReadTokens: u.CacheRead, CacheWriteTokens: u.CacheWrite}
}
