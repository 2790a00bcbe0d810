package piext

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/session"
)

// What pi extensions draw in cairn's TUI (host/render.mjs): footers,
// headers, renderers of messages, entries and tools, the working line.

// render asks the host for p's lines.
func (h *harness) render(t *testing.T, p extension.RenderParams) ([]string, error) {
	t.Helper()
	return h.m.Render(t.Context(), Name, p)
}

// mustRender is render that fails the test on an error, with each line's
// trailing blanks cut (pi-tui's Text pads its lines to the width).
func (h *harness) mustRender(t *testing.T, p extension.RenderParams) []string {
	t.Helper()
	lines, err := h.render(t, p)
	if err != nil {
		t.Fatalf("render %s: %v", p.Target, err)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > p.Width {
			t.Errorf("render %s: a line of %d cells at width %d: %q", p.Target, w, p.Width, l)
		}
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// sessionStart tells the extensions the session started.
func (h *harness) sessionStart(t *testing.T) {
	t.Helper()
	if _, err := h.ic.SessionStart(t.Context(), agent.SessionStartEvent{Source: agent.StartStartup}); err != nil {
		t.Fatal(err)
	}
}

// waitEvent waits until an event the host was shown, after the first
// skip, satisfies ok, and returns it.
func waitEvent[E core.Event](t *testing.T, h *harness, what string, skip int, ok func(E) bool) E {
	t.Helper()
	var found E
	h.host.waitFor(t, what, func(shown []core.Event, _ []string, _ []core.Question) bool {
		for _, e := range shown[min(skip, len(shown)):] {
			if x, is := e.(E); is && ok(x) {
				found = x
				return true
			}
		}
		return false
	})
	return found
}

// shownCount is how many events the host was shown so far.
func (h *harness) shownCount() int {
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	return len(h.host.shown)
}

func joined(lines []string) string { return strings.Join(lines, "\n") }

// custom-footer: /footer puts its footer in place, with the tokens of the
// branch's answers and the git branch; a branch change asks for a new
// rendering; /footer again gives the footer back.
func driveCustomFooter(t *testing.T) {
	cwd := t.TempDir()
	git := filepath.Join(cwd, ".git")
	if err := os.MkdirAll(git, 0o700); err != nil {
		t.Fatal(err)
	}
	writeHead := func(branch string) {
		if err := os.WriteFile(filepath.Join(git, "HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeHead("main")
	h := startHostIn(t, cwd, nil, "tui", "custom-footer.ts")
	footer := extension.RenderParams{Target: extension.RenderFooter, Width: 60}
	if _, err := h.render(t, footer); !errors.Is(err, extension.ErrNoRenderer) {
		t.Fatalf("a footer before /footer: %v", err)
	}
	h.input(t, "/footer")
	waitEvent(t, h, "the footer set", 0, func(c core.ChromeSet) bool {
		return c.Place == core.ChromeFooter && c.Set && c.Extension == Name
	})
	lines := h.mustRender(t, footer)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "↑0 ↓0 $0.000") || !strings.HasSuffix(lines[0], "no-model (main)") || ansi.StringWidth(lines[0]) != 60 {
		t.Fatalf("footer %q", lines)
	}
	h.host.appendEntry(&session.MessageEntry{Message: &core.AssistantMessage{Usage: core.Usage{Input: 1200, Output: 34, Cost: core.Cost{Total: 0.0125}}}})
	if got := h.mustRender(t, footer); !strings.HasPrefix(got[0], "↑1.2k ↓34 $0.013") {
		t.Errorf("footer after an answer %q", got)
	}
	if got := h.mustRender(t, extension.RenderParams{Target: extension.RenderFooter, Width: 20}); len(got) != 1 {
		t.Errorf("footer at 20 cells %q", got)
	}
	n := h.shownCount()
	writeHead("feature")
	waitEvent(t, h, "a new rendering asked for", n, func(r core.RenderRequested) bool { return r.Extension == Name })
	if got := h.mustRender(t, footer); !strings.HasSuffix(got[0], "(feature)") {
		t.Errorf("footer after the branch changed %q", got)
	}
	n = h.shownCount()
	h.input(t, "/footer")
	waitEvent(t, h, "the footer given back", n, func(c core.ChromeSet) bool { return c.Place == core.ChromeFooter && !c.Set })
	if _, err := h.render(t, footer); !errors.Is(err, extension.ErrNoRenderer) {
		t.Errorf("a footer after it was given back: %v", err)
	}
}

// custom-header: its mascot replaces the header at session start in the
// TUI; /builtin-header gives the header back.
func driveCustomHeader(t *testing.T) {
	h := startHost(t, "tui", "custom-header.ts")
	h.sessionStart(t)
	waitEvent(t, h, "the header set", 0, func(c core.ChromeSet) bool { return c.Place == core.ChromeHeader && c.Set })
	lines := h.mustRender(t, extension.RenderParams{Target: extension.RenderHeader, Width: 80})
	if len(lines) != 9 || lines[2] != "  ██████████████" || lines[8] != "   shitty coding agent v0.87.1" {
		t.Fatalf("header %q", lines)
	}
	n := h.shownCount()
	h.input(t, "/builtin-header")
	waitEvent(t, h, "the header given back", n, func(c core.ChromeSet) bool { return c.Place == core.ChromeHeader && !c.Set })
	if !strings.Contains(notices(h.host.shown), "Built-in header restored") {
		t.Errorf("notices %q", notices(h.host.shown))
	}
}

// message-renderer: a status-update message is drawn by its renderer,
// with its level, and its time when expanded.
func driveMessageRenderer(t *testing.T) {
	h := startHost(t, "tui", "message-renderer.ts")
	if mb := h.member(t, "message-renderer"); mb.Note != "" {
		t.Errorf("note %q", mb.Note)
	}
	p := extension.RenderParams{Target: extension.RenderMessage, Width: 40, CustomType: "status-update",
		Content: []core.Content{core.TextBlock("deploy done")}, Details: json.RawMessage(`{"level":"warn","timestamp":1767225600000}`)}
	if !h.m.Draws(p) {
		t.Fatal("the host does not draw status-update messages")
	}
	if got := h.mustRender(t, p); !slices.Equal(got, []string{"", " [WARN] deploy done", ""}) {
		t.Errorf("collapsed %q", got)
	}
	p.Expanded = true
	// The time's indent: pi-tui keeps "  at"; the host's stand-in for
	// pi-tui's wrapping folds it to one blank.
	if got := h.mustRender(t, p); len(got) != 4 || !strings.HasPrefix(strings.TrimLeft(got[2], " "), "at ") || got[3] != "" {
		t.Errorf("expanded %q", got)
	}
	if h.m.Draws(extension.RenderParams{Target: extension.RenderMessage, CustomType: "other"}) {
		t.Error("the host draws a type nobody registered")
	}
}

// entry-renderer: /status-card keeps an entry, drawn by its renderer.
func driveEntryRenderer(t *testing.T) {
	h := startHost(t, "tui", "entry-renderer.ts")
	h.input(t, "/status-card shipped")
	waitEvent(t, h, "the entry told", 0, func(e core.CustomEntryAdded) bool {
		return e.CustomType == "status-card" && e.ID == "e1"
	})
	h.host.mu.Lock()
	entries := slices.Clone(h.host.entries)
	h.host.mu.Unlock()
	if len(entries) != 1 {
		t.Fatalf("entries %+v", entries)
	}
	c := entries[0].Payload.(*session.CustomEntry)
	p := extension.RenderParams{Target: extension.RenderEntry, Width: 50, CustomType: c.CustomType, Data: c.Data}
	if got := h.mustRender(t, p); !slices.Equal(got, []string{"", " [status] shipped", ""}) {
		t.Errorf("collapsed %q", got)
	}
	p.Expanded = true
	if got := h.mustRender(t, p); len(got) != 4 || got[2] == "" {
		t.Errorf("expanded %q", got)
	}
}

// built-in-tool-renderer: read, bash, edit and write still run (the
// built-in's own code) and are drawn compactly.
func driveBuiltInToolRenderer(t *testing.T) {
	h := startHost(t, "tui", "built-in-tool-renderer.ts")
	if err := os.WriteFile(filepath.Join(h.cwd, "a.txt"), []byte("one\ntwo\nthree\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	read := h.tool(t, "read", `{"path": "a.txt"}`)
	call := extension.RenderParams{Target: extension.RenderToolCall, Width: 60, ToolName: "read", ToolCallID: "c1", Args: json.RawMessage(`{"path":"a.txt","offset":2}`)}
	if got := h.mustRender(t, call); !slices.Equal(got, []string{"read a.txt (offset=2)"}) {
		t.Errorf("read call %q", got)
	}
	result := extension.RenderParams{Target: extension.RenderToolResult, Width: 60, ToolName: "read", ToolCallID: "c1", Args: call.Args, Content: read.Content}
	want := strings.Count(text(read), "\n") + 1
	if got := h.mustRender(t, result); len(got) != 1 || got[0] != strconv.Itoa(want)+" lines" {
		t.Errorf("read result %q (text %q)", got, text(read))
	}
	result.Expanded = true
	if got := h.mustRender(t, result); len(got) < 4 || got[1] != "one" {
		t.Errorf("read expanded %q", got)
	}
	bash := extension.RenderParams{Target: extension.RenderToolCall, Width: 60, ToolName: "bash", Args: json.RawMessage(`{"command":"make test","timeout":30}`)}
	if got := h.mustRender(t, bash); !slices.Equal(got, []string{"$ make test (timeout: 30s)"}) {
		t.Errorf("bash call %q", got)
	}
	partial := extension.RenderParams{Target: extension.RenderToolResult, Width: 60, ToolName: "bash", IsPartial: true, Args: bash.Args}
	if got := h.mustRender(t, partial); !slices.Equal(got, []string{"Running..."}) {
		t.Errorf("bash partial %q", got)
	}
	if h.m.Draws(extension.RenderParams{Target: extension.RenderToolCall, ToolName: "grep"}) {
		t.Error("the host draws grep, which it does not register")
	}
}

// minimal-mode: a tool's call is one line, its result nothing until
// expanded (a count for find, grep and ls).
func driveMinimalMode(t *testing.T) {
	h := startHost(t, "tui", "minimal-mode.ts")
	call := extension.RenderParams{Target: extension.RenderToolCall, Width: 60, ToolName: "bash", Args: json.RawMessage(`{"command":"ls -la","timeout":5}`)}
	if got := h.mustRender(t, call); !slices.Equal(got, []string{"$ ls -la (timeout 5s)"}) {
		t.Errorf("bash call %q", got)
	}
	out := []core.Content{core.TextBlock("a\nb\nc\n")}
	result := extension.RenderParams{Target: extension.RenderToolResult, Width: 60, ToolName: "bash", Args: call.Args, Content: out}
	if got := h.mustRender(t, result); len(got) != 0 {
		t.Errorf("bash collapsed %q", got)
	}
	result.Expanded = true
	if got := h.mustRender(t, result); !slices.Equal(got, []string{"", "a", "b", "c"}) {
		t.Errorf("bash expanded %q", got)
	}
	find := extension.RenderParams{Target: extension.RenderToolResult, Width: 60, ToolName: "find", Args: json.RawMessage(`{"pattern":"*.go"}`), Content: out}
	// Its leading blank: kept by pi-tui, dropped by the host's stand-in.
	if got := h.mustRender(t, find); len(got) != 1 || strings.TrimLeft(got[0], " ") != "→ 3 files" {
		t.Errorf("find collapsed %q", got)
	}
}

// working-indicator: a pastel spinner at start; /working-indicator none
// hides it, reset gives cairn's own back.
func driveWorkingIndicator(t *testing.T) {
	h := startHost(t, "tui", "working-indicator.ts")
	h.sessionStart(t)
	spin := waitEvent(t, h, "the spinner", 0, func(w core.WorkingChanged) bool { return w.Indicator != nil })
	if !*spin.Indicator || len(spin.Frames) != 10 || spin.Interval != 80 || !strings.Contains(spin.Frames[0], "⠋") {
		t.Errorf("spinner %+v", spin)
	}
	waitEvent(t, h, "its status", 0, func(s core.StatusChanged) bool { return s.Text == "Indicator: custom spinner" })
	for _, c := range []struct {
		arg    string
		on     bool
		frames int
	}{{"none", true, 0}, {"dot", true, 1}, {"reset", false, 0}} {
		n := h.shownCount()
		h.input(t, "/working-indicator "+c.arg)
		w := waitEvent(t, h, c.arg, n, func(w core.WorkingChanged) bool { return w.Indicator != nil })
		if *w.Indicator != c.on || len(w.Frames) != c.frames {
			t.Errorf("%s: %+v", c.arg, w)
		}
	}
}

// working-message-test: its message and brown dot at session start.
func driveWorkingMessageTest(t *testing.T) {
	h := startHost(t, "tui", "working-message-test.ts")
	h.sessionStart(t)
	msg := waitEvent(t, h, "the message", 0, func(w core.WorkingChanged) bool { return w.Message != nil })
	if *msg.Message != "\x1b[38;2;155;86;63mWorking... (custom)\x1b[39m" {
		t.Errorf("message %q", *msg.Message)
	}
	dot := waitEvent(t, h, "the dot", 0, func(w core.WorkingChanged) bool { return w.Indicator != nil })
	if !*dot.Indicator || !slices.Equal(dot.Frames, []string{"\x1b[38;2;155;86;63m●\x1b[39m"}) {
		t.Errorf("indicator %+v", dot)
	}
}

// hidden-thinking-label: "Pondering..." at start, /thinking-label sets
// another, and without text gives cairn's own back.
func driveHiddenThinkingLabel(t *testing.T) {
	h := startHost(t, "tui", "hidden-thinking-label.ts")
	h.sessionStart(t)
	label := func(n int, want string) {
		t.Helper()
		waitEvent(t, h, "label "+want, n, func(w core.WorkingChanged) bool { return w.ThinkingLabel != nil && *w.ThinkingLabel == want })
	}
	label(0, "Pondering...")
	n := h.shownCount()
	h.input(t, "/thinking-label Mulling it over")
	label(n, "Mulling it over")
	n = h.shownCount()
	h.input(t, "/thinking-label")
	label(n, "")
}

// TestChromeIgnoredHeadless: in pi's rpc mode (and cairn's headless
// ones) setFooter, setWorkingMessage and the like do nothing, as pi's
// rpc-mode.js: nothing is shown and there is no footer to draw.
func TestChromeIgnoredHeadless(t *testing.T) {
	h := startHost(t, "rpc", "custom-footer.ts", "working-message-test.ts", "custom-header.ts")
	h.sessionStart(t)
	h.input(t, "/footer")
	h.input(t, "/builtin-header")
	h.host.mu.Lock()
	shown := slices.Clone(h.host.shown)
	h.host.mu.Unlock()
	for _, e := range shown {
		switch e.(type) {
		case core.ChromeSet, core.WorkingChanged, core.RenderRequested:
			t.Errorf("shown in rpc mode: %#v", e)
		}
	}
	for _, target := range []extension.RenderTarget{extension.RenderFooter, extension.RenderHeader} {
		if _, err := h.render(t, extension.RenderParams{Target: target, Width: 40}); !errors.Is(err, extension.ErrNoRenderer) {
			t.Errorf("%s in rpc mode: %v", target, err)
		}
	}
}

// TestRenderBounded: a renderer that never returns is given up on in
// time, and one drawing too much is cut; the host goes on.
func TestRenderBounded(t *testing.T) {
	ext, _ := filepath.Abs("testdata/api/render-bounds.ts")
	h := startHost(t, "tui", ext)
	start := time.Now()
	_, err := h.render(t, extension.RenderParams{Target: extension.RenderMessage, Width: 40, CustomType: "slow"})
	if err == nil || time.Since(start) > extension.RenderTimeout+3*time.Second {
		t.Errorf("slow renderer: %v after %v", err, time.Since(start))
	}
	lines := h.mustRender(t, extension.RenderParams{Target: extension.RenderMessage, Width: 40, CustomType: "huge"})
	if len(lines) != extension.MaxRenderLines {
		t.Errorf("%d lines kept", len(lines))
	}
}

// TestRenderLateMember: an extension that loads after the host answered
// initialize (a cold start on a busy machine) still draws its messages:
// cairn was not told its renderers, so it asks, and the host answers.
func TestRenderLateMember(t *testing.T) {
	h := startHostIn(t, t.TempDir(), map[string]string{"CAIRN_PI_INIT_MS": "1"}, "tui", "message-renderer.ts")
	deadline := time.After(30 * time.Second)
	for !slices.ContainsFunc(h.m.Commands(), func(c extension.Command) bool { return c.Name == "status" }) {
		select {
		case <-h.m.Changed():
		case <-deadline:
			t.Fatal("message-renderer.ts never registered /status")
		}
	}
	p := extension.RenderParams{Target: extension.RenderMessage, Width: 40, CustomType: "status-update",
		Content: []core.Content{core.TextBlock("late")}, Details: json.RawMessage(`{"level":"error"}`)}
	if !h.m.Draws(p) {
		t.Fatal("a member still loading at initialize is not asked")
	}
	if got := h.mustRender(t, p); !slices.Equal(got, []string{"", " [ERROR] late", ""}) {
		t.Errorf("lines %q", got)
	}
	if _, err := h.render(t, extension.RenderParams{Target: extension.RenderMessage, Width: 40, CustomType: "nobody"}); !errors.Is(err, extension.ErrNoRenderer) {
		t.Errorf("a type nobody draws: %v", err)
	}
}

// TestToolRowState: a tool's renders of one call share pi's
// context.state and see the slot's last component; another call starts
// afresh.
func TestToolRowState(t *testing.T) {
	ext, _ := filepath.Abs("testdata/api/tool-row.ts")
	h := startHost(t, "tui", ext)
	call := func(id string) string {
		t.Helper()
		return joined(h.mustRender(t, extension.RenderParams{Target: extension.RenderToolCall, Width: 40, ToolName: "counter", ToolCallID: id}))
	}
	for _, c := range []struct{ id, want string }{{"a", "call 1 last=no a"}, {"a", "call 2 last=yes a"}, {"b", "call 1 last=no b"}} {
		if got := call(c.id); got != c.want {
			t.Errorf("%s: %q, want %q", c.id, got, c.want)
		}
	}
	// No result renderer: cairn draws the result itself.
	if _, err := h.render(t, extension.RenderParams{Target: extension.RenderToolResult, Width: 40, ToolName: "counter", ToolCallID: "a"}); !errors.Is(err, extension.ErrNoRenderer) {
		t.Errorf("result: %v", err)
	}
}

// BenchmarkRenderFooter is one footer drawing's round trip: cairn asks,
// the host's worker renders custom-footer.ts's component (reading the
// session's entries from cairn on the way), the lines come back.
func BenchmarkRenderFooter(b *testing.B) {
	h := startHost(b, "tui", "custom-footer.ts")
	// The footer is set before the command's answer comes back.
	if _, err := h.ic.Input(b.Context(), agent.InputEvent{Text: "/footer"}); err != nil {
		b.Fatal(err)
	}
	p := extension.RenderParams{Target: extension.RenderFooter, Width: 100}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.m.Render(b.Context(), Name, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderHeader is a drawing that asks cairn nothing on the way:
// custom-header.ts's mascot.
func BenchmarkRenderHeader(b *testing.B) {
	h := startHost(b, "tui", "custom-header.ts")
	if _, err := h.ic.SessionStart(b.Context(), agent.SessionStartEvent{Source: agent.StartStartup}); err != nil {
		b.Fatal(err)
	}
	p := extension.RenderParams{Target: extension.RenderHeader, Width: 100}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.m.Render(b.Context(), Name, p); err != nil {
			b.Fatal(err)
		}
	}
}
