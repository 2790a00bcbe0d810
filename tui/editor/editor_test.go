package editor

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestSubmitAndNewLineKeys(t *testing.T) {
	tests := []struct {
		name      string
		typed     string
		key       string
		want      []SubmitMsg
		wantValue string
	}{
		{"enter submits", "hello", "enter", []SubmitMsg{{Text: "hello"}}, ""},
		{"alt+enter queues a follow-up", "later", "alt+enter", []SubmitMsg{{Text: "later", FollowUp: true}}, ""},
		{"shift+enter breaks the line", "a", "shift+enter", nil, "a\n"},
		{"ctrl+j breaks the line", "a", "ctrl+j", nil, "a\n"},
		{"empty input is not sent", "", "enter", nil, ""},
		{"blank input is not sent", "  ", "enter", nil, "  "},
		{"trailing backslash breaks the line", `first\`, "enter", nil, "first\n"},
		{"in bash mode the backslash stays", `!ls \`, "enter", nil, "!ls \\\n"},
		{"text is sent as typed", "  spaced  ", "enter", []SubmitMsg{{Text: "  spaced  "}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, Options{})
			d.typ(tt.typed).keys(tt.key)
			if got := d.submitted(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("submitted %v, want %v", got, tt.want)
			}
			if got := d.m.Value(); got != tt.wantValue {
				t.Errorf("value %q, want %q", got, tt.wantValue)
			}
		})
	}
}

func TestBackslashInTheMiddleBreaksAtTheCursor(t *testing.T) {
	d := newDriver(t, Options{})
	d.typ(`ab\cd`).keys("left", "left", "enter")
	if got := d.m.Value(); got != "ab\ncd" {
		t.Fatalf("value %q, want %q", got, "ab\ncd")
	}
	if len(d.submitted()) != 0 {
		t.Fatal("submitted")
	}
}

func TestEditingKeys(t *testing.T) {
	tests := []struct {
		name    string
		text    string // typed; "\n" becomes shift+enter
		keys    []string
		want    string
		wantRow int
		wantCol int
	}{
		{"backspace", "abc", []string{"backspace"}, "ab", 0, 2},
		{"backspace joins lines", "ab\ncd", []string{"home", "backspace"}, "abcd", 0, 2},
		{"delete", "abc", []string{"home", "delete"}, "bc", 0, 0},
		{"delete joins lines", "ab\ncd", []string{"up", "end", "delete"}, "abcd", 0, 2},
		{"ctrl+w deletes a word", "one two  ", []string{"ctrl+w"}, "one ", 0, 4},
		{"alt+backspace deletes a word", "one two", []string{"alt+backspace"}, "one ", 0, 4},
		{"alt+d deletes the next word", "one two", []string{"home", "alt+d"}, " two", 0, 0},
		{"ctrl+u deletes to line start", "one\ntwo three", []string{"left", "ctrl+u"}, "one\ne", 1, 0},
		{"ctrl+k deletes to line end", "one two", []string{"ctrl+a", "alt+f", "ctrl+k"}, "one", 0, 3},
		{"left crosses lines", "ab\ncd", []string{"home", "left"}, "ab\ncd", 0, 2},
		{"right crosses lines", "ab\ncd", []string{"up", "end", "right"}, "ab\ncd", 1, 0},
		{"alt+b moves a word left", "one two", []string{"alt+b"}, "one two", 0, 4},
		{"up keeps the column", "abcdef\nxy\nabcdef", []string{"up", "up"}, "abcdef\nxy\nabcdef", 0, 6},
		{"ctrl+home and ctrl+end", "ab\ncd", []string{"ctrl+home", "right", "ctrl+end"}, "ab\ncd", 1, 2},
		{"left moves one character", "ac", []string{"left"}, "ac", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, Options{})
			for i, part := range strings.Split(tt.text, "\n") {
				if i > 0 {
					d.keys("shift+enter")
				}
				d.typ(part)
			}
			d.keys(tt.keys...)
			if got := d.m.Value(); got != tt.want {
				t.Errorf("value %q, want %q", got, tt.want)
			}
			if row, col := d.cursor(); row != tt.wantRow || col != tt.wantCol {
				t.Errorf("cursor %d:%d, want %d:%d", row, col, tt.wantRow, tt.wantCol)
			}
		})
	}
}

func TestShortcutsWithTextAreNotTyped(t *testing.T) {
	d := newDriver(t, Options{})
	d.send(tea.KeyPressMsg{Code: 'x', Text: "x", Mod: tea.ModCtrl})
	d.send(tea.KeyPressMsg{Code: 'A', Text: "A", Mod: tea.ModShift})
	if got := d.m.Value(); got != "A" {
		t.Fatalf("value %q, want %q", got, "A")
	}
}

func TestBlurredEditorIgnoresInput(t *testing.T) {
	d := newDriver(t, Options{})
	d.m.Blur()
	d.typ("a").paste("b")
	if d.m.Value() != "" {
		t.Fatalf("blurred editor took input: %q", d.m.Value())
	}
	d.m.Focus()
	d.typ("c")
	if d.m.Value() != "c" {
		t.Fatalf("value %q", d.m.Value())
	}
}

func TestBashMode(t *testing.T) {
	tests := []struct {
		text        string
		mode        Mode
		cmd         string
		exclude, ok bool
	}{
		{"ls -la", ModeNormal, "", false, false},
		{"!ls -la", ModeBash, "ls -la", false, true},
		{"! git status ", ModeBash, "git status", false, true},
		{"!!make secret", ModeBash, "make secret", true, true},
		{"!", ModeBash, "", false, false},
		{"!!  ", ModeBash, "", true, false},
		{" !ls", ModeNormal, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			m := New(Options{})
			m.SetValue(tt.text)
			if m.Mode() != tt.mode {
				t.Errorf("mode %v, want %v", m.Mode(), tt.mode)
			}
			cmd, exclude, ok := m.BashCommand()
			if cmd != tt.cmd || exclude != tt.exclude || ok != tt.ok {
				t.Errorf("BashCommand() = %q, %v, %v; want %q, %v, %v", cmd, exclude, ok, tt.cmd, tt.exclude, tt.ok)
			}
		})
	}
}

func TestGrowsThenScrolls(t *testing.T) {
	d := newDriver(t, Options{MaxHeight: 3})
	d.m.SetWidth(20)
	for i, want := range []int{1, 2, 3, 3, 3} {
		if i > 0 {
			d.keys("shift+enter")
		}
		d.typ(string(rune('a' + i)))
		if got := d.m.Height(); got != want {
			t.Fatalf("after %d lines height %d, want %d", i+1, got, want)
		}
	}
	lines := strings.Split(ansi.Strip(d.m.View()), "\n")
	if len(lines) != 3 || strings.TrimSpace(lines[0]) != "c" || strings.TrimSpace(lines[2]) != "e" {
		t.Fatalf("view shows %q, want rows c, d, e", lines)
	}
	d.keys("ctrl+home")
	lines = strings.Split(ansi.Strip(d.m.View()), "\n")
	if strings.TrimSpace(lines[0]) != "> a" {
		t.Fatalf("after ctrl+home view shows %q, want the first row", lines)
	}
	d.m.SetMaxHeight(10)
	if got := d.m.Height(); got != 5 {
		t.Fatalf("with room for 10 rows height %d, want 5", got)
	}
}

func TestLongLinesWrapAndUpDownMoveByRow(t *testing.T) {
	d := newDriver(t, Options{})
	d.m.SetWidth(12) // 10 cells of text after "> "
	d.typ("aaaa bbbb cccc dddd")
	if got := d.m.Height(); got != 2 {
		t.Fatalf("height %d, want 2 rows", got)
	}
	d.keys("up")
	if _, col := d.cursor(); col != 9 {
		t.Fatalf("up from the end of row 2 put the cursor at %d, want 9 (end of row 1)", col)
	}
	d.keys("down")
	if _, col := d.cursor(); col != 19 {
		t.Fatalf("down put the cursor at %d, want 19", col)
	}
}

func TestViewLinesAreExactlyTheWidth(t *testing.T) {
	texts := []string{
		"",
		"short",
		strings.Repeat("word ", 30),
		strings.Repeat("x", 55),
		"wide 漢字漢字漢字漢字漢字漢字漢字 chars",
		"tabs\there\tand\tthere",
		"line one\nline two\n\nline four",
	}
	for _, w := range []int{3, 7, 10, 33, 80} {
		for _, text := range texts {
			m := New(Options{Placeholder: "Type a message, @ for files, / for commands"})
			m.SetWidth(w)
			m.SetValue(text)
			if text == strings.Repeat("x", 55) {
				m.s.paste(strings.Repeat("big paste\n", 20))
			}
			for _, l := range strings.Split(m.View(), "\n") {
				if got := ansi.StringWidth(l); got != w {
					t.Errorf("width %d, text %q: line %q is %d cells", w, text, ansi.Strip(l), got)
				}
			}
			if got := len(strings.Split(m.View(), "\n")); got != m.Height() {
				t.Errorf("width %d, text %q: %d lines but Height %d", w, text, got, m.Height())
			}
		}
	}
}

func TestRealCursorPosition(t *testing.T) {
	m := New(Options{RealCursor: true})
	m.SetWidth(20)
	m.SetValue("ab\ncdef")
	c := m.Cursor()
	if c == nil || c.X != 6 || c.Y != 1 {
		t.Fatalf("cursor %+v, want at 6,1", c)
	}
	if strings.Contains(m.View(), "\x1b[7m") {
		t.Fatal("View drew a cursor although the terminal's is used")
	}
	m.Blur()
	if m.Cursor() != nil {
		t.Fatal("blurred editor reports a cursor")
	}
}

func TestValueIsCachedPerEdit(t *testing.T) {
	m := New(Options{})
	m.SetValue("abc")
	v1 := m.Value()
	if v2 := m.Value(); v2 != v1 {
		t.Fatal("value changed without an edit")
	}
	m.InsertText("d")
	if got := m.Value(); got != "abcd" {
		t.Fatalf("value %q after InsertText, want abcd", got)
	}
	if m.Empty() {
		t.Fatal("Empty on a non-empty input")
	}
	m.Reset()
	if !m.Empty() || m.Value() != "" {
		t.Fatal("Reset left text")
	}
}

func TestCustomKeys(t *testing.T) {
	k := DefaultKeys()
	k.Submit = []string{"ctrl+j"}
	k.NewLine = []string{"enter"}
	d := newDriver(t, Options{Keys: k})
	d.typ("a").keys("enter").typ("b").keys("ctrl+j")
	if got := d.submitted(); len(got) != 1 || got[0].Text != "a\nb" {
		t.Fatalf("submitted %v, want one message \"a\\nb\"", got)
	}
}
