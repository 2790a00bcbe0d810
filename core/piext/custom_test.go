package piext

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// Keys as a terminal writes them, which pi-tui's matchesKey reads.
const (
	keyEnter  = "\r"
	keyEscape = "\x1b"
	keyDown   = "\x1b[B"
	keyUp     = "\x1b[A"
	keyRight  = "\x1b[C"
	keyLeft   = "\x1b[D"
	keyTab    = "\t"
)

// shownComponent is a component an extension shows, as a front end
// drives it.
type shownComponent struct {
	h      *harness
	id     string
	handle core.Component
	// seen counts the host's events already looked at for drawings.
	seen int
}

// component waits for the next component an extension shows, and gives
// it the size width x height.
func (h *harness) component(t *testing.T, width, height int) *shownComponent {
	t.Helper()
	var c *shownComponent
	h.host.waitFor(t, "a component shown", func(shown []core.Event, _ []string, _ []core.Question) bool {
		// The last one shown that is still open.
		closed := map[string]bool{}
		for i := len(shown) - 1; i >= 0; i-- {
			switch s := shown[i].(type) {
			case core.ComponentClosed:
				closed[s.ID] = true
			case core.ComponentShown:
				if !closed[s.ID] {
					c = &shownComponent{h: h, id: s.ID, handle: s.Handle, seen: i}
					return true
				}
			}
		}
		return false
	})
	c.handle.Resize(width, height)
	return c
}

// lines waits for a drawing made after the last one read that holds
// want, and returns its lines.
func (c *shownComponent) lines(t *testing.T, want string) []string {
	t.Helper()
	return c.drawing(t, want).Lines
}

// drawing waits for a drawing made after the last one read that holds
// want.
func (c *shownComponent) drawing(t *testing.T, want string) core.ComponentRendered {
	t.Helper()
	var got core.ComponentRendered
	c.h.host.waitFor(t, "a drawing with "+want, func(shown []core.Event, _ []string, _ []core.Question) bool {
		for i := c.seen; i < len(shown); i++ {
			if r, ok := shown[i].(core.ComponentRendered); ok && r.ID == c.id {
				got = r
				if strings.Contains(stripSGR(strings.Join(r.Lines, "\n")), want) {
					c.seen = i + 1
					return true
				}
			}
		}
		return false
	})
	return got
}

// key sends keys, one at a time.
func (c *shownComponent) key(keys ...string) {
	for _, k := range keys {
		c.handle.Input(k)
	}
}

// closed waits until the component is closed.
func (c *shownComponent) closed(t *testing.T) {
	t.Helper()
	c.h.host.waitFor(t, "the component closed", func(shown []core.Event, _ []string, _ []core.Question) bool {
		for _, e := range shown {
			if e == (core.ComponentClosed{ID: c.id}) {
				return true
			}
		}
		return false
	})
}

// asyncTool runs the tool name in the background; its result comes on
// the channel.
func (h *harness) asyncTool(t *testing.T, name, args string) <-chan string {
	t.Helper()
	tool := h.m.Find(name)
	if tool == nil {
		t.Fatalf("no tool %s", name)
	}
	out := make(chan string, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		res, err := tool.Execute(ctx, core.ToolCall{ID: "call-1", Name: name, Arguments: json.RawMessage(args)}, func(core.ToolUpdate) {})
		if err != nil {
			out <- "error: " + err.Error()
			return
		}
		out <- text(res)
	}()
	return out
}

// asyncInput sends a person's message (a /command) through the
// extensions in the background; the outcome comes on the channel.
func (h *harness) asyncInput(t *testing.T, text string) <-chan error {
	t.Helper()
	out := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		_, err := h.ic.Input(ctx, agent.InputEvent{Text: text})
		out <- err
	}()
	return out
}

func receive[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(40 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

const questionArgs = `{"question": "Which colour?", "options": [{"label": "Red"}, {"label": "Green", "description": "like grass"}]}`

// question: the tool shows its options with pi-tui's components; keys
// move and pick, and the answer is the tool's result.
func driveQuestion(t *testing.T) {
	h := startHost(t, "custom", "question.ts")
	res := h.asyncTool(t, "question", questionArgs)
	c := h.component(t, 60, 20)
	lines := c.lines(t, "Which colour?")
	if !strings.Contains(strings.Join(lines, "\n"), "Red") || !strings.Contains(strings.Join(lines, "\n"), "like grass") {
		t.Errorf("options not drawn: %q", lines)
	}
	c.key(keyDown)
	c.lines(t, "> 2. Green")
	c.key(keyEnter)
	if got := receive(t, "the tool's result", res); got != "User selected: 2. Green" {
		t.Errorf("result %q", got)
	}
	c.closed(t)
}

// Escape reaches the component, as in pi: question.ts cancels.
func TestCustomEscapeReachesComponent(t *testing.T) {
	h := startHost(t, "custom", "question.ts")
	res := h.asyncTool(t, "question", questionArgs)
	c := h.component(t, 60, 20)
	c.lines(t, "Which colour?")
	c.key(keyEscape)
	if got := receive(t, "the tool's result", res); got != "User cancelled the selection" {
		t.Errorf("result %q", got)
	}
}

// A component the person dismisses (cairn's way out of one that no
// longer answers) resolves ui.custom with undefined.
func TestCustomDismissed(t *testing.T) {
	h := startHost(t, "custom", "question.ts")
	res := h.asyncTool(t, "question", questionArgs)
	c := h.component(t, 60, 20)
	c.lines(t, "Which colour?")
	c.handle.Dismiss()
	if got := receive(t, "the tool's result", res); got != "User cancelled the selection" {
		t.Errorf("result %q", got)
	}
	c.closed(t)
}

// In pi's rpc mode (and cairn's, and wherever no component can be shown)
// ui.custom answers undefined at once.
func TestCustomHeadlessIsUndefined(t *testing.T) {
	h := startHost(t, "tui", "question.ts")
	if got := text(h.tool(t, "question", questionArgs)); got != "User cancelled the selection" {
		t.Errorf("result %q", got)
	}
	for _, e := range h.host.shown {
		if _, ok := e.(core.ComponentShown); ok {
			t.Errorf("a component was shown without custom in the UI list")
		}
	}
}

// A resize draws the component anew at the new width.
func TestCustomResizeRedraws(t *testing.T) {
	h := startHost(t, "custom", "question.ts")
	res := h.asyncTool(t, "question", questionArgs)
	c := h.component(t, 60, 20)
	c.lines(t, "Which colour?")
	c.handle.Resize(30, 10)
	lines := c.lines(t, "Which colour?")
	for _, l := range lines {
		if n := len([]rune(stripSGR(l))); n > 30 {
			t.Errorf("line wider than 30 after the resize: %q", l)
		}
	}
	c.key(keyEnter)
	if got := receive(t, "the tool's result", res); got != "User selected: 1. Red" {
		t.Errorf("result %q", got)
	}
}

func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			j := i + 1
			for j < len(s) && !(s[j] >= 0x40 && s[j] <= 0x7e && j > i+1) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// sessionHas reports whether the session keeps a custom entry of type.
func (h *harness) entryCount(customType string) int {
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	n := 0
	for _, e := range h.host.entries {
		if c, ok := e.Payload.(*session.CustomEntry); ok && c.CustomType == customType {
			n++
		}
	}
	return n
}

// questionnaire: two questions on tabs; the first picked from its list,
// the second typed in pi-tui's Editor, then submitted.
func driveQuestionnaire(t *testing.T) {
	h := startHost(t, "custom", "questionnaire.ts")
	res := h.asyncTool(t, "questionnaire", `{"questions": [
		{"id": "scope", "label": "Scope", "prompt": "Which scope?", "options": [{"value": "all", "label": "All"}, {"value": "some", "label": "Some"}]},
		{"id": "colour", "label": "Colour", "prompt": "Which colour?", "options": [{"value": "red", "label": "Red"}]}]}`)
	c := h.component(t, 70, 30)
	c.lines(t, "Which scope?")
	c.key(keyDown, keyEnter)
	c.lines(t, "Which colour?")
	c.key(keyDown, keyEnter) // "Type something."
	for _, k := range []string{"b", "l", "u", "e"} {
		c.key(k)
	}
	c.lines(t, "blue")
	c.key(keyEnter)
	c.lines(t, "Submit")
	c.key(keyEnter)
	want := "Scope: user selected: 2. Some\nColour: user wrote: blue"
	if got := receive(t, "the tool's result", res); got != want {
		t.Errorf("result %q, want %q", got, want)
	}
	c.closed(t)
}

// snake: /snake plays on a timer (the board redraws by itself); Escape
// pauses and saves the game in the session, and /snake again resumes it
// paused; Q then quits.
func driveSnake(t *testing.T) {
	h := startHost(t, "custom", "snake.ts")
	done := h.asyncInput(t, "/snake")
	c := h.component(t, 60, 30)
	first := strings.Join(c.lines(t, "SNAKE"), "\n")
	c.key(keyDown)
	// The game moves by itself: a later drawing differs from the first.
	h.host.waitFor(t, "the snake moving", func(shown []core.Event, _ []string, _ []core.Question) bool {
		for _, e := range shown[c.seen:] {
			if r, ok := e.(core.ComponentRendered); ok && r.ID == c.id && strings.Join(r.Lines, "\n") != first {
				return true
			}
		}
		return false
	})
	c.key(keyEscape)
	if err := receive(t, "/snake to end", done); err != nil {
		t.Fatal(err)
	}
	c.closed(t)
	if h.entryCount("snake-save") != 1 {
		t.Errorf("the game was not saved: %d entries", h.entryCount("snake-save"))
	}
	done = h.asyncInput(t, "/snake")
	c = h.component(t, 60, 30)
	c.lines(t, "PAUSED")
	c.key("q")
	if err := receive(t, "/snake to end", done); err != nil {
		t.Fatal(err)
	}
	c.closed(t)
}

// space-invaders: /invaders draws the game; Escape pauses and saves it.
func driveSpaceInvaders(t *testing.T) {
	h := startHost(t, "custom", "space-invaders.ts")
	done := h.asyncInput(t, "/invaders")
	c := h.component(t, 80, 30)
	c.lines(t, "SPACE INVADERS")
	c.key(keyLeft, " ")
	c.key(keyEscape)
	if err := receive(t, "/invaders to end", done); err != nil {
		t.Fatal(err)
	}
	c.closed(t)
	if h.entryCount("space-invaders-save") != 1 {
		t.Errorf("the game was not saved: %d entries", h.entryCount("space-invaders-save"))
	}
}

// tic-tac-toe: the person plays X with Enter; the agent is told and
// plays O through its tool, which the board shows; Escape leaves.
func driveTicTacToe(t *testing.T) {
	h := startHost(t, "custom", "tic-tac-toe.ts")
	done := h.asyncInput(t, "/tic-tac-toe")
	c := h.component(t, 80, 40)
	c.lines(t, "")
	c.key(keyEnter)
	// pi's sendMessage with triggerTurn: the agent's turn starts.
	h.host.waitFor(t, "the agent told of the move", func([]core.Event, []string, []core.Question) bool {
		for _, m := range h.host.customs {
			if len(m.msg.Content) > 0 && strings.Contains(m.msg.Content[0].Text, "Player X played at (row=") && m.triggerTurn != nil && *m.triggerTurn {
				return true
			}
		}
		return false
	})
	if got := text(h.tool(t, "tic_tac_toe", `{"action": "move_right"}`)); got == "" {
		t.Error("move_right: empty result")
	}
	if got := text(h.tool(t, "tic_tac_toe", `{"action": "play"}`)); !strings.Contains(got, "O") {
		t.Errorf("play: %q", got)
	}
	c.lines(t, "O")
	c.key(keyEscape)
	if err := receive(t, "/tic-tac-toe to end", done); err != nil {
		t.Fatal(err)
	}
	c.closed(t)
}

// overlay-test: an overlay placed on the screen; typing fills the
// selected item's input, and Enter's answer is notified.
func driveOverlayTest(t *testing.T) {
	h := startHost(t, "custom", "overlay-test.ts")
	done := h.asyncInput(t, "/overlay-test")
	c := h.component(t, 100, 40)
	c.lines(t, "Search")
	for _, k := range []string{"c", "a", "t"} {
		c.key(k)
	}
	c.lines(t, "cat")
	c.key(keyEnter)
	if err := receive(t, "/overlay-test to end", done); err != nil {
		t.Fatal(err)
	}
	h.host.waitFor(t, "the answer notified", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), `Search: "cat"`)
	})
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	for _, e := range h.host.shown {
		if s, ok := e.(core.ComponentShown); ok && !s.Overlay {
			t.Error("overlay-test's component not shown as an overlay")
		}
		if r, ok := e.(core.ComponentRendered); ok && (r.Col == 0 || r.Row == 0) {
			t.Errorf("the overlay is not centred: row %d col %d", r.Row, r.Col)
		}
	}
}

// overlay-qa-tests: pi's own overlay layout (anchors, percentages,
// maxHeight, a panel shown only on a wide terminal) and an animation
// that redraws by itself.
func driveOverlayQATests(t *testing.T) {
	h := startHost(t, "custom", "overlay-qa-tests.ts")
	done := h.asyncInput(t, "/overlay-anchors")
	c := h.component(t, 100, 30)
	if r := c.drawing(t, "top-left"); r.Row != 0 || r.Col != 0 {
		t.Errorf("top-left at row %d col %d", r.Row, r.Col)
	}
	c.key(keyRight)
	c.closed(t)
	c = h.component(t, 100, 30)
	if r := c.drawing(t, "top-center"); r.Row != 0 || r.Col != 30 {
		t.Errorf("top-center at row %d col %d, want 0, 30", r.Row, r.Col)
	}
	c.key(keyEnter)
	if err := receive(t, "/overlay-anchors to end", done); err != nil {
		t.Fatal(err)
	}
	h.host.waitFor(t, "the anchor notified", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), "Selected: top-center")
	})

	done = h.asyncInput(t, "/overlay-percent")
	c = h.component(t, 100, 30)
	if r := c.drawing(t, "rowPercent: 0"); r.Row != 0 || r.Col != 35 {
		t.Errorf("row 0%% col 50%% at row %d col %d, want 0, 35", r.Row, r.Col)
	}
	c.key(keyEscape)
	if err := receive(t, "/overlay-percent to end", done); err != nil {
		t.Fatal(err)
	}

	done = h.asyncInput(t, "/overlay-maxheight")
	c = h.component(t, 100, 30)
	if r := c.drawing(t, ""); len(r.Lines) != 10 {
		t.Errorf("maxHeight 10: %d lines", len(r.Lines))
	}
	c.key(keyEscape)
	if err := receive(t, "/overlay-maxheight to end", done); err != nil {
		t.Fatal(err)
	}

	done = h.asyncInput(t, "/overlay-sidepanel")
	c = h.component(t, 80, 30)
	if r := c.drawing(t, ""); len(r.Lines) != 0 {
		t.Errorf("the side panel shows on 80 columns: %q", r.Lines)
	}
	c.handle.Resize(120, 30)
	for r := c.drawing(t, ""); len(r.Lines) == 0 || r.Col != 89; r = c.drawing(t, "") {
		t.Logf("waiting for the panel at col 89: %d lines at col %d", len(r.Lines), r.Col)
	}
	c.key(keyEscape)
	if err := receive(t, "/overlay-sidepanel to end", done); err != nil {
		t.Fatal(err)
	}

	done = h.asyncInput(t, "/overlay-animation")
	c = h.component(t, 100, 30)
	first := strings.Join(c.lines(t, ""), "\n")
	for next := first; next == first; {
		next = strings.Join(c.lines(t, ""), "\n")
	}
	c.key(keyEscape)
	if err := receive(t, "/overlay-animation to end", done); err != nil {
		t.Fatal(err)
	}
}

// summarize: /summarize asks the model it names (openai/gpt-5.2) through
// cairn for a summary of the branch, and shows it in a component that
// Enter closes.
func driveSummarize(t *testing.T) {
	prefill := []session.Payload{
		&session.MessageEntry{Message: &core.UserMessage{Content: []core.Content{{Type: core.ContentText, Text: "plan the release"}}}},
		&session.MessageEntry{Message: &core.AssistantMessage{Content: []core.Content{{Type: core.ContentText, Text: "Tag it on Friday."}}, StopReason: core.StopEnd}},
	}
	h := startHostWith(t, t.TempDir(), nil, prefill, "custom", "summarize.ts")
	h.host.mu.Lock()
	h.host.models.extra = []extension.ModelChoice{{Model: core.Model{ID: "gpt-5.2", Provider: "openai", API: "openai-responses"}, Available: true}}
	h.host.models.faux = faux.New(faux.Options{}, faux.Response{Text: "Release is tagged on Friday."})
	h.host.mu.Unlock()
	done := h.asyncInput(t, "/summarize")
	c := h.component(t, 70, 30)
	lines := c.lines(t, "Release is tagged on Friday.")
	if !strings.Contains(stripSGR(strings.Join(lines, "\n")), "Conversation Summary") {
		t.Errorf("no title: %q", lines)
	}
	c.key(keyEnter)
	if err := receive(t, "/summarize to end", done); err != nil {
		t.Fatal(err)
	}
	c.closed(t)
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if reqs := h.host.models.requests; len(reqs) != 1 || reqs[0].Model.ID != "gpt-5.2" ||
		!strings.Contains(reqs[0].Messages[0].(*core.UserMessage).Content[0].Text, "Tag it on Friday.") {
		t.Errorf("requests %+v", reqs)
	}
}

// preset: /preset without a name picks one in pi-tui's SelectList, shown
// in place of the editor; Enter applies it.
func TestCustomPresetSelector(t *testing.T) {
	cwd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, ".pi"), 0o700); err != nil {
		t.Fatal(err)
	}
	presets := `{"fast": {"provider": "faux", "model": "faux-2", "thinkingLevel": "high"}}`
	if err := os.WriteFile(filepath.Join(cwd, ".pi", "presets.json"), []byte(presets), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHostIn(t, cwd, map[string]string{"PI_CODING_AGENT_DIR": t.TempDir()}, "custom", "preset.ts")
	h.host.mu.Lock()
	h.host.models.model, h.host.models.thinking = catalog[0].Model, core.ThinkingOff
	h.host.mu.Unlock()
	done := h.asyncInput(t, "/preset")
	c := h.component(t, 80, 24)
	c.lines(t, "Select Preset")
	c.key(keyEnter)
	if err := receive(t, "/preset to end", done); err != nil {
		t.Fatal(err)
	}
	h.host.waitFor(t, "the preset applied", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), `Preset "fast" activated`) && h.host.models.model.ID == "faux-2"
	})
}
