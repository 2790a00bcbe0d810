package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestFirstRunKeepsURLsWhole: a line of the first-run text is wrapped
// between words, never at a URL's slashes (at 100 columns
// "http://localhost:8080/v1" was cut after "http:/").
func TestFirstRunKeepsURLsWhole(t *testing.T) {
	for _, width := range []int{80, 100, 120} {
		r := newRig(t, rigOptions{firstRun: true})
		r.m.firstRun.Lines = firstRunLines
		r.m.tr.entries[0].touch()
		r.send(tea.WindowSizeMsg{Width: width, Height: 40})
		s := ansi.Strip(r.m.render())
		for _, url := range []string{"http://localhost:8080/v1", "http://localhost:11434/v1"} {
			if !strings.Contains(s, url) {
				t.Errorf("at %d columns %s is not whole on one line:\n%s", width, url, s)
			}
		}
	}
}
