package core

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core/jsonscan"
)

// The roles an agent session adds to the provider roles. They are stored in
// session files and shown by front ends; ToLLM turns them into user
// messages before a request.
const (
	RoleBashExecution     Role = "bashExecution"
	RoleCustom            Role = "custom"
	RoleCompactionSummary Role = "compactionSummary"
	RoleBranchSummary     Role = "branchSummary"
)

// BashExecutionMessage records a command the person ran with `!cmd` (or
// `!!cmd`, which sets ExcludeFromContext) and its output.
type BashExecutionMessage struct {
	Command            string `json:"command"`
	Output             string `json:"output"`
	ExitCode           *int   `json:"exitCode,omitempty"`
	Cancelled          bool   `json:"cancelled"`
	Truncated          bool   `json:"truncated"`
	FullOutputPath     string `json:"fullOutputPath,omitempty"`
	Timestamp          int64  `json:"timestamp"`
	ExcludeFromContext bool   `json:"excludeFromContext,omitempty"`
}

// MessageRole implements Message.
func (*BashExecutionMessage) MessageRole() Role { return RoleBashExecution }

// MarshalJSON writes the message in pi's shape with its role first.
func (m BashExecutionMessage) MarshalJSON() ([]byte, error) {
	type plain BashExecutionMessage
	return withRole(RoleBashExecution, plain(m))
}

// CustomMessage is a message injected by an extension or a front end; it
// reaches the model as a user message.
type CustomMessage struct {
	CustomType string          `json:"customType"`
	Content    []Content       `json:"content"`
	Display    bool            `json:"display"`
	Details    json.RawMessage `json:"details,omitempty"`
	Timestamp  int64           `json:"timestamp"`
}

// MessageRole implements Message.
func (*CustomMessage) MessageRole() Role { return RoleCustom }

// MarshalJSON writes the message in pi's shape with its role first.
func (m CustomMessage) MarshalJSON() ([]byte, error) {
	type plain CustomMessage
	p := plain(m)
	p.Content = nonNil(p.Content)
	return withRole(RoleCustom, &p)
}

// UnmarshalJSON accepts content as a string or as blocks, as pi writes both.
func (m *CustomMessage) UnmarshalJSON(data []byte) error {
	c, err := decodeWhole(data, readCustom)
	if err != nil {
		return err
	}
	*m = *c
	return nil
}

// CompactionSummaryMessage stands for the part of a conversation that
// compaction replaced with a summary.
type CompactionSummaryMessage struct {
	Summary      string `json:"summary"`
	TokensBefore int    `json:"tokensBefore"`
	Timestamp    int64  `json:"timestamp"`
}

// MessageRole implements Message.
func (*CompactionSummaryMessage) MessageRole() Role { return RoleCompactionSummary }

// MarshalJSON writes the message in pi's shape with its role first.
func (m CompactionSummaryMessage) MarshalJSON() ([]byte, error) {
	type plain CompactionSummaryMessage
	return withRole(RoleCompactionSummary, plain(m))
}

// BranchSummaryMessage summarises a branch the conversation came back from.
type BranchSummaryMessage struct {
	Summary   string `json:"summary"`
	FromID    string `json:"fromId"`
	Timestamp int64  `json:"timestamp"`
}

// MessageRole implements Message.
func (*BranchSummaryMessage) MessageRole() Role { return RoleBranchSummary }

// MarshalJSON writes the message in pi's shape with its role first.
func (m BranchSummaryMessage) MarshalJSON() ([]byte, error) {
	type plain BranchSummaryMessage
	return withRole(RoleBranchSummary, plain(m))
}

// RawMessage keeps a message of a role cairn does not know, so reading and
// rewriting a session file loses nothing. It never reaches a model.
type RawMessage struct {
	Role Role
	JSON json.RawMessage
}

// MessageRole implements Message.
func (m *RawMessage) MessageRole() Role { return m.Role }

// MarshalJSON writes the message as it was read.
func (m RawMessage) MarshalJSON() ([]byte, error) { return m.JSON, nil }

// withRole encodes v, a struct, as a JSON object whose first key is
// "role", as pi writes messages.
func withRole(role Role, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(role)+12)
	out = append(out, `{"role":`...)
	out = jsonscan.AppendString(out, string(role))
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// ToLLM converts an agent conversation into what a provider accepts: user,
// assistant and tool result messages. Bash executions, custom messages and
// summaries become user messages worded as pi words them; `!!` commands and
// unknown roles are left out.
func ToLLM(messages []Message) []Message {
	out := make([]Message, 0, len(messages))
	for _, m := range messages {
		switch m := m.(type) {
		case *UserMessage, *AssistantMessage, *ToolResultMessage:
			out = append(out, m)
		case *BashExecutionMessage:
			if !m.ExcludeFromContext {
				out = append(out, userText(BashExecutionText(m), m.Timestamp))
			}
		case *CustomMessage:
			out = append(out, &UserMessage{Content: m.Content, Timestamp: m.Timestamp})
		case *CompactionSummaryMessage:
			out = append(out, userText("The conversation history before this point was compacted into the following summary:\n\n<summary>\n"+m.Summary+"\n</summary>", m.Timestamp))
		case *BranchSummaryMessage:
			out = append(out, userText("The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"+m.Summary+"</summary>", m.Timestamp))
		}
	}
	return out
}

func userText(text string, ts int64) *UserMessage {
	return &UserMessage{Content: []Content{TextBlock(text)}, Timestamp: ts}
}

// BashExecutionText is how a `!cmd` and its output read to the model.
func BashExecutionText(m *BashExecutionMessage) string {
	var b strings.Builder
	b.WriteString("Ran `")
	b.WriteString(m.Command)
	b.WriteString("`\n")
	if m.Output != "" {
		b.WriteString("```\n")
		b.WriteString(m.Output)
		b.WriteString("\n```")
	} else {
		b.WriteString("(no output)")
	}
	switch {
	case m.Cancelled:
		b.WriteString("\n\n(command cancelled)")
	case m.ExitCode != nil && *m.ExitCode != 0:
		fmt.Fprintf(&b, "\n\nCommand exited with code %d", *m.ExitCode)
	}
	if m.Truncated && m.FullOutputPath != "" {
		fmt.Fprintf(&b, "\n\n[Output truncated. Full output: %s]", m.FullOutputPath)
	}
	return b.String()
}
