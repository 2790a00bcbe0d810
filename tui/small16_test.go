package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// TestCompactRefusesAnEmptyConversation asks to compact before any
// answer: nothing is sent, and the status says why.
func TestCompactRefusesAnEmptyConversation(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.command("/compact")
	if r.fp.Calls() != 0 {
		t.Fatalf("compacting an empty conversation made %d requests", r.fp.Calls())
	}
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, "Nothing to compact") || strings.Contains(s, "summarised") {
		t.Fatalf("screen:\n%s", s)
	}
}

// TestSkippedCallIsNotAFailure shows a call the core skipped for a queued
// message without the failure's cross.
func TestSkippedCallIsNotAFailure(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	it := &toolItem{id: "s1", name: "bash", args: mustJSON(map[string]any{"command": "make"})}
	r.m.tr.add(it)
	it.finish(&core.ToolResult{IsError: true, Content: []core.Content{text(skippedText)}}, testClock)
	s := ansi.Strip(r.m.render())
	if strings.Contains(s, "✗") || !strings.Contains(s, "Skipped due to queued user message") {
		t.Fatalf("a skipped call shows as a failure:\n%s", s)
	}
}

// TestLongPasteIsCollapsed sends a 200-line message: the transcript shows
// its start and how many lines are left out, until tools are expanded.
func TestLongPasteIsCollapsed(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 40})
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = "pasted line " + string(rune('a'+i%26))
	}
	r.send(eventsMsg{core.MessageStart{Message: &core.UserMessage{Content: []core.Content{text(strings.Join(lines, "\n"))}}}})
	s := ansi.Strip(r.m.render())
	if !strings.Contains(s, "… 188 more lines (ctrl+o to show all)") {
		t.Fatalf("the paste is not collapsed:\n%s", s)
	}
	r.send(key("ctrl+o"))
	if s := ansi.Strip(r.m.render()); strings.Contains(s, "more lines") {
		t.Fatalf("expanded, the paste is still cut:\n%s", s)
	}
}

// TestExportDefaultsOutsideTheProject exports without a path: the file
// goes under cairn's own directory; a path given is the project's.
func TestExportDefaultsOutsideTheProject(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.m.opts.Cwd, r.m.opts.Dir = "/work/project", "/home/me/.cairn"
	if got := r.m.exportPath("", "/home/me/.cairn/sessions/x/2026.jsonl"); !strings.HasPrefix(got, "/home/me/.cairn/exports/") {
		t.Fatalf("default export path = %s", got)
	}
	if got := r.m.exportPath("out.html", "/s.jsonl"); got != "/work/project/out.html" {
		t.Fatalf("export path for out.html = %s", got)
	}
}
