package themes

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/regfile"
)

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	named := func(name string, edit func(doc map[string]any)) []byte {
		return themeJSON(t, func(doc map[string]any) {
			doc["name"] = name
			if edit != nil {
				edit(doc)
			}
		})
	}
	good := writeFile(t, dir, "ocean.json", named("ocean", func(doc map[string]any) {
		colorsOf(doc)["statusLineBg"] = "#000000"
	}))
	bad := writeFile(t, dir, "broken.json", named("broken", func(doc map[string]any) {
		colorsOf(doc)["mdHeading"] = "#12345"
		delete(colorsOf(doc), "bashMode")
	}))
	dup := writeFile(t, dir, "zz-ocean-copy.json", named("ocean", nil))
	writeFile(t, dir, "notes.txt", []byte("not a theme"))
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}

	themes, errs := LoadDir(dir)
	if len(themes) != 1 || themes["ocean"] == nil {
		t.Fatalf("themes = %v, want only ocean", themes)
	}
	ocean := themes["ocean"]
	if ocean.Source != good {
		t.Errorf("Source = %q, want %q", ocean.Source, good)
	}
	if len(ocean.Warnings) != 1 || !strings.HasPrefix(ocean.Warnings[0], good+": ") {
		t.Errorf("warnings = %q, want one naming %s", ocean.Warnings, good)
	}
	want := []string{
		bad + `: theme "broken": colors.mdHeading: "#12345" is not a colour (use "#rrggbb", 0-255, a var name, or "")` + "\n" +
			bad + `: theme "broken": missing token bashMode`,
		dup + `: theme "ocean" is already defined in ` + good + `; skipped`,
	}
	if len(errs) != len(want) {
		t.Fatalf("errors = %q, want %d", errs, len(want))
	}
	for i := range want {
		if errs[i].Error() != want[i] {
			t.Errorf("error %d:\n%s\nwant:\n%s", i, errs[i], want[i])
		}
	}
}

func TestLoadDirMissing(t *testing.T) {
	themes, errs := LoadDir(filepath.Join(t.TempDir(), "nope"))
	if len(themes) != 0 || len(errs) != 0 {
		t.Errorf("missing dir: themes %v errors %v, want none", themes, errs)
	}
}

func TestLoadDirUnreadable(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "a.json", []byte("{"))
	themes, errs := LoadDir(dir)
	if len(themes) != 0 || len(errs) != 1 {
		t.Fatalf("themes %v errors %v", themes, errs)
	}
	if want := path + ": theme: invalid JSON at line 1, column 1: unexpected end of JSON input"; errs[0].Error() != want {
		t.Errorf("error %q, want %q", errs[0], want)
	}
}

func TestResolve(t *testing.T) {
	ocean, err := Parse(themeJSON(t, func(doc map[string]any) { doc["name"] = "ocean" }))
	if err != nil {
		t.Fatal(err)
	}
	myDark, err := Parse(themeJSON(t, func(doc map[string]any) { doc["name"] = "dark" }))
	if err != nil {
		t.Fatal(err)
	}
	custom := map[string]*Theme{"ocean": ocean}
	for _, tc := range []struct {
		name   string
		custom map[string]*Theme
		darkBg bool
		want   *Theme
		err    string
	}{
		{"", nil, true, Dark(), ""},
		{"", nil, false, Light(), ""},
		{"", custom, false, Light(), ""},
		{"light", nil, true, Light(), ""},
		{"ocean", custom, false, ocean, ""},
		{"dark", map[string]*Theme{"dark": myDark}, false, myDark, ""},
		{"solarized", custom, true, nil, `unknown theme "solarized" (available: dark, light, ocean)`},
		{"solarized", nil, true, nil, `unknown theme "solarized" (available: dark, light)`},
	} {
		got, err := Resolve(tc.name, tc.custom, tc.darkBg)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Resolve(%q): error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q, dark=%v) = %p, %v; want %p", tc.name, tc.darkBg, got, err, tc.want)
		}
	}
}

// TestLoadFileNamedPipe: a theme file that is a named pipe is refused at
// once, naming it, instead of hanging start-up.
func TestLoadFileNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadFile(path); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), path) {
			t.Errorf("err = %v, want one naming the pipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("LoadFile blocked on a named pipe")
	}
}
