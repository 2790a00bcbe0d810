package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/extension"
)

// fakeDrawer is an extension host that draws a footer and status-update
// messages, counting what it is asked.
type fakeDrawer struct {
	mu      sync.Mutex
	asked   map[string]int
	version int
	block   chan struct{} // when set, rendering waits on it
	// blockResult, when set, holds tool results' renderings.
	blockResult chan struct{}
}

func (f *fakeDrawer) render(_ context.Context, ext string, p extension.RenderParams) ([]string, error) {
	if f.block != nil {
		<-f.block
	}
	if f.blockResult != nil && p.Target == extension.RenderToolResult {
		<-f.blockResult
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.asked == nil {
		f.asked = map[string]int{}
	}
	f.asked[fmt.Sprintf("%s %s %s%s %d", ext, p.Target, p.CustomType, p.ToolName, p.Width)]++
	switch p.Target {
	case extension.RenderFooter:
		if f.version == 3 {
			// A footer of a hundred lines.
			lines := make([]string, 100)
			for i := range lines {
				lines[i] = fmt.Sprintf("row %d", i)
			}
			return lines, nil
		}
		// An escape in the lines: cairn takes it out, never writes it.
		return []string{fmt.Sprintf("ext footer v%d \x1b[31mred\x1b[39m at %d", f.version, p.Width)}, nil
	case extension.RenderMessage:
		return []string{fmt.Sprintf("[WARN] %s v%d", p.Content[0].Text, f.version)}, nil
	case extension.RenderHeader:
		return []string{"   █▌  █▌", "  shitty coding agent"}, nil
	case extension.RenderEntry:
		return []string{"[status] " + string(p.Data)}, nil
	case extension.RenderToolCall:
		return []string{"$ " + string(p.Args)}, nil
	case extension.RenderToolResult:
		if p.IsPartial {
			return []string{"Running..."}, nil
		}
		if !p.Expanded {
			return []string{}, nil // minimal-mode: nothing until expanded
		}
		return []string{"output: " + p.Content[0].Text}, nil
	}
	return nil, extension.ErrNoRenderer
}

func (f *fakeDrawer) draws(p extension.RenderParams) bool {
	return p.Target == extension.RenderMessage && p.CustomType == "status-update" ||
		p.Target == extension.RenderEntry && p.CustomType == "status-card" ||
		p.Target == extension.RenderToolCall && p.ToolName == "bash"
}

func (f *fakeDrawer) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asked[key]
}

func lastLine(frame string) string {
	lines := strings.Split(ansi.Strip(frame), "\n")
	return lines[len(lines)-1]
}

// TestExtensionFooter: an extension's footer replaces cairn's at the
// screen's width, drawn again after a resize and when the extension asks;
// given back, cairn's own returns.
func TestExtensionFooter(t *testing.T) {
	r := newRig(t, rigOptions{})
	f := &fakeDrawer{}
	r.m.opts.RenderExtension, r.m.opts.ExtensionDraws = f.render, f.draws
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	own := lastLine(r.m.render())
	r.send(eventsMsg{core.ChromeSet{Extension: "pi", Place: core.ChromeFooter, Set: true}})
	frame := r.m.render()
	checkScreen(t, frame, 80, 24)
	if got := lastLine(frame); got != "ext footer v0 red at 80" {
		t.Fatalf("footer %q (cairn's was %q)", got, own)
	}
	if strings.Contains(frame, "\x1b[31m") || strings.Contains(frame, `\x1b`) {
		t.Errorf("the extension's escape reached the screen: %q", frame)
	}
	r.send(tea.WindowSizeMsg{Width: 60, Height: 24})
	if got := lastLine(r.m.render()); got != "ext footer v0 red at 60" {
		t.Errorf("footer after a resize %q", got)
	}
	f.mu.Lock()
	f.version = 1
	f.mu.Unlock()
	r.send(eventsMsg{core.RenderRequested{Extension: "pi"}})
	if got := lastLine(r.m.render()); got != "ext footer v1 red at 60" || f.count("pi footer  60") != 2 {
		t.Errorf("footer after requestRender %q, asked %v", got, f.asked)
	}
	// A status changed (so may the footer's data): it is drawn again.
	f.mu.Lock()
	f.version = 2
	f.mu.Unlock()
	r.send(eventsMsg{core.StatusChanged{Key: "k", Text: "busy"}})
	if got := lastLine(r.m.render()); got != "ext footer v2 red at 60" {
		t.Errorf("footer after a status changed %q", got)
	}
	// A footer of many lines takes a third of the screen at most.
	f.mu.Lock()
	f.version = 3
	f.mu.Unlock()
	r.send(eventsMsg{core.RenderRequested{Extension: "pi"}})
	if frame := r.m.render(); !strings.Contains(frame, "row 7") || strings.Contains(frame, "row 8") {
		t.Errorf("a long footer:\n%s", ansi.Strip(frame))
	} else {
		checkScreen(t, frame, 60, 24)
	}
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{core.ChromeSet{Extension: "pi", Place: core.ChromeFooter}})
	if got := lastLine(r.m.render()); got != own {
		t.Errorf("footer given back %q, want cairn's %q", got, own)
	}
}

// TestExtensionFooterNeverBlocks: while the extension has not answered,
// the screen draws at once, with cairn's footer.
func TestExtensionFooterNeverBlocks(t *testing.T) {
	r := newRig(t, rigOptions{})
	f := &fakeDrawer{block: make(chan struct{})}
	defer close(f.block)
	r.m.opts.RenderExtension = f.render
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	own := lastLine(r.m.render())
	r.send(eventsMsg{core.ChromeSet{Extension: "pi", Place: core.ChromeFooter, Set: true}})
	if got := lastLine(r.m.render()); got != own {
		t.Errorf("footer while the extension draws %q, want cairn's %q", got, own)
	}
	if len(r.m.draw.asking) != 1 {
		t.Errorf("asking %v", r.m.draw.asking)
	}
}

// TestExtensionMessageRenderer: a custom message an extension draws shows
// its lines in the transcript; one nobody draws is cairn's notice.
func TestExtensionMessageRenderer(t *testing.T) {
	r := newRig(t, rigOptions{})
	f := &fakeDrawer{}
	r.m.opts.RenderExtension, r.m.opts.ExtensionDraws = f.render, f.draws
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{
		core.MessageStart{Message: &core.CustomMessage{CustomType: "status-update", Content: []core.Content{core.TextBlock("deploy done")}, Display: true}},
		core.MessageStart{Message: &core.CustomMessage{CustomType: "other", Content: []core.Content{core.TextBlock("plain note")}, Display: true}},
	})
	frame := ansi.Strip(r.m.render())
	if !strings.Contains(frame, "  [WARN] deploy done") || !strings.Contains(frame, "plain note") {
		t.Errorf("transcript:\n%s", frame)
	}
	if f.count(" message status-update 78") != 1 {
		t.Errorf("asked %v", f.asked)
	}
	f.mu.Lock()
	f.version = 1
	f.mu.Unlock()
	r.send(eventsMsg{core.RenderRequested{Extension: "pi"}})
	if frame := ansi.Strip(r.m.render()); !strings.Contains(frame, "  [WARN] deploy done v1") {
		t.Errorf("after requestRender:\n%s", frame)
	}
}

// TestExtensionEntryRenderer: a custom entry an extension draws shows in
// the transcript; one nobody draws does not (pi's appendEntry).
func TestExtensionEntryRenderer(t *testing.T) {
	r := newRig(t, rigOptions{})
	f := &fakeDrawer{}
	r.m.opts.RenderExtension, r.m.opts.ExtensionDraws = f.render, f.draws
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{
		core.CustomEntryAdded{ID: "e1", CustomType: "status-card", Data: json.RawMessage(`"shipped"`)},
		core.CustomEntryAdded{ID: "e2", CustomType: "state", Data: json.RawMessage(`"hidden state"`)},
	})
	frame := ansi.Strip(r.m.render())
	if !strings.Contains(frame, `  [status] "shipped"`) || strings.Contains(frame, "hidden state") {
		t.Errorf("transcript:\n%s", frame)
	}
}

// TestExtensionWorkingLine: an extension's working message and indicator
// replace cairn's spinner and state; hidden, the line goes; the hidden
// thinking label names folded thinking.
func TestExtensionWorkingLine(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.m.busy, r.m.busySince = true, testClock
	msg, on, label := "\x1b[38;2;155;86;63mWorking... (custom)\x1b[39m", true, "Pondering..."
	r.send(eventsMsg{core.WorkingChanged{Message: &msg, Indicator: &on, Frames: []string{"\x1b[38;2;155;86;63m●\x1b[39m"}, ThinkingLabel: &label}})
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, " ● Working... (custom) ") {
		t.Errorf("working line:\n%s", s)
	}
	if got := ansi.Strip(renderThinking(r.m.renderContext(), "weighing options", 60, false)); got != "∴ Pondering... weighing options" {
		t.Errorf("folded thinking %q", got)
	}
	off := false
	r.send(eventsMsg{core.WorkingChanged{Visible: &off}})
	if s := ansi.Strip(r.m.render()); strings.Contains(s, "Working") {
		t.Errorf("hidden working line:\n%s", s)
	}
}

// TestExtensionToolRenderer: a tool whose extension draws it shows the
// extension's call line and result lines, the result only when expanded
// (minimal-mode); a tool it does not draw is cairn's.
func TestExtensionToolRenderer(t *testing.T) {
	r := newRig(t, rigOptions{})
	f := &fakeDrawer{}
	r.m.opts.RenderExtension, r.m.opts.ExtensionDraws = f.render, f.draws
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	args := json.RawMessage(`{"command":"ls"}`)
	r.send(eventsMsg{core.ToolExecutionStart{ToolCallID: "c1", ToolName: "bash", Args: args}})
	r.send(eventsMsg{core.ToolExecutionUpdate{ToolCallID: "c1", ToolName: "bash", Partial: core.ToolUpdate{Content: []core.Content{core.TextBlock("a")}}}})
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, `  $ {"command":"ls"}`+"\n  Running...") {
		t.Errorf("running:\n%s", s)
	}
	r.send(eventsMsg{core.ToolExecutionEnd{ToolCallID: "c1", ToolName: "bash", Result: core.ToolResult{Content: []core.Content{core.TextBlock("a.txt")}}}})
	s := ansi.Strip(r.m.render())
	if !strings.Contains(s, `  $ {"command":"ls"}`) || strings.Contains(s, "Running...") || strings.Contains(s, "output:") {
		t.Errorf("done, collapsed:\n%s", s)
	}
	r.send(key("ctrl+o"))
	if s := ansi.Strip(r.m.render()); !strings.Contains(s, "  output: a.txt") {
		t.Errorf("done, expanded:\n%s", s)
	}
	r.send(eventsMsg{core.ToolExecutionStart{ToolCallID: "c2", ToolName: "read", Args: json.RawMessage(`{"path":"x.go"}`)}})
	for k := range f.asked {
		if strings.Contains(k, "read") {
			t.Errorf("asked to draw a tool no extension draws: %v", f.asked)
		}
	}
}

// TestExtensionHeader: an extension's header tops the transcript, above
// what follows; given back, it goes.
func TestExtensionHeader(t *testing.T) {
	r := newRig(t, rigOptions{})
	f := &fakeDrawer{}
	r.m.opts.RenderExtension, r.m.opts.ExtensionDraws = f.render, f.draws
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{
		core.MessageStart{Message: &core.UserMessage{Content: []core.Content{core.TextBlock("hello there")}}},
		core.ChromeSet{Extension: "pi", Place: core.ChromeHeader, Set: true},
	})
	frame := ansi.Strip(r.m.render())
	checkScreen(t, r.m.render(), 80, 24)
	head, user := strings.Index(frame, "  shitty coding agent"), strings.Index(frame, "hello there")
	if head < 0 || user < 0 || head > user || !strings.Contains(frame, "   █▌  █▌") {
		t.Errorf("header at %d, message at %d:\n%s", head, user, frame)
	}
	r.send(eventsMsg{core.ChromeSet{Extension: "pi", Place: core.ChromeHeader}})
	if frame := ansi.Strip(r.m.render()); strings.Contains(frame, "shitty") || !strings.Contains(frame, "hello there") {
		t.Errorf("header given back:\n%s", frame)
	}
}

// FuzzDrawnLine: whatever an extension draws, the line cairn shows holds
// no escape and fits the width.
func FuzzDrawnLine(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred\x1b[39m", "\x1b]8;;http://x\x07link\x1b]8;;\x07", "tab\there\r\n", "wide 漢字漢字", "\u202eevil", "\x9b31m"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		w = 1 + abs(w)%200
		got := drawnLine(s, w)
		if strings.ContainsAny(got, "\x1b\x07\r\n\u009b") {
			t.Errorf("drawnLine(%q, %d) = %q holds a control character", s, w, got)
		}
		if ansi.StringWidth(got) > w {
			t.Errorf("drawnLine(%q, %d) = %q is %d cells", s, w, got, ansi.StringWidth(got))
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestExtensionToolResultPending: while a call's first result is being
// drawn, the extension's call line stands alone; cairn's own drawing of
// the call does not flash in between.
func TestExtensionToolResultPending(t *testing.T) {
	r := newRig(t, rigOptions{})
	f := &fakeDrawer{blockResult: make(chan struct{})}
	defer close(f.blockResult)
	r.m.opts.RenderExtension, r.m.opts.ExtensionDraws = f.render, f.draws
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	r.send(eventsMsg{core.ToolExecutionStart{ToolCallID: "c1", ToolName: "bash", Args: json.RawMessage(`{"command":"ls"}`)}})
	r.send(eventsMsg{core.ToolExecutionEnd{ToolCallID: "c1", ToolName: "bash", Result: core.ToolResult{Content: []core.Content{core.TextBlock("a.txt")}}}})
	s := ansi.Strip(r.m.render())
	if !strings.Contains(s, `  $ {"command":"ls"}`) || strings.Contains(s, "a.txt") {
		t.Errorf("result pending:\n%s", s)
	}
}
