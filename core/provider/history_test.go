package provider

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// The model every history below is replayed to, and another one.
var (
	asked = core.Model{ID: "model-a", API: "api-a", Provider: "prov-a"}
	other = core.Model{ID: "model-b", API: "api-b", Provider: "prov-b"}
)

func answerFrom(m core.Model, stop core.StopReason, content ...core.Content) *core.AssistantMessage {
	return &core.AssistantMessage{API: m.API, Provider: m.Provider, Model: m.ID, StopReason: stop, Content: content}
}

func prompt(text string) *core.UserMessage {
	return &core.UserMessage{Content: []core.Content{core.TextBlock(text)}}
}

func toolCall(id, name, sig string) core.Content {
	return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(`{}`), ThoughtSignature: sig}
}

func toolResult(id, text string) *core.ToolResultMessage {
	return &core.ToolResultMessage{ToolCallID: id, ToolName: "read", Content: []core.Content{core.TextBlock(text)}}
}

func thought(text, sig string) core.Content {
	return core.Content{Type: core.ContentThinking, Thinking: text, ThinkingSignature: sig}
}

func signedText(text, sig string) core.Content {
	return core.Content{Type: core.ContentText, Text: text, TextSignature: sig}
}

// describe renders a history one line a message, with every field the
// clean-up may change, so a case reads as the conversation it is.
func describe(msgs []core.Message) []string {
	var out []string
	for _, msg := range msgs {
		if msg == nil || reflect.ValueOf(msg).IsNil() {
			out = append(out, "nil")
			continue
		}
		switch m := msg.(type) {
		case *core.UserMessage:
			out = append(out, fmt.Sprintf("user %q", m.Text()))
		case *core.AssistantMessage:
			parts := []string{"assistant " + m.Model + ":"}
			for _, b := range m.Content {
				switch b.Type {
				case core.ContentThinking:
					s := fmt.Sprintf("thinking %q", b.Thinking)
					if b.Redacted {
						s += " redacted"
					}
					if b.ThinkingSignature != "" {
						s += " sig=" + b.ThinkingSignature
					}
					parts = append(parts, s)
				case core.ContentText:
					s := fmt.Sprintf("text %q", b.Text)
					if b.TextSignature != "" {
						s += " sig=" + b.TextSignature
					}
					parts = append(parts, s)
				case core.ContentToolCall:
					s := "call " + b.ID + " " + b.Name
					if b.ThoughtSignature != "" {
						s += " sig=" + b.ThoughtSignature
					}
					parts = append(parts, s)
				}
			}
			out = append(out, strings.Join(parts, " "))
		case *core.ToolResultMessage:
			s := "result " + m.ToolCallID + " " + m.ToolName
			if m.IsError {
				s += " error"
			}
			out = append(out, s+fmt.Sprintf(" %q", m.Text()))
		}
	}
	return out
}

// TestCleanHistory is the one test of the rules every provider replays a
// conversation by; each provider's own tests only check its wire format.
func TestCleanHistory(t *testing.T) {
	renameAll := ReplayOptions{ToolCallID: func(id string, _ bool) string { return "n_" + id }}
	renameOthers := ReplayOptions{ToolCallID: func(id string, same bool) string {
		if same {
			return id
		}
		callID, _, _ := strings.Cut(id, "|")
		return callID
	}}
	cases := []struct {
		name string
		opts ReplayOptions
		msgs []core.Message
		want []string
	}{{
		name: "a finished conversation with the same model is replayed as it is",
		msgs: []core.Message{
			prompt("read a"),
			answerFrom(asked, core.StopToolUse, thought("plan", "s1"), signedText("Reading.", "t1"), toolCall("c1", "read", "g1")),
			toolResult("c1", "A"),
			answerFrom(asked, core.StopEnd, core.Content{Type: core.ContentThinking, Redacted: true, ThinkingSignature: "opaque"}, thought("", "enc"), signedText("Done.", "t2")),
		},
		want: []string{
			`user "read a"`,
			`assistant model-a: thinking "plan" sig=s1 text "Reading." sig=t1 call c1 read sig=g1`,
			`result c1 read "A"`,
			`assistant model-a: thinking "" redacted sig=opaque thinking "" sig=enc text "Done." sig=t2`,
		},
	}, {
		name: "failed and aborted answers are left out with their results",
		msgs: []core.Message{
			prompt("one"),
			answerFrom(asked, core.StopError, signedText("half", "t"), toolCall("c1", "read", "")),
			toolResult("c1", "never sent"),
			prompt("two"),
			answerFrom(asked, core.StopAborted, thought("half a thought", "s")),
			prompt("three"),
		},
		want: []string{`user "one"`, `user "two"`, `user "three"`},
	}, {
		name: "another model's thinking becomes text and its signatures go",
		msgs: []core.Message{
			prompt("go"),
			answerFrom(other, core.StopToolUse,
				thought("plan", "s1"),
				core.Content{Type: core.ContentThinking, Redacted: true, ThinkingSignature: "opaque"},
				thought("  ", "s2"),
				signedText("Reading.", "t1"),
				toolCall("c1", "read", "g1")),
			toolResult("c1", "A"),
		},
		want: []string{
			`user "go"`,
			`assistant model-b: text "plan" text "Reading." call c1 read`,
			`result c1 read "A"`,
		},
	}, {
		name: "a call without a result is answered before the next prompt, after the results it has",
		msgs: []core.Message{
			prompt("go"),
			answerFrom(asked, core.StopToolUse, toolCall("c1", "read", ""), toolCall("c2", "bash", "")),
			toolResult("c2", "ok"),
			prompt("stop that"),
		},
		want: []string{
			`user "go"`,
			`assistant model-a: call c1 read call c2 bash`,
			`result c2 read "ok"`,
			`result c1 read error "No result provided"`,
			`user "stop that"`,
		},
	}, {
		name: "calls are answered before the next answer and at the end of the history",
		msgs: []core.Message{
			prompt("go"),
			answerFrom(asked, core.StopToolUse, toolCall("c1", "read", "")),
			answerFrom(asked, core.StopToolUse, toolCall("c2", "bash", "")),
		},
		want: []string{
			`user "go"`,
			`assistant model-a: call c1 read`,
			`result c1 read error "No result provided"`,
			`assistant model-a: call c2 bash`,
			`result c2 bash error "No result provided"`,
		},
	}, {
		name: "a second result for a call and a result for no open call are left out",
		msgs: []core.Message{
			prompt("go"),
			answerFrom(asked, core.StopToolUse, toolCall("c1", "read", "")),
			toolResult("c1", "first"),
			toolResult("c1", "second"),
			toolResult("c9", "stray"),
			prompt("next"),
			toolResult("c1", "late"),
		},
		want: []string{`user "go"`, `assistant model-a: call c1 read`, `result c1 read "first"`, `user "next"`},
	}, {
		name: "rewritten ids apply to every answer when the option says so, and results follow",
		opts: renameAll,
		msgs: []core.Message{
			prompt("go"),
			answerFrom(asked, core.StopToolUse, toolCall("c1", "read", "g1"), toolCall("c2", "read", "")),
			toolResult("c1", "A"),
		},
		want: []string{
			`user "go"`,
			`assistant model-a: call n_c1 read sig=g1 call n_c2 read`,
			`result n_c1 read "A"`,
			`result n_c2 read error "No result provided"`,
		},
	}, {
		name: "ids rewritten only for other models' answers",
		opts: renameOthers,
		msgs: []core.Message{
			prompt("go"),
			answerFrom(other, core.StopToolUse, toolCall("call_1|fc_1", "read", "")),
			toolResult("call_1|fc_1", "A"),
			answerFrom(asked, core.StopToolUse, toolCall("call_2|fc_2", "read", "")),
			toolResult("call_2|fc_2", "B"),
		},
		want: []string{
			`user "go"`,
			`assistant model-b: call call_1 read`,
			`result call_1 read "A"`,
			`assistant model-a: call call_2|fc_2 read`,
			`result call_2|fc_2 read "B"`,
		},
	}, {
		name: "nil messages are dropped",
		msgs: []core.Message{(*core.UserMessage)(nil), prompt("go"), (*core.AssistantMessage)(nil), (*core.ToolResultMessage)(nil), nil},
		want: []string{`user "go"`},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := describe(tc.msgs)
			got := describe(CleanHistory(tc.msgs, &asked, tc.opts))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("history\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
			}
			if after := describe(tc.msgs); !reflect.DeepEqual(after, before) {
				t.Errorf("the caller's messages changed:\n%s", strings.Join(after, "\n"))
			}
		})
	}
}

func TestCleanHistoryKeepsUnchangedMessages(t *testing.T) {
	answer := answerFrom(asked, core.StopToolUse, toolCall("c1", "read", ""))
	msgs := []core.Message{prompt("go"), answer, toolResult("c1", "A")}
	got := CleanHistory(msgs, &asked, ReplayOptions{ToolCallID: func(id string, _ bool) string { return SafeToolCallID(id) }})
	for i := range msgs {
		if got[i] != msgs[i] {
			t.Errorf("message %d was copied though nothing in it changed", i)
		}
	}
}

func TestSafeToolCallID(t *testing.T) {
	long := strings.Repeat("x", 80)
	cases := map[string]string{
		"toolu_01ABC-def":                     "toolu_01ABC-def",
		"":                                    "call",
		"functions.add:0":                     "functions_add_0",
		"call_abc|fc_123":                     "call_abc_fc_123",
		long:                                  long[:64],
		"call_" + strings.Repeat("\x00", 100): ("call_" + strings.Repeat("_", 59)),
		"é1":                                  "__1",
	}
	for in, want := range cases {
		if got := SafeToolCallID(in); got != want {
			t.Errorf("SafeToolCallID(%q) = %q, want %q", in, got, want)
		}
	}
}

// A model that takes no images is told where an image of a tool result (an
// MCP server's screenshot) or of a prompt was left out; one that takes
// images gets them, and the caller's messages are untouched.
func TestCleanHistoryTellsATextOnlyModelOfImagesLeftOut(t *testing.T) {
	img := core.ImageBlock("iVBORw0KGgo=", "image/png")
	user := &core.UserMessage{Content: []core.Content{core.TextBlock("look"), img}}
	answer := answerFrom(asked, core.StopToolUse, toolCall("c1", "mcp__everything__get_tiny_image", ""))
	result := &core.ToolResultMessage{ToolCallID: "c1", ToolName: "mcp__everything__get_tiny_image", Content: []core.Content{core.TextBlock("here:"), img}}
	msgs := []core.Message{user, answer, result}

	textOnly := asked
	textOnly.Input = []string{"text"}
	got := CleanHistory(msgs, &textOnly, ReplayOptions{})
	want := ImageOmittedText
	for _, i := range []int{0, 2} {
		var blocks []core.Content
		switch m := got[i].(type) {
		case *core.UserMessage:
			blocks = m.Content
		case *core.ToolResultMessage:
			blocks = m.Content
		}
		if len(blocks) != 2 || blocks[1].Type != core.ContentText || blocks[1].Text != want {
			t.Errorf("message %d: %+v", i, blocks)
		}
	}
	if user.Content[1].Type != core.ContentImage || result.Content[1].Type != core.ContentImage {
		t.Error("the caller's messages were changed")
	}

	withImages := asked
	withImages.Input = []string{"text", "image"}
	if got := CleanHistory(msgs, &withImages, ReplayOptions{}); got[2] != result || got[0] != user {
		t.Error("a model that takes images lost them")
	}
}

// fakeStored is text kept elsewhere, counting its reads.
type fakeStored struct {
	text  string
	reads int
}

func (f *fakeStored) Load() (string, error) { f.reads++; return f.text, nil }
func (f *fakeStored) Len() int              { return len(f.text) }

// TestCleanHistoryKeepsStoredText: a tool result whose text is kept out of
// memory reaches the wire format as it is, unread: the wire format carries
// it as a Text, read when the request is written.
func TestCleanHistoryKeepsStoredText(t *testing.T) {
	stored := &fakeStored{text: "a long output"}
	call := core.Content{Type: core.ContentToolCall, ID: "c1", Name: "bash", Arguments: json.RawMessage(`{}`)}
	result := &core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash",
		Content: []core.Content{{Type: core.ContentText, Stored: stored}, core.TextBlock("tail")}}
	out := CleanHistory([]core.Message{answerFrom(asked, core.StopToolUse, call), result}, &asked, ReplayOptions{})
	if got, ok := out[1].(*core.ToolResultMessage); !ok || got != result {
		t.Fatalf("result = %#v, want the session's message itself", out[1])
	}
	if stored.reads != 0 {
		t.Fatalf("stored text read %d times before the request was written", stored.reads)
	}
	if got := ResultTextOf(result.Content).String(); got != "a long output\ntail" || stored.reads != 1 {
		t.Fatalf("ResultTextOf = %q after %d reads", got, stored.reads)
	}
}
