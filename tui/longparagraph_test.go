package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// longParagraph is n words with no newline, about 7 bytes a word.
func longParagraph(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("word%d", i+1)
	}
	return strings.Join(words, " ")
}

// answerLines returns the drawn lines of the newest answer, without
// styling and trailing spaces.
func (r *rig) answerLines() []string {
	r.t.Helper()
	rc := r.m.renderContext()
	for i := len(r.m.tr.entries) - 1; i >= 0; i-- {
		if _, ok := r.m.tr.entries[i].it.(*assistantItem); ok {
			var out []string
			for _, l := range r.m.tr.linesOf(i, rc) {
				if l = strings.TrimRight(ansi.Strip(l), " "); l != "" {
					out = append(out, l)
				}
			}
			return out
		}
	}
	r.t.Fatal("no answer in the transcript")
	return nil
}

// wholeParagraph is how the markdown renderer draws text in one piece,
// indented as the transcript indents an answer.
func (r *rig) wholeParagraph(text string) []string {
	var out []string
	for _, l := range strings.Split(r.m.md.Render(text), "\n") {
		if l = strings.TrimRight(ansi.Strip(l), " "); l != "" {
			out = append(out, "  "+l)
		}
	}
	return out
}

// TestLongParagraphHasNoHardBreaks streams a 1,200-word paragraph with no
// newline: while it streams, once it has ended, after a resize and after a
// resume it is drawn as the renderer draws it whole, with no short line
// inside it.
func TestLongParagraphHasNoHardBreaks(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	para := longParagraph(1200)
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
	for end := 40; end < len(para); end += 40 {
		r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Message: answer(text(para[:end]))}})
		_ = r.m.render()
		if end%2000 == 0 {
			// While it streams, too, lines break as in a whole render.
			if got, want := r.answerLines(), r.wholeParagraph(para[:end]); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("while streaming (%d bytes) the lines differ from a whole render:\n%s\n---\n%s", end, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	final := answer(text(para))
	final.Provider = "test" // no scripted tag under it
	r.send(eventsMsg{core.MessageEnd{Message: final}, core.AgentEnd{}, core.Settled{}})

	check := func(when string) {
		t.Helper()
		got, want := r.answerLines(), r.wholeParagraph(para)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%s: line %d = %q, want %q (%d lines, want %d)", when, i, got[i], want[i], len(got), len(want))
				}
			}
			t.Fatalf("%s: %d lines, want %d", when, len(got), len(want))
		}
	}
	check("after the stream ended")
	r.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	check("after a resize")
	r.m.tr.clear()
	r.m.showConversation([]core.Message{final})
	check("after a resume")
}
