package tui

import (
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// resumedModel is the interface over a session that holds msgs, at w x h.
func resumedModel(t *testing.T, msgs []core.Message, w, h int) *Model {
	t.Helper()
	sess, err := agent.New(agent.Config{Model: core.Model{Provider: "openai", ID: "gpt-test"}, History: msgs,
		Open: func(core.Model) (agent.Connection, error) { return agent.Connection{}, io.EOF }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	m := New(Options{Session: sess, Cwd: t.TempDir(), Version: "test"})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// allLines draws every entry of the transcript.
func allLines(m *Model) []string {
	rc := m.renderContext()
	var out []string
	for i := range m.tr.entries {
		out = append(out, m.tr.linesOf(i, rc)...)
	}
	return out
}

// A long resumed session makes the items of its last turns only; scrolling
// up to the top makes the older ones a chunk at a time, and the whole
// transcript then draws as one made at once would; Home makes them all.
func TestOlderItemsMadeWhenScrolledTo(t *testing.T) {
	msgs := previewHistory(300) // 1,200 messages
	m := resumedModel(t, msgs, 120, 40)
	made := len(m.tr.entries)
	if made >= 900 || made < historyChunk/2 {
		t.Fatalf("%d items made at once for %d messages", made, len(msgs))
	}
	screen := m.render()
	if !strings.Contains(screen, "Case 300 passes.") || strings.Contains(screen, "Question 1:") {
		t.Fatalf("the first screen is not the end:\n%s", screen)
	}

	var eager transcript
	eager.follow = true
	m.addItems(&eager, msgs, 0, len(msgs))
	whole := func() []string {
		rc := m.renderContext()
		var out []string
		for i := range eager.entries {
			out = append(out, eager.linesOf(i, rc)...)
		}
		return out
	}()

	// Page up to the top, a page at a time.
	for range 10_000 {
		if screen := m.render(); strings.Contains(screen, "Question 1: does case 1 pass?") {
			break
		}
		m.onScrollKey(tea.KeyPressMsg{Code: tea.KeyPgUp})
	}
	if !strings.Contains(m.render(), "Question 1: does case 1 pass?") {
		t.Fatal("page up never reached the first question")
	}
	if m.tr.older != nil && m.tr.loadOlder() != 0 {
		t.Error("items were left to make after the top was reached")
	}
	if got := allLines(m); strings.Join(got, "\n") != strings.Join(whole, "\n") {
		t.Errorf("the transcript made in chunks (%d lines) differs from one made at once (%d lines)", len(got), len(whole))
	}

	// Home on a fresh one makes everything at once.
	m = resumedModel(t, msgs, 120, 40)
	m.tr.home()
	if len(m.tr.entries) != len(eager.entries) || m.tr.older != nil {
		t.Errorf("Home made %d of %d items", len(m.tr.entries), len(eager.entries))
	}
	if !strings.Contains(m.render(), "Question 1: does case 1 pass?") {
		t.Error("Home does not show the first question")
	}
}
