package core

import (
	"encoding/json"
	"fmt"
)

// Role names who or what produced a message, using pi's wire names.
type Role string

// The message roles a provider understands. Other roles (bash executions,
// compaction summaries, custom messages) are converted to user messages before
// a request is made.
const (
	RoleUser       Role = "user"
	RoleAssistant  Role = "assistant"
	RoleToolResult Role = "toolResult"
)

// Message is one entry of a conversation as a provider sees it: a
// *UserMessage, an *AssistantMessage or a *ToolResultMessage.
type Message interface {
	// MessageRole reports which of the roles the message has.
	MessageRole() Role
}

// UserMessage is what the person (or a host) said: text and images.
type UserMessage struct {
	Content   []Content
	Timestamp int64 // Unix milliseconds
}

// MessageRole implements Message.
func (*UserMessage) MessageRole() Role { return RoleUser }

type userWire struct {
	Role      Role      `json:"role"`
	Content   []Content `json:"content"`
	Timestamp int64     `json:"timestamp"`
}

// MarshalJSON writes the message in pi's shape; content is always an array.
func (m UserMessage) MarshalJSON() ([]byte, error) {
	return json.Marshal(userWire{Role: RoleUser, Content: nonNil(m.Content), Timestamp: m.Timestamp})
}

// UnmarshalJSON accepts both of pi's forms: content as a string or as blocks.
func (m *UserMessage) UnmarshalJSON(data []byte) error {
	u, err := decodeWhole(data, readUser)
	if err != nil {
		return err
	}
	*m = *u
	return nil
}

// Text returns the concatenated text blocks of the message.
func (m *UserMessage) Text() string { return joinText(m.Content) }

// StopReason says why an assistant message ended.
type StopReason string

// The stop reasons, as pi names them.
const (
	StopEnd     StopReason = "stop"    // the model finished its answer
	StopLength  StopReason = "length"  // the output token limit was reached
	StopToolUse StopReason = "toolUse" // the model wants tool results
	StopError   StopReason = "error"   // the request or stream failed
	StopAborted StopReason = "aborted" // the caller cancelled
)

// AssistantMessage is one model answer: text, thinking and tool calls, with
// the usage it cost and why it stopped. ErrorMessage is set when StopReason is
// StopError or StopAborted.
type AssistantMessage struct {
	Content    []Content  `json:"content"`
	API        string     `json:"api"`
	Provider   string     `json:"provider"`
	Model      string     `json:"model"`
	Usage      Usage      `json:"usage"`
	StopReason StopReason `json:"stopReason"`
	Timestamp  int64      `json:"timestamp"`
	// ResponseID is the provider's id for the response, when it gives one.
	ResponseID string `json:"responseId,omitempty"`
	// RawStopReason is the provider's own word for why the answer ended
	// (Chat Completions' finish_reason, Anthropic's stop_reason, Gemini's
	// finishReason), when it gave one; StopReason is cairn's reading of it.
	RawStopReason string `json:"rawStopReason,omitempty"`
	// ResponseModel is the model that actually answered, when the server
	// names one that differs from Model, the one asked for (routers,
	// aliases, dated snapshots), as pi keeps it.
	ResponseModel string `json:"responseModel,omitempty"`
	// ErrorMessage says what went wrong when StopReason is StopError or
	// StopAborted. It is the last member, where pi writes it: pi sets it on
	// the message only once the request has failed.
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// MessageRole implements Message.
func (*AssistantMessage) MessageRole() Role { return RoleAssistant }

// MarshalJSON writes the message in pi's key order with its role first.
func (m AssistantMessage) MarshalJSON() ([]byte, error) {
	type plain AssistantMessage
	p := plain(m)
	p.Content = nonNil(p.Content)
	return withRole(RoleAssistant, &p)
}

// Text returns the concatenated text blocks of the message.
func (m *AssistantMessage) Text() string {
	var n int
	var only string
	for _, c := range m.Content {
		if c.Type == ContentText {
			n++
			only = c.Text
		}
	}
	if n <= 1 {
		return only
	}
	var out []byte
	for _, c := range m.Content {
		if c.Type == ContentText {
			out = append(out, c.Text...)
		}
	}
	return string(out)
}

// ToolCalls returns the tool call blocks of the message in call order.
func (m *AssistantMessage) ToolCalls() []Content {
	var calls []Content
	for _, c := range m.Content {
		if c.Type == ContentToolCall {
			calls = append(calls, c)
		}
	}
	return calls
}

// ToolResultMessage carries what a tool returned for one call.
type ToolResultMessage struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Content    []Content       `json:"content"`
	Details    json.RawMessage `json:"details,omitempty"`
	IsError    bool            `json:"isError"`
	Timestamp  int64           `json:"timestamp"`
}

// MessageRole implements Message.
func (*ToolResultMessage) MessageRole() Role { return RoleToolResult }

// MarshalJSON writes the message in pi's key order with its role first.
func (m ToolResultMessage) MarshalJSON() ([]byte, error) { return toolResultJSON(&m) }

// Text returns the concatenated text blocks of the result.
func (m *ToolResultMessage) Text() string { return joinText(m.Content) }

// nonNil returns content, or no blocks for nil: pi always writes content
// as an array, never null.
func nonNil(content []Content) []Content {
	if content == nil {
		return []Content{}
	}
	return content
}

// joinText concatenates the text blocks of content, stored ones read
// back.
func joinText(content []Content) string {
	var out []byte
	for i := range content {
		if content[i].Type == ContentText {
			out = append(out, content[i].FullText()...)
		}
	}
	return string(out)
}

// DecodeMessage reads one provider-level message of any role from JSON.
func DecodeMessage(data []byte) (Message, error) {
	m, err := DecodeAgentMessage(data)
	if err != nil {
		return nil, err
	}
	switch m.MessageRole() {
	case RoleUser, RoleAssistant, RoleToolResult:
		return m, nil
	}
	return nil, fmt.Errorf("message has unknown role %q", m.MessageRole())
}
