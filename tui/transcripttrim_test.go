package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// keptLines is how many drawn lines the transcript's entries hold.
func keptLines(tr *transcript) (lines, entries int) {
	for _, e := range tr.entries {
		if e.rendered {
			lines += len(e.lines)
			entries++
		}
	}
	return lines, entries
}

// TestTranscriptKeepsFewDrawings pages through a 5,000-message transcript:
// the drawings it keeps stay within its budget, the first answer's
// drawing and markdown streams are dropped once it is far off screen, and
// drawn again it is the same screen as before.
func TestTranscriptKeepsFewDrawings(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.m.showConversation(longConversation(2500))
	r.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	_ = r.m.render()
	r.send(tea.KeyPressMsg{Code: tea.KeyHome})
	top := ansi.Strip(r.m.render())
	first, ok := r.m.tr.entries[1].it.(*assistantItem)
	if !ok || !r.m.tr.entries[1].rendered || len(first.streams) == 0 {
		t.Fatalf("the first answer is not drawn on the first screen:\n%s", top)
	}
	r.send(tea.KeyPressMsg{Code: tea.KeyEnd})
	budget := max(keptScreens*r.m.height, minKeptLines)
	for range 40 {
		r.send(key("pgup"))
		_ = r.m.render()
		if n, e := keptLines(&r.m.tr); n > budget+r.m.height {
			t.Fatalf("the transcript keeps %d drawn lines of %d entries; its budget is %d", n, e, budget)
		}
	}
	if r.m.tr.entries[1].rendered || len(first.streams) != 0 {
		t.Fatal("the first answer is still drawn, far off screen")
	}
	r.send(tea.KeyPressMsg{Code: tea.KeyHome})
	if again := ansi.Strip(r.m.render()); again != top {
		t.Fatalf("the first screen drawn again differs:\n%s\nbefore:\n%s", again, top)
	}
}

// TestTranscriptTrimKeepsTheScreen: a budget smaller than the screen
// still keeps every drawing the last view used.
func TestTranscriptTrimKeepsTheScreen(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.m.showConversation(longConversation(50))
	r.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	_ = r.m.render()
	_, before := keptLines(&r.m.tr)
	r.m.tr.trim(0)
	if _, after := keptLines(&r.m.tr); after != before || before == 0 {
		t.Fatalf("trim dropped drawings on screen: %d entries drawn, %d after", before, after)
	}
}
