//go:build unix

package tui

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/session"
)

// previewHistory is n exchanges of a question, a bash call, its result
// and an answer, as the model named answers them.
func previewHistory(n int) []core.Message {
	var out []core.Message
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("call_%d", i)
		out = append(out,
			&core.UserMessage{Content: []core.Content{core.TextBlock(fmt.Sprintf("Question %d: does case %d pass?", i, i))}, Timestamp: int64(i)},
			&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: "bash",
				Arguments: json.RawMessage(fmt.Sprintf(`{"command":"go test ./case%d/"}`, i))}},
				API: "openai-completions", Provider: "openai", Model: "gpt-test", StopReason: core.StopToolUse, Timestamp: int64(i)},
			&core.ToolResultMessage{ToolCallID: id, ToolName: "bash", Content: []core.Content{core.TextBlock(strings.Repeat(fmt.Sprintf("ok case %d\n", i), 40))}, Timestamp: int64(i)},
			&core.AssistantMessage{Content: []core.Content{core.TextBlock(fmt.Sprintf("Case %d passes.\n\n- every step printed **ok**\n- nothing was skipped", i))},
				API: "openai-completions", Provider: "openai", Model: "gpt-test", StopReason: core.StopEnd, Timestamp: int64(i)})
	}
	return out
}

// TestPreviewIsTheLastScreen: the preview of a session's end, read from
// its file, draws the screen the interface draws once the whole session
// is read, but for the footer's totals (it says it is reading); the
// input's mode is back as it was when the preview closes.
func TestPreviewIsTheLastScreen(t *testing.T) {
	dir := t.TempDir()
	msgs := previewHistory(60)
	f := session.Store{Root: t.TempDir()}.Create(dir)
	for _, m := range msgs {
		if _, err := f.AppendMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	path := f.FilePath()
	f.Close()

	const w, h = 120, 40
	model := core.Model{API: "openai-completions", Provider: "openai", ID: "gpt-test", Name: "gpt-test"}
	sess, err := agent.New(agent.Config{Model: model, History: msgs,
		Open: func(core.Model) (agent.Connection, error) { return agent.Connection{}, io.EOF }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	full := New(Options{Session: sess, Cwd: dir, Version: "test"})
	full.Update(tea.WindowSizeMsg{Width: w, Height: h})
	want := strings.Split(solidBackgrounds(full.render()), "\n")

	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	if err := pty.Setsize(tty, &pty.Winsize{Rows: h, Cols: w}); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, ptm)
	before, err := term.GetState(tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	pv, err := ShowPreview(PreviewOptions{Terminal: tty, Input: tty, Profile: colorprofile.TrueColor,
		Options: Options{Cwd: dir, Version: "test"},
		Read: func(rows int) ([]core.Message, error) {
			tail, err := session.ReadTail(path, rows)
			read = len(tail.Messages)
			return tail.Messages, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	if read != h {
		t.Errorf("the preview read %d messages for %d rows", read, h)
	}
	if during, _ := term.GetState(tty.Fd()); reflect.DeepEqual(during, before) {
		t.Error("the input's mode did not change for the preview (typed keys would echo)")
	}
	got := pv.screen.shown
	if len(got) != len(want) {
		t.Fatalf("the preview has %d lines, the interface %d", len(got), len(want))
	}
	for i := range want[:len(want)-1] {
		if got[i] != want[i] {
			t.Errorf("line %d:\npreview   %q\ninterface %q", i+1, got[i], want[i])
		}
	}
	if last := got[len(got)-1]; !strings.Contains(last, "reading the session…") || !strings.Contains(last, "(openai) gpt-test") {
		t.Errorf("the preview's footer: %q", last)
	}
	pv.Close()
	if after, _ := term.GetState(tty.Fd()); !reflect.DeepEqual(after, before) {
		t.Error("the input's mode is not back after the preview")
	}
	pv.Close() // closing twice does nothing
}
