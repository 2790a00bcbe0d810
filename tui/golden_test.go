package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/themes"
)

// screenState drives a fresh model into one state of the screen. It
// returns the messages to send, in order; the rig lets it prepare files.
type screenState struct {
	name     string
	firstRun bool
	msgs     func(r *rig) []tea.Msg
	// wait is text the screen shows once the state is reached, for states
	// reached through commands that run in the background.
	wait string
	// history is what the session holds in this state (its footer reads
	// the context's size from the session), when msgs replay events the
	// session did not produce itself.
	history func() []core.Message
}

var streamingText = "## Plan\n\nI will **read** the file, then fix the `Parse` function:\n\n1. find the bug\n2. write a test\n\n```go\nfunc Parse(s string) (int, error) {\n\treturn strconv.Atoi(s)\n"

func screenStates() []screenState {
	return []screenState{
		{name: "empty", msgs: func(*rig) []tea.Msg { return nil }},
		{name: "streaming", msgs: func(*rig) []tea.Msg {
			partial := answer(thinking("The parser fails on empty input.\nCheck strconv."), text(streamingText))
			return []tea.Msg{
				eventsMsg{core.AgentStart{}, core.MessageStart{Message: &core.UserMessage{Content: []core.Content{text("Fix the parser please")}}}},
				eventsMsg{core.MessageStart{Message: answer()}, core.MessageUpdate{Kind: core.UpdateTextDelta, Index: 1, Delta: "x", Message: partial}},
			}
		}},
		{name: "thinking-collapsed", msgs: func(*rig) []tea.Msg { return finishedAnswer() }, history: finishedHistory},
		{name: "thinking-expanded", msgs: func(*rig) []tea.Msg { return append(finishedAnswer(), key("ctrl+t")) }, history: finishedHistory},
		{name: "tools", msgs: toolScreen},
		{name: "tools-expanded", msgs: func(r *rig) []tea.Msg { return append(toolScreen(r), key("ctrl+o")) }},
		{name: "approval", msgs: approvalScreen, history: func() []core.Message { return []core.Message{approvalAnswer()} }},
		{name: "bash-mode", msgs: func(*rig) []tea.Msg {
			code := 0
			return []tea.Msg{
				replay(&core.BashExecutionMessage{Command: "ls", Output: "go.mod\nmain.go\nREADME.md\n", ExitCode: &code}),
				key("!"), key("g"), key("i"), key("t"), key(" "), key("s"),
			}
		}},
		{name: "model-picker", msgs: func(*rig) []tea.Msg {
			return []tea.Msg{key("/"), key("m"), key("o"), key("d"), key("e"), key("l"), key("enter")}
		}, wait: "gemini-2.5-pro"},
		{name: "theme-picker", msgs: func(*rig) []tea.Msg {
			return []tea.Msg{key("/"), key("t"), key("h"), key("e"), key("m"), key("e"), key(" "), key("enter")}
		}, wait: "type to filter"},
		{name: "first-run", firstRun: true, msgs: func(*rig) []tea.Msg { return nil }},
		{name: "help", msgs: func(*rig) []tea.Msg {
			return []tea.Msg{key("/"), key("h"), key("e"), key("l"), key("p"), key(" "), key("enter")}
		}, wait: "leave cairn"},
	}
}

// replay adds messages to the transcript as a resumed session shows them.
type replayMsg []core.Message

func replay(msgs ...core.Message) replayMsg { return msgs }

func finishedMessage() *core.AssistantMessage {
	return answer(thinking("The user asks for a summary.\nI should keep it short and mention the tests."), text("The change is small: `Parse` now rejects empty input, and a table test covers it."))
}

func finishedHistory() []core.Message {
	return []core.Message{&core.UserMessage{Content: []core.Content{text("Summarise the change")}}, finishedMessage()}
}

func finishedAnswer() []tea.Msg {
	a := finishedMessage()
	return []tea.Msg{
		eventsMsg{core.AgentStart{}, core.MessageStart{Message: &core.UserMessage{Content: []core.Content{text("Summarise the change")}}}},
		eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: a}, core.AgentEnd{}, core.Settled{}},
	}
}

func toolScreen(r *rig) []tea.Msg {
	code, fail := 0, 3
	bashOut := strings.Repeat("ok  \tpkg/a\t0.01s\n", 30)
	return []tea.Msg{replay(
		&core.UserMessage{Content: []core.Content{text("Run the tests and look at main.go")}},
		answer(text("Running them."),
			call("c1", "bash", map[string]any{"command": "go test ./..."}),
			call("c2", "read", map[string]any{"path": "main.go", "offset": 1, "limit": 20}),
			call("c3", "edit", map[string]any{"path": "main.go", "edits": []map[string]string{{"oldText": "a", "newText": "b"}}}),
			call("c4", "bash", map[string]any{"command": "false"}),
			call("c5", "grep", map[string]any{"pattern": "TODO", "path": "."}),
		),
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", Content: []core.Content{text(bashOut)}, Details: mustJSON(map[string]any{})},
		&core.ToolResultMessage{ToolCallID: "c2", ToolName: "read", Content: []core.Content{text("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n")}},
		&core.ToolResultMessage{ToolCallID: "c3", ToolName: "edit", Content: []core.Content{text("Successfully replaced 1 block(s) in main.go.")},
			Details: mustJSON(map[string]any{"diff": "  4 func main() {\n- 5 \tfmt.Println(\"hi\")\n+ 5 \tfmt.Println(\"hello\")\n  6 }", "firstChangedLine": 5})},
		&core.ToolResultMessage{ToolCallID: "c4", ToolName: "bash", IsError: true, Content: []core.Content{text(fmt.Sprintf("\n\nCommand exited with code %d", fail))}},
		&core.ToolResultMessage{ToolCallID: "c5", ToolName: "grep", Content: []core.Content{text("main.go:3: // TODO: flags\nlib.go:10: // TODO: errors")}},
		&core.BashExecutionMessage{Command: "git status --short", Output: " M main.go\n", ExitCode: &code},
	)}
}

func approvalAnswer() *core.AssistantMessage {
	return answer(text("I'll clean the build directory."), call("c9", "bash", map[string]any{"command": "rm -rf build/ && make"}))
}

func approvalScreen(*rig) []tea.Msg {
	a := approvalAnswer()
	return []tea.Msg{
		eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}, core.MessageEnd{Message: a},
			core.ToolExecutionStart{ToolCallID: "c9", ToolName: "bash", Args: a.Content[1].Arguments}},
		eventsMsg{core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
			Title: "Allow bash: rm -rf build/ && make?", ToolCallID: "c9",
			Options: approvalOptions(approval.OptionAllowOnce, approval.OptionAllowSession, approval.OptionAllowAlways, approval.OptionDeny, approval.OptionDenyReason)}},
	}
}

// approvalOptions are an approval question's options, as the gate offers
// them.
func approvalOptions(opts ...approval.Option) []core.Option {
	out := make([]core.Option, len(opts))
	for i, o := range opts {
		out[i] = core.Option{Value: string(o), Label: o.Label()}
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestScreens renders every screen state through a real Bubble Tea program
// (teatest) and compares the final frame with its golden file, at 80 and
// 120 columns, in the dark and light themes. Run with -update to accept a
// deliberate change; look at the diff first.
func TestScreens(t *testing.T) {
	for _, st := range screenStates() {
		for _, width := range []int{80, 120} {
			for _, th := range []*themes.Theme{themes.Dark(), themes.Light()} {
				t.Run(fmt.Sprintf("%s/%d/%s", st.name, width, th.Name), func(t *testing.T) {
					o := rigOptions{theme: th, firstRun: st.firstRun, models: testModels()}
					if st.history != nil {
						o.history = st.history()
					}
					r := newRig(t, o)
					frame := r.frame(width, 30, st.wait, st.msgs(r)...)
					checkWidth(t, frame, width)
					golden.RequireEqual(t, frame)
				})
			}
		}
	}
}

// frame runs the model in teatest at width×height, sends msgs, and
// returns the last frame the model drew.
func (r *rig) frame(width, height int, wait string, msgs ...tea.Msg) string {
	r.t.Helper()
	// A replayed conversation is there before the program starts, as a
	// resumed session's is.
	for len(msgs) > 0 {
		rp, ok := msgs[0].(replayMsg)
		if !ok {
			break
		}
		r.m.showConversation(rp)
		msgs = msgs[1:]
	}
	tm := teatest.NewTestModel(r.t, r.m, teatest.WithInitialTermSize(width, height))
	for _, msg := range msgs {
		tm.Send(msg)
	}
	if wait != "" {
		teatest.WaitFor(r.t, tm.Output(), func(b []byte) bool { return strings.Contains(ansi.Strip(string(b)), wait) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	}
	if err := tm.Quit(); err != nil {
		r.t.Fatal(err)
	}
	fm := tm.FinalModel(r.t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	return fm.render()
}

// checkWidth fails when a line of the frame is wider than the terminal.
func checkWidth(t *testing.T, frame string, width int) {
	t.Helper()
	for i, l := range strings.Split(frame, "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i, w, width, ansi.Strip(l))
		}
	}
}

func testModels() []core.Model {
	return []core.Model{
		{ID: "claude-sonnet-4-5", Provider: "anthropic", ContextWindow: 200000, Reasoning: true},
		{ID: "gpt-5.1-codex", Provider: "openai", ContextWindow: 400000, Reasoning: true},
		{ID: "gemini-2.5-pro", Provider: "google", ContextWindow: 1048576, Reasoning: true},
		{ID: "qwen2.5-coder:14b", Provider: "ollama", ContextWindow: 32768},
	}
}
