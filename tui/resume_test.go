package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestResumedConversationShowsWhatTheLiveOneDid: a resumed conversation
// shows a 429 the session retried successfully as the live screen did,
// without its red error, and a `!!` command still says its output was not
// sent to the model.
func TestResumedConversationShowsWhatTheLiveOneDid(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	failed := &core.AssistantMessage{StopReason: core.StopError, ErrorMessage: "429 Too Many Requests: slow down"}
	code := 0
	r.m.showConversation([]core.Message{
		&core.UserMessage{Content: []core.Content{text("hello")}},
		failed,
		answer(text("Hello there.")),
		&core.BashExecutionMessage{Command: "ls", Output: "a.go\n", ExitCode: &code, ExcludeFromContext: true},
	})
	screen := ansi.Strip(r.m.render())
	if strings.Contains(screen, "429") || !strings.Contains(screen, "Hello there.") {
		t.Errorf("the retried failure shows, or the answer does not:\n%s", screen)
	}
	if !strings.Contains(screen, "not sent to the model") {
		t.Errorf("the !! command does not say its output was not sent:\n%s", screen)
	}

	// A failure nothing followed stays: it is how the run ended.
	r2 := newRig(t, rigOptions{})
	r2.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	r2.m.showConversation([]core.Message{&core.UserMessage{Content: []core.Content{text("hello")}}, failed})
	if screen := ansi.Strip(r2.m.render()); !strings.Contains(screen, "429") {
		t.Errorf("the last failure is not shown:\n%s", screen)
	}
}

// storedOutput is a tool result's text kept out of memory, counting reads.
type storedOutput struct {
	text  string
	reads int
}

func (s *storedOutput) Load() (string, error) { s.reads++; return s.text, nil }
func (s *storedOutput) Len() int              { return len(s.text) }

// TestResumedLargeResultIsReadWhenDrawn: a large result the session keeps
// in its file is read back when its item is drawn, shows its last lines,
// and is not read again for the next frame.
func TestResumedLargeResultIsReadWhenDrawn(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	var out strings.Builder
	for i := range 2000 {
		out.WriteString("step " + strings.Repeat("x", i%9) + " ok\n")
	}
	out.WriteString("LAST LINE OF THE OUTPUT\n")
	stored := &storedOutput{text: out.String()}
	call := core.Content{Type: core.ContentToolCall, ID: "c1", Name: "bash", Arguments: []byte(`{"command":"make test"}`)}
	r.m.showConversation([]core.Message{
		&core.UserMessage{Content: []core.Content{text("run the tests")}},
		answer(call),
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", Content: []core.Content{{Type: core.ContentText, Stored: stored}}},
	})
	if stored.reads != 0 {
		t.Errorf("the result was read %d times before anything was drawn", stored.reads)
	}
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "LAST LINE OF THE OUTPUT") {
		t.Errorf("the stored result's end is not shown:\n%s", screen)
	}
	reads := stored.reads
	r.m.render()
	if stored.reads != reads {
		t.Errorf("drawing again read the result again (%d reads, then %d)", reads, stored.reads)
	}
}
