package keymap

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/cairn-dev/cairn/core/regfile"
)

// press decodes terminal input bytes the way Bubble Tea v2 does (its input
// reader runs ultraviolet's decoder and converts the event) into one key
// press.
func press(t testing.TB, seq string) tea.KeyPressMsg {
	t.Helper()
	var dec uv.EventDecoder
	n, ev := dec.Decode([]byte(seq))
	if n != len(seq) {
		t.Fatalf("%q decoded %d of %d bytes", seq, n, len(seq))
	}
	k, ok := ev.(uv.KeyPressEvent)
	if !ok {
		t.Fatalf("%q decoded to %T, not a key press", seq, ev)
	}
	return tea.KeyPressMsg(k)
}

// matching lists every action the press matches, in Actions order.
func matching(m Map, msg tea.KeyPressMsg) []Action {
	var out []Action
	for _, a := range Actions() {
		if m.Matches(msg, a) {
			out = append(out, a)
		}
	}
	return out
}

func TestDefaults(t *testing.T) {
	want := map[Action][]string{
		CursorUp: {"up"}, CursorDown: {"down"}, CursorLeft: {"left", "ctrl+b"}, CursorRight: {"right", "ctrl+f"},
		CursorWordLeft: {"alt+left", "ctrl+left", "alt+b"}, CursorWordRight: {"alt+right", "ctrl+right", "alt+f"},
		CursorLineStart: {"home", "ctrl+a"}, CursorLineEnd: {"end", "ctrl+e"}, PageUp: {"pgup"}, PageDown: {"pgdown"},
		DeleteCharBackward: {"backspace"}, DeleteCharForward: {"delete", "ctrl+d"},
		DeleteWordBackward: {"ctrl+w", "alt+backspace"}, DeleteWordForward: {"alt+d", "alt+delete"},
		DeleteToLineStart: {"ctrl+u"}, DeleteToLineEnd: {"ctrl+k"}, NewLine: {"shift+enter", "ctrl+j"},
		Submit: {"enter"}, Tab: {"tab"}, PasteImage: {"ctrl+v"},
		Interrupt: {"esc"}, Clear: {"ctrl+c"}, Exit: {"ctrl+d"}, Suspend: {"ctrl+z"}, ExternalEditor: {"ctrl+g"},
		SelectModel: {"ctrl+l"}, CycleModelForward: {"ctrl+p"}, CycleModelBackward: {"ctrl+shift+p"},
		CycleApprovalMode: {"shift+tab"}, CycleThinkingLevel: {"alt+t"}, ExpandTools: {"ctrl+o"}, ToggleThinking: {"ctrl+t"},
		FollowUp: {"alt+enter"}, Dequeue: {"alt+up"},
		ScrollUp: {"pgup"}, ScrollDown: {"pgdown"}, ScrollTop: {"ctrl+home"}, ScrollBottom: {"ctrl+end"},
		SelectUp: {"up"}, SelectDown: {"down"}, SelectPageUp: {"pgup"}, SelectPageDown: {"pgdown"},
		SelectConfirm: {"enter"}, SelectCancel: {"esc", "ctrl+c"},
	}
	m := Defaults()
	if len(Actions()) != len(want) {
		t.Errorf("%d actions, want %d", len(Actions()), len(want))
	}
	for _, a := range Actions() {
		if got := m.Keys(a); !slices.Equal(got, want[a]) {
			t.Errorf("%s = %q, want %q", a, got, want[a])
		}
		if a.Description() == "" || a.Group() == "" {
			t.Errorf("%s lacks a description or group", a)
		}
		// Defaults are already canonical.
		for _, k := range m.Keys(a) {
			if c, err := ParseKey(k); err != nil || c != k {
				t.Errorf("%s default %q is not canonical: %q %v", a, k, c, err)
			}
		}
	}
	m.Keys(Submit)[0] = "x"
	if Defaults().Keys(Submit)[0] != "enter" || m.Keys(Submit)[0] != "enter" {
		t.Error("Keys shares storage with the map")
	}
	if Action("nope").Known() || Action("nope").Description() != "" || Action("nope").Group() != "" {
		t.Error("unknown action reported as known")
	}
}

// TestMatchesTerminalInput feeds the byte sequences terminals send through
// Bubble Tea's decoder and checks exactly which default actions match.
func TestMatchesTerminalInput(t *testing.T) {
	tests := []struct {
		name string
		seq  string
		want []Action
	}{
		{"ctrl+c", "\x03", []Action{Clear, SelectCancel}},
		{"esc", "\x1b", []Action{Interrupt, SelectCancel}},
		{"enter", "\r", []Action{Submit, SelectConfirm}},
		{"ctrl+j (LF)", "\n", []Action{NewLine}},
		{"shift+enter (kitty)", "\x1b[13;2u", []Action{NewLine}},
		{"alt+enter", "\x1b\r", []Action{FollowUp}},
		{"alt+up", "\x1b[1;3A", []Action{Dequeue}},
		{"up", "\x1b[A", []Action{CursorUp, SelectUp}},
		{"down", "\x1bOB", []Action{CursorDown, SelectDown}},
		{"pgup", "\x1b[5~", []Action{PageUp, ScrollUp, SelectPageUp}},
		{"pgdown", "\x1b[6~", []Action{PageDown, ScrollDown, SelectPageDown}},
		{"ctrl+home", "\x1b[1;5H", []Action{ScrollTop}},
		{"ctrl+end", "\x1b[1;5F", []Action{ScrollBottom}},
		{"home", "\x1b[H", []Action{CursorLineStart}},
		{"shift+tab", "\x1b[Z", []Action{CycleApprovalMode}},
		{"alt+t", "\x1bt", []Action{CycleThinkingLevel}},
		{"tab", "\t", []Action{Tab}},
		{"ctrl+p", "\x10", []Action{CycleModelForward}},
		{"ctrl+shift+p (kitty)", "\x1b[112;6u", []Action{CycleModelBackward}},
		{"backspace", "\x7f", []Action{DeleteCharBackward}},
		{"delete", "\x1b[3~", []Action{DeleteCharForward}},
		{"ctrl+d", "\x04", []Action{Exit, DeleteCharForward}},
		{"alt+backspace", "\x1b\x7f", []Action{DeleteWordBackward}},
		{"ctrl+w", "\x17", []Action{DeleteWordBackward}},
		{"alt+d", "\x1bd", []Action{DeleteWordForward}},
		{"alt+delete", "\x1b[3;3~", []Action{DeleteWordForward}},
		{"alt+b", "\x1bb", []Action{CursorWordLeft}},
		{"ctrl+left", "\x1b[1;5D", []Action{CursorWordLeft}},
		{"alt+right", "\x1b[1;3C", []Action{CursorWordRight}},
		{"ctrl+a", "\x01", []Action{CursorLineStart}},
		{"ctrl+e", "\x05", []Action{CursorLineEnd}},
		{"ctrl+b", "\x02", []Action{CursorLeft}},
		{"ctrl+f", "\x06", []Action{CursorRight}},
		{"ctrl+u", "\x15", []Action{DeleteToLineStart}},
		{"ctrl+k", "\x0b", []Action{DeleteToLineEnd}},
		{"ctrl+z", "\x1a", []Action{Suspend}},
		{"ctrl+g", "\x07", []Action{ExternalEditor}},
		{"ctrl+l", "\x0c", []Action{SelectModel}},
		{"ctrl+o", "\x0f", []Action{ExpandTools}},
		{"ctrl+t", "\x14", []Action{ToggleThinking}},
		{"plain p", "p", nil},
		{"capital P", "P", nil},
		{"space", " ", nil},
	}
	m := Defaults()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := press(t, tc.seq)
			if got := matching(m, msg); !slices.Equal(got, tc.want) {
				t.Errorf("%q (keystroke %q, string %q) matches %v, want %v", tc.seq, msg.Keystroke(), msg.String(), got, tc.want)
			}
			if got := m.Lookup(msg); !slices.Equal(got, tc.want) {
				t.Errorf("Lookup(%q) = %v, want %v", tc.seq, got, tc.want)
			}
		})
	}
}

func TestMatchesTextAndKeystroke(t *testing.T) {
	tests := []struct {
		binding string
		msg     tea.KeyPressMsg
		want    bool
	}{
		{"A", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModShift, Text: "A"}, true},
		{"shift+a", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModShift, Text: "A"}, true},
		{"a", tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModShift, Text: "A"}, false},
		{"?", tea.KeyPressMsg{Code: '/', ShiftedCode: '?', Mod: tea.ModShift, Text: "?"}, true},
		{"space", tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, true},
		{"ctrl+space", tea.KeyPressMsg{Code: tea.KeySpace, Mod: tea.ModCtrl}, true},
		{"f5", tea.KeyPressMsg{Code: tea.KeyF5}, true},
		{"f5", tea.KeyPressMsg{Code: tea.KeyF5, Mod: tea.ModShift}, false},
	}
	for _, tc := range tests {
		m := Defaults().With(Submit, tc.binding)
		if got := m.Matches(tc.msg, Submit); got != tc.want {
			t.Errorf("binding %q vs %q/%q: %v, want %v", tc.binding, tc.msg.Keystroke(), tc.msg.String(), got, tc.want)
		}
	}
	capitalA := tea.KeyPressMsg{Code: 'a', ShiftedCode: 'A', Mod: tea.ModShift, Text: "A"}
	both := Defaults().With(Tab, "A").With(Submit, "shift+a").With(SelectCancel, "A", "shift+a")
	if got, want := both.Lookup(capitalA), []Action{Submit, Tab, SelectCancel}; !slices.Equal(got, want) {
		t.Errorf("Lookup(A) = %v, want %v", got, want)
	}
	var zero Map
	if zero.Lookup(capitalA) != nil {
		t.Error("the zero Map looks up actions")
	}
	if zero.Matches(press(t, "\r"), Submit) {
		t.Error("the zero Map binds keys")
	}
	if Defaults().With(Submit).Matches(press(t, "\r"), Submit) {
		t.Error("With no keys did not unbind")
	}
}

func TestParseKey(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "escape", want: "esc"},
		{in: "Esc", want: "esc"},
		{in: "return", want: "enter"},
		{in: "pageUp", want: "pgup"},
		{in: "pageDown", want: "pgdown"},
		{in: "shift+ctrl+p", want: "ctrl+shift+p"},
		{in: "Ctrl+Shift+P", want: "ctrl+shift+p"},
		{in: "alt+ctrl+]", want: "ctrl+alt+]"},
		{in: "control+option+x", want: "ctrl+alt+x"},
		{in: " ctrl+c ", want: "ctrl+c"},
		{in: "F12", want: "f12"},
		{in: "shift+A", want: "shift+a"},
		{in: "A", want: "A"},
		{in: "?", want: "?"},
		{in: "+", want: "+"},
		{in: "ctrl++", want: "ctrl++"},
		{in: "super+hyper+meta+k", want: "meta+hyper+super+k"},
		{in: "", err: "empty key"},
		{in: "ctrl+zz", err: `"ctrl+zz" is not a key (use a character or a name such as enter, esc, tab, space, up, pgup, home, f1)`},
		{in: "cmd+k", err: `"cmd+k" is not a key: unknown modifier "cmd" (use ctrl, alt, shift, meta, hyper, super)`},
		{in: "ctrl+ctrl+k", err: `"ctrl+ctrl+k" is not a key: ctrl given twice`},
		{in: "ctrl+", err: `"ctrl+" is not a key (use a character or a name such as enter, esc, tab, space, up, pgup, home, f1)`},
		{in: "f64", err: `"f64" is not a key (use a character or a name such as enter, esc, tab, space, up, pgup, home, f1)`},
	}
	for _, tc := range tests {
		got, err := ParseKey(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseKey(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseKey(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestDecode(t *testing.T) {
	data := `{
		"submit": "ctrl+s",
		"newLine": ["return", "shift+enter", "Return"],
		"cycleModelBackward": "shift+ctrl+p",
		"scrollUp": ["pageUp", "ctrl+u"],
		"dequeue": [],
		"interrupt": "ctrl+zz",
		"cursorLeft": ["left", "hyperdrive"],
		"exit": 4,
		"yank": "ctrl+y",
		"frobnicate": "ctrl+x"
	}`
	m, errs := Decode([]byte(data))
	for _, tc := range []struct {
		a    Action
		keys []string
	}{
		{Submit, []string{"ctrl+s"}},
		{NewLine, []string{"enter", "shift+enter"}},
		{CycleModelBackward, []string{"ctrl+shift+p"}},
		{ScrollUp, []string{"pgup", "ctrl+u"}},
		{Dequeue, []string{}},
		{Interrupt, []string{"esc"}},   // only bad keys: default kept
		{CursorLeft, []string{"left"}}, // good keys of a partly bad list kept
		{Exit, []string{"ctrl+d"}},
		{Clear, []string{"ctrl+c"}}, // untouched
	} {
		if got := m.Keys(tc.a); !slices.Equal(got, tc.keys) && !(len(got) == 0 && len(tc.keys) == 0) {
			t.Errorf("%s = %q, want %q", tc.a, got, tc.keys)
		}
	}
	want := []string{
		`cursorLeft: "hyperdrive" is not a key (use a character or a name such as enter, esc, tab, space, up, pgup, home, f1)`,
		`exit: 4 is not a key or a list of keys`,
		`unknown action "frobnicate"`,
		`interrupt: "ctrl+zz" is not a key (use a character or a name such as enter, esc, tab, space, up, pgup, home, f1)`,
		`action "yank": not supported by cairn; ignored`,
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !errors.Is(errs[4], ErrUnsupported) || errors.Is(errs[2], ErrUnsupported) {
		t.Error("ErrUnsupported marks the wrong entries")
	}
	if !m.Matches(press(t, "\x13"), Submit) || m.Matches(press(t, "\r"), Submit) {
		t.Error("override of submit not in effect")
	}
	if m.Matches(press(t, "\x1b[1;3A"), Dequeue) {
		t.Error("[] did not unbind dequeue")
	}

	m, errs = Decode([]byte(`["submit"]`))
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "not a JSON object of action to keys: ") {
		t.Errorf("errors for a JSON array: %v", errs)
	}
	if !slices.Equal(m.Keys(Submit), []string{"enter"}) {
		t.Error("invalid file did not leave the defaults")
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	m, errs := Load(filepath.Join(dir, "keybindings.json"))
	if len(errs) != 0 || !slices.Equal(m.Keys(Submit), []string{"enter"}) {
		t.Errorf("missing file: %v, submit %q", errs, m.Keys(Submit))
	}

	path := filepath.Join(dir, "keybindings.json")
	if err := os.WriteFile(path, []byte(`{"expandTools": "ctrl+e", "nope": "x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, errs = Load(path)
	if len(errs) != 1 || errs[0].Error() != path+`: unknown action "nope"` {
		t.Errorf("errors: %v", errs)
	}
	if !m.Matches(press(t, "\x05"), ExpandTools) {
		t.Error("ctrl+e does not expand tools after the override")
	}

	m, errs = Load(dir) // a directory cannot be read as a file
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "load keybindings: ") {
		t.Errorf("unreadable file: %v", errs)
	}
	if !slices.Equal(m.Keys(Submit), []string{"enter"}) {
		t.Error("unreadable file did not give the defaults")
	}
}

func TestHelp(t *testing.T) {
	m := Defaults().With(Dequeue).With(CycleModelBackward, "ctrl+shift+p", "pgup")
	help := m.Help()
	if len(help) != len(Actions()) {
		t.Fatalf("%d entries, want %d", len(help), len(Actions()))
	}
	order := []Group{GroupApp, GroupEditor, GroupTranscript, GroupLists}
	last := 0
	for _, e := range help {
		i := slices.Index(order, e.Group)
		if i < last {
			t.Errorf("%s (%s) is out of group order", e.Action, e.Group)
		}
		last = i
		if e.Description == "" {
			t.Errorf("%s has no description", e.Action)
		}
	}
	find := func(a Action) Entry {
		for _, e := range help {
			if e.Action == a {
				return e
			}
		}
		t.Fatalf("%s not in help", a)
		return Entry{}
	}
	for _, tc := range []struct {
		a    Action
		keys string
	}{
		{Clear, "Ctrl+C"},
		{NewLine, "Shift+Enter, Ctrl+J"},
		{CycleModelBackward, "Ctrl+Shift+P, PgUp"},
		{ScrollDown, "PgDn"},
		{Interrupt, "Esc"},
		{Dequeue, ""},
	} {
		if got := find(tc.a).Keys; got != tc.keys {
			t.Errorf("%s keys %q, want %q", tc.a, got, tc.keys)
		}
	}

	b := m.Binding(NewLine)
	if !slices.Equal(b.Keys(), []string{"shift+enter", "ctrl+j"}) || b.Help().Key != "Shift+Enter, Ctrl+J" ||
		b.Help().Desc != NewLine.Description() || !b.Enabled() {
		t.Errorf("binding: keys %q help %+v", b.Keys(), b.Help())
	}
	if m.Binding(Dequeue).Enabled() {
		t.Error("unbound action gives an enabled binding")
	}
}

func BenchmarkMatchesAllActions(b *testing.B) {
	m := Defaults()
	msg := press(b, "\x1b[1;5H")
	acts := Actions()
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range acts {
			m.Matches(msg, a)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	m := Defaults()
	msg := press(b, "\x1b[1;5H")
	b.ReportAllocs()
	for b.Loop() {
		m.Lookup(msg)
	}
}

// TestLoadNamedPipe: a keybindings file that is a named pipe gives the
// defaults and an error naming it, at once.
func TestLoadNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keybindings.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	type loaded struct {
		m    Map
		errs []error
	}
	done := make(chan loaded, 1)
	go func() { m, errs := Load(path); done <- loaded{m, errs} }()
	select {
	case l := <-done:
		if len(l.errs) != 1 || !errors.Is(l.errs[0], regfile.ErrNotRegular) || !strings.Contains(l.errs[0].Error(), path) {
			t.Errorf("errors = %v, want one naming the pipe", l.errs)
		}
		if !reflect.DeepEqual(l.m, Defaults()) {
			t.Errorf("the defaults were not kept")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Load blocked on a named pipe")
	}
}
