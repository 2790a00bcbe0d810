package compaction

import (
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The helpers below build conversations. Text of n tokens is n*4 letters.

func text(tokens int) string { return strings.Repeat("abcd", tokens) }

func user(s string) *core.UserMessage {
	return &core.UserMessage{Content: []core.Content{core.TextBlock(s)}}
}

func assistant(s string, calls ...core.Content) *core.AssistantMessage {
	a := &core.AssistantMessage{StopReason: core.StopEnd}
	if s != "" {
		a.Content = append(a.Content, core.TextBlock(s))
	}
	if len(calls) > 0 {
		a.StopReason = core.StopToolUse
	}
	a.Content = append(a.Content, calls...)
	return a
}

func call(id, name string, args any) core.Content {
	data, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: data}
}

func result(id, name, s string) *core.ToolResultMessage {
	return &core.ToolResultMessage{ToolCallID: id, ToolName: name, Content: []core.Content{core.TextBlock(s)}}
}

// roles renders messages as a compact role list, for failure messages.
func roles(messages []core.Message) string {
	var s []string
	for _, m := range messages {
		s = append(s, string(m.MessageRole()))
	}
	return strings.Join(s, " ")
}
