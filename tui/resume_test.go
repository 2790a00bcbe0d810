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
