package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
)

// TestStreamingLinesMatchWholeDrawing streams an answer with thinking, a
// long paragraph, a long code block and lists, a few bytes a delta, and
// checks after every delta that the lines the answer keeps and grows
// between frames are exactly the lines of drawing it whole, escapes and
// all.
func TestStreamingLinesMatchWholeDrawing(t *testing.T) {
	long := strings.Repeat("A long paragraph that goes on with **bold** and `code` words. ", 40)
	code := "```go\n" + strings.Repeat("x := compute(1, 2) // a line of code\n", 40) + "```\n"
	doc := "## Plan\n\n" + long + "\n\n" + code + "\n- one\n- two\n\n" + long + "\n\nDone."
	for _, thoughts := range []bool{false, true} {
		r := newRig(t, rigOptions{})
		r.send(tea.WindowSizeMsg{Width: 90, Height: 30})
		r.m.showThinking = thoughts
		r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
		var head []core.Content
		if thoughts {
			head = append(head, thinking("First I look at the code.\nThen I answer."))
		}
		idx := -1
		for i, e := range r.m.tr.entries {
			if _, ok := e.it.(*assistantItem); ok {
				idx = i
			}
		}
		a := r.m.tr.entries[idx].it.(*assistantItem)
		for end := 5; end <= len(doc)+5; end += 5 {
			to := min(end, len(doc))
			msg := answer(append(append([]core.Content{}, head...), text(doc[:to]))...)
			r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Index: len(head), Delta: doc[end-5 : to], Message: msg}})
			if a.fed.n != to && end > 5 {
				t.Fatalf("%d bytes: the delta was not taken in (fed %+v)", to, a.fed)
			}
			rc := r.m.renderContext()
			got := strings.Join(r.m.tr.linesOf(idx, rc), "\n")
			want := a.render(rc) + "\n"
			if got != want {
				t.Fatalf("thoughts %v, %d bytes: kept lines differ from the whole drawing:\n%s\n---\n%s", thoughts, end, got, want)
			}
		}
	}
}

// TestDeltaThatDoesNotFitIsCompared sends deltas that do not extend the
// text drawn so far: the answer is drawn from its text, not the deltas,
// at once when the delta does not fit the text's length, and at the
// message's end otherwise (only the delta's bytes are checked while it
// streams).
func TestDeltaThatDoesNotFitIsCompared(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 90, Height: 30})
	r.send(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
	r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: "Hello", Message: answer(text("Hello"))}})
	_ = r.m.render()
	r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: " world", Message: answer(text("Hi world"))}})
	if got := r.m.render(); !strings.Contains(got, "Hi world") || strings.Contains(got, "Hello") {
		t.Fatalf("the answer is not drawn from its text:\n%s", got)
	}
	r.send(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: " there", Message: answer(text("Yo world there"))}})
	end := answer(text("Yo world there"))
	end.Provider = "test"
	r.send(eventsMsg{core.MessageEnd{Message: end}})
	if got := r.m.render(); !strings.Contains(got, "Yo world there") {
		t.Fatalf("the finished answer is not drawn from its text:\n%s", got)
	}
}
