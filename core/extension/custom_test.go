package extension

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// customExtension is an extension speaking version 2 to a manager whose
// front end lists ui, attached to a fake host.
func customExtension(t *testing.T, ui []core.UIMethod) (*extension, *fakeHost) {
	t.Helper()
	m := New(nil, Options{Mode: "tui", UI: ui})
	h := newHost()
	m.Attach(h)
	e := &extension{m: m, cfg: Config{Name: "pi"}, version: 2, state: Ready, ops: map[*opCtx]struct{}{}, exited: make(chan struct{})}
	t.Cleanup(func() { close(e.exited) })
	return e, h
}

func customCall(e *extension, method, params string) (any, *jsonrpc2.Error) {
	return e.custom(jsonrpc2.Message{Method: method, Params: json.RawMessage(params)})
}

// nextShown waits for the next event the host shows.
func nextShown(t *testing.T, h *fakeHost) core.Event {
	t.Helper()
	select {
	case ev := <-h.showCh:
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("nothing shown")
		return nil
	}
}

// TestCustomShow: a component is shown, drawn and closed by its
// extension (not dismissed), or dismissed by the person; either way the
// front end is told it closed.
func TestCustomShow(t *testing.T) {
	e, h := customExtension(t, append(slices.Clone(core.UIMethods), core.UICustom))
	type answer struct {
		r   any
		err *jsonrpc2.Error
	}
	show := func(id string) <-chan answer {
		out := make(chan answer, 1)
		go func() {
			r, err := customCall(e, MethodCustomShow, `{"id":"`+id+`"}`)
			out <- answer{r, err}
		}()
		return out
	}

	done := show("a")
	shown, ok := nextShown(t, h).(core.ComponentShown)
	if !ok || shown.ID != "pi/a" || shown.Extension != "pi" || shown.Handle == nil {
		t.Fatalf("shown %#v", shown)
	}
	if _, err := customCall(e, MethodCustomRender, `{"id":"a","lines":["one","two"],"row":3}`); err != nil {
		t.Fatal(err)
	}
	if r, ok := nextShown(t, h).(core.ComponentRendered); !ok || strings.Join(r.Lines, "|") != "one|two" || r.Row != 3 || r.ID != "pi/a" {
		t.Errorf("rendered %#v", r)
	}
	if _, err := customCall(e, MethodCustomClose, `{"id":"a"}`); err != nil {
		t.Fatal(err)
	}
	if a := <-done; a.err != nil || a.r != (CustomShowResult{}) {
		t.Errorf("closed by the extension: %#v, %v", a.r, a.err)
	}
	if ev := nextShown(t, h); ev != (core.ComponentClosed{ID: "pi/a"}) {
		t.Errorf("then %#v", ev)
	}

	done = show("b")
	shown = nextShown(t, h).(core.ComponentShown)
	shown.Handle.Dismiss()
	shown.Handle.Dismiss() // twice is once
	if a := <-done; a.err != nil || a.r != (CustomShowResult{Dismissed: true}) {
		t.Errorf("dismissed: %#v, %v", a.r, a.err)
	}
	if ev := nextShown(t, h); ev != (core.ComponentClosed{ID: "pi/b"}) {
		t.Errorf("then %#v", ev)
	}
}

// TestCustomRefused: a front end without components, an extension of
// version 1 and a show without an id are refused at once.
func TestCustomRefused(t *testing.T) {
	e, _ := customExtension(t, core.UIMethods)
	if _, err := customCall(e, MethodCustomShow, `{"id":"a"}`); err == nil || err.Code != CodeNoUI {
		t.Errorf("no components in this mode: %v", err)
	}
	e, _ = customExtension(t, append(slices.Clone(core.UIMethods), core.UICustom))
	if _, err := customCall(e, MethodCustomShow, `{}`); err == nil || err.Code != jsonrpc2.InvalidParams {
		t.Errorf("no id: %v", err)
	}
	if _, err := customCall(e, MethodCustomShow, `{"id":"a","bogus":1}`); err == nil || err.Code != jsonrpc2.InvalidParams {
		t.Errorf("an unknown field: %v", err)
	}
	e.version = 1
	if _, err := customCall(e, MethodCustomShow, `{"id":"a"}`); err == nil || err.Code != jsonrpc2.MethodNotFound {
		t.Errorf("version 1: %v", err)
	}
}

// FuzzBoundLines: a drawing is cut to its bounds, never inside a
// character, and a short one is kept as it is.
func FuzzBoundLines(f *testing.F) {
	f.Add("plain", 3)
	f.Add(strings.Repeat("é", MaxComponentLineSize), 1)
	f.Add(strings.Repeat("a", MaxComponentLineSize+1), 600)
	f.Fuzz(func(t *testing.T, line string, n int) {
		n = max(0, min(n, 2*MaxComponentLines))
		lines := make([]string, n)
		for i := range lines {
			lines[i] = line
		}
		out := boundLines(lines)
		if len(out) != min(n, MaxComponentLines) {
			t.Fatalf("%d lines of %d", len(out), n)
		}
		for _, l := range out {
			if len(l) > MaxComponentLineSize || !strings.HasPrefix(line, l) {
				t.Fatalf("line %q of %q", l, line)
			}
			if len(line) <= MaxComponentLineSize && l != line {
				t.Fatalf("short line changed: %q", l)
			}
			if utf8.ValidString(line) && !utf8.ValidString(l) {
				t.Fatalf("cut inside a character: %q", l)
			}
		}
	})
}
