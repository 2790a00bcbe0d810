package extension

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// TestChromeEvent: each chrome UI call becomes the event a front end
// shows, and a malformed one is refused with why.
func TestChromeEvent(t *testing.T) {
	e := &extension{cfg: Config{Name: "pi"}}
	yes, no := true, false
	many := make([]string, 100)
	for i := range many {
		many[i] = "·"
	}
	for _, c := range []struct {
		name string
		p    UIParams
		want func(core.Event) bool
		err  string
	}{
		{"footer set", UIParams{Method: core.UISetFooter, Component: &yes}, func(ev core.Event) bool {
			return ev == core.ChromeSet{Extension: "pi", Place: core.ChromeFooter, Set: true}
		}, ""},
		{"header given back", UIParams{Method: core.UISetHeader}, func(ev core.Event) bool {
			return ev == core.ChromeSet{Extension: "pi", Place: core.ChromeHeader}
		}, ""},
		{"indicator restored", UIParams{Method: core.UISetWorkingIndicator}, func(ev core.Event) bool {
			w := ev.(core.WorkingChanged)
			return w.Indicator != nil && !*w.Indicator
		}, ""},
		{"indicator frames bounded", UIParams{Method: core.UISetWorkingIndicator, Indicator: &WorkingIndicator{Frames: many, IntervalMs: 80}}, func(ev core.Event) bool {
			w := ev.(core.WorkingChanged)
			return *w.Indicator && len(w.Frames) == maxIndicatorFrames && w.Interval == 80
		}, ""},
		{"negative interval", UIParams{Method: core.UISetWorkingIndicator, Indicator: &WorkingIndicator{IntervalMs: -1}}, nil, "intervalMs"},
		{"visible", UIParams{Method: core.UISetWorkingVisible, Visible: &no}, func(ev core.Event) bool {
			w := ev.(core.WorkingChanged)
			return w.Visible != nil && !*w.Visible
		}, ""},
		{"visible missing", UIParams{Method: core.UISetWorkingVisible}, nil, "needs visible"},
		{"message", UIParams{Method: core.UISetWorkingMessage, Message: "Busy"}, func(ev core.Event) bool {
			w := ev.(core.WorkingChanged)
			return w.Message != nil && *w.Message == "Busy" && w.Indicator == nil
		}, ""},
		{"thinking label", UIParams{Method: core.UISetHiddenThinkingLabel, Message: "Pondering"}, func(ev core.Event) bool {
			w := ev.(core.WorkingChanged)
			return w.ThinkingLabel != nil && *w.ThinkingLabel == "Pondering"
		}, ""},
		{"request render", UIParams{Method: core.UIRequestRender}, func(ev core.Event) bool {
			return ev == core.RenderRequested{Extension: "pi"}
		}, ""},
	} {
		ev, err := e.chromeEvent(c.p)
		if c.err != "" {
			if err == nil || err.Code != jsonrpc2.InvalidParams || !strings.Contains(err.Message, c.err) {
				t.Errorf("%s: %v, want an error about %s", c.name, err, c.err)
			}
			continue
		}
		if err != nil || !c.want(ev) {
			t.Errorf("%s: %#v, %v", c.name, ev, err)
		}
	}
}

// TestRenderWithoutRenderer: nothing to ask (no extension holds the
// footer, none draws the type) is ErrNoRenderer at once; a width of
// nothing is an error.
func TestRenderWithoutRenderer(t *testing.T) {
	m := New(nil, Options{})
	if _, err := m.Render(context.Background(), "pi", RenderParams{Target: RenderFooter, Width: 80}); !errors.Is(err, ErrNoRenderer) {
		t.Errorf("footer: %v", err)
	}
	if m.Draws(RenderParams{Target: RenderMessage, CustomType: "x"}) {
		t.Error("draws a message with no extension")
	}
	if _, err := m.Render(context.Background(), "pi", RenderParams{Target: RenderFooter}); err == nil {
		t.Error("a render of width 0 was asked")
	}
}

// FuzzChromeEvent: no chrome call, however malformed, panics or gives an
// event without an error.
func FuzzChromeEvent(f *testing.F) {
	for _, s := range []string{`{"method":"setFooter","component":true}`, `{"method":"setWorkingIndicator","indicator":{"frames":["a"],"intervalMs":5}}`,
		`{"method":"setWorkingVisible"}`, `{"method":"requestRender"}`, `{"method":"setHiddenThinkingLabel","message":"x"}`} {
		f.Add([]byte(s))
	}
	e := &extension{cfg: Config{Name: "pi"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p UIParams
		if decodeParams(data, &p) != nil {
			return
		}
		known := false
		for _, m := range core.ChromeUIMethods {
			known = known || m == p.Method
		}
		if !known {
			return
		}
		ev, err := e.chromeEvent(p)
		if (ev == nil) == (err == nil) {
			t.Errorf("%s: event %#v, error %v", data, ev, err)
		}
	})
}
