package editor

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("view differs from %s (go test -update rewrites it)\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestViewGolden(t *testing.T) {
	files := withDirs([]string{"README.md", "cmd/cairn/main.go", "tui/editor/editor.go", "tui/editor/view.go", "tui/model.go"})
	commands := []Command{
		{Name: "help", Description: "Show the commands and keys"},
		{Name: "hotkeys", Description: "List every key binding in effect, with the action it runs"},
		{Name: "model", Description: "Pick a model"},
	}
	tests := []struct {
		name  string
		width int
		opts  Options
		setup func(d *driver)
	}{
		{"placeholder", 40, Options{Placeholder: "Ask anything; @ adds a file, / runs a command"}, func(d *driver) {}},
		{"wrapped", 30, Options{}, func(d *driver) {
			d.typ("Explain why the editor wraps long lines at spaces").keys("shift+enter").typ("and keeps the cursor").keys("alt+b")
		}},
		{"file_popup", 40, Options{Cwd: "/unused"}, func(d *driver) {
			d.m.s.files.paths, d.m.s.files.ready = files, true
			d.typ("see @edit")
		}},
		{"command_popup", 50, Options{Commands: commands}, func(d *driver) {
			d.typ("/h").keys("down")
		}},
		{"paste_marker", 40, Options{}, func(d *driver) {
			d.typ("fix this: ").paste(strings.Repeat("panic: boom\n", 40)).typ(" please")
		}},
		{"scrolled", 30, Options{MaxHeight: 3}, func(d *driver) {
			for i, w := range []string{"one", "two", "three", "four", "five"} {
				if i > 0 {
					d.keys("shift+enter")
				}
				d.typ(w)
			}
			d.keys("up")
		}},
		{"narrow_marker", 8, Options{}, func(d *driver) {
			d.typ("ab").paste(strings.Repeat("z", 5000))
		}},
		{"bash_blurred", 30, Options{}, func(d *driver) {
			d.typ("!git status")
			d.m.Blur()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, tt.opts)
			d.m.SetWidth(tt.width)
			tt.setup(d)
			view := d.m.View()
			golden(t, tt.name, view)
			lines := strings.Split(view, "\n")
			if len(lines) != d.m.Height() {
				t.Errorf("%d lines, Height says %d", len(lines), d.m.Height())
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w != tt.width {
					t.Errorf("line %q is %d cells wide, want %d", ansi.Strip(l), w, tt.width)
				}
			}
		})
	}
}

func TestViewFollowsEverySetter(t *testing.T) {
	m := New(Options{Commands: []Command{{Name: "help"}}})
	m.SetWidth(20)
	steps := []struct {
		name   string
		change func()
	}{
		{"SetValue", func() { m.SetValue("abc") }},
		{"InsertText", func() { m.InsertText("d") }},
		{"Blur", func() { m.Blur() }},
		{"Focus", func() { m.Focus() }},
		{"SetWidth", func() { m.SetWidth(25) }},
		{"SetValue lines", func() { m.SetValue("1\n2\n3\n4") }},
		{"SetMaxHeight", func() { m.SetMaxHeight(2) }},
		{"Reset", func() { m.Reset() }},
		{"SetPlaceholder", func() { m.SetPlaceholder("hint") }},
		{"SetStyles", func() { st := DefaultStyles(); st.Placeholder = st.Placeholder.Italic(true); m.SetStyles(st) }},
		{"SetValue command", func() { m.SetValue("/h") }},
		{"SetCommands", func() { m.SetCommands(nil) }},
	}
	prev := m.View()
	for _, st := range steps {
		st.change()
		got := m.View()
		if got == prev {
			t.Errorf("%s: view unchanged: %q", st.name, got)
		}
		prev = got
	}
}
