package editor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sahilm/fuzzy"
)

func makeTree(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func walkedTree(t *testing.T) string {
	dir := t.TempDir()
	makeTree(t, dir, "main.go", "go.mod", "README.md", "src/editor.go", "src/view.go",
		"src/deep/model.go", ".git/config", "node_modules/pkg/index.js", ".cache/x.txt", ".env")
	return dir
}

func TestFileIndexWithoutGit(t *testing.T) {
	d := newDriver(t, Options{Cwd: walkedTree(t)})
	want := []string{".env", "README.md", "go.mod", "main.go", "src/",
		"src/deep/", "src/editor.go", "src/view.go", "src/deep/model.go"}
	if got := d.m.s.files.paths; !reflect.DeepEqual(got, want) {
		t.Fatalf("index %q,\nwant %q", got, want)
	}
}

func TestFileIndexIsCapped(t *testing.T) {
	d := newDriver(t, Options{Cwd: walkedTree(t), MaxFiles: 3})
	files := 0
	for _, p := range d.m.s.files.paths {
		if !strings.HasSuffix(p, "/") {
			files++
		}
	}
	if files != 3 {
		t.Fatalf("index holds %d files (%q), want 3", files, d.m.s.files.paths)
	}
}

func TestFileIndexFromGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	makeTree(t, dir, "tracked.go", "debug.log", "sub/untracked.txt", ".hidden/kept.txt")
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git := exec.Command("git", "init", "-q")
	git.Dir = dir
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	d := newDriver(t, Options{Cwd: dir, UseGit: true})
	want := []string{".gitignore", ".hidden/", "sub/", "tracked.go", ".hidden/kept.txt", "sub/untracked.txt"}
	if got := d.m.s.files.paths; !reflect.DeepEqual(got, want) {
		t.Fatalf("index %q,\nwant %q (ignored files out, as git lists them)", got, want)
	}

	sub := newDriver(t, Options{Cwd: filepath.Join(dir, "sub"), UseGit: true})
	if got := sub.m.s.files.paths; !reflect.DeepEqual(got, []string{"untracked.txt"}) {
		t.Fatalf("index from a subdirectory %q, want paths relative to it", got)
	}
}

func TestFileCompletion(t *testing.T) {
	dir := walkedTree(t)
	tests := []struct {
		name      string
		typed     string
		keys      []string
		wantItems []string // popup after typing, before keys
		wantValue string
		wantOpen  bool
	}{
		{"tab accepts", "look at @ma", []string{"tab"}, []string{"@main.go"}, "look at @main.go ", false},
		{"enter accepts and does not send", "@vie", []string{"enter"}, []string{"@src/view.go"}, "@src/view.go ", false},
		{"a directory keeps completing", "@sr", []string{"tab"}, nil, "@src/", true},
		{"down selects the next match", "@src/", []string{"down", "tab"}, []string{"@src/deep/"}, "@src/view.go ", false},
		{"up wraps to the last match", "@src/", []string{"up", "tab"}, nil, "@src/deep/model.go ", false},
		{"esc closes", "@ma", []string{"esc"}, nil, "@ma", false},
		{"esc closes until the word changes", "@ma", []string{"esc", "backspace"}, nil, "@m", true},
		{"no match, no popup", "@zzzz", nil, []string{}, "@zzzz", false},
		{"an email is not a path", "me@ma", nil, []string{}, "me@ma", false},
		{"bash mode completes nothing", "!cat @ma", nil, []string{}, "!cat @ma", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, Options{Cwd: dir})
			d.typ(tt.typed)
			if tt.wantItems != nil {
				got := d.items()
				if len(tt.wantItems) == 0 && len(got) != 0 {
					t.Fatalf("popup shows %q, want none", got)
				}
				if len(tt.wantItems) > 0 && (len(got) == 0 || got[0] != tt.wantItems[0]) {
					t.Fatalf("popup shows %q, want %q first", got, tt.wantItems[0])
				}
			}
			d.keys(tt.keys...)
			if got := d.m.Value(); got != tt.wantValue {
				t.Errorf("value %q, want %q", got, tt.wantValue)
			}
			if d.m.CompletionOpen() != tt.wantOpen {
				t.Errorf("popup open %v, want %v (items %q)", d.m.CompletionOpen(), tt.wantOpen, d.items())
			}
			if subs := d.submitted(); len(subs) != 0 {
				t.Errorf("submitted %v", subs)
			}
		})
	}
}

func TestFileCompletionInTheMiddleOfText(t *testing.T) {
	d := newDriver(t, Options{Cwd: walkedTree(t)})
	d.typ("see @mai and more")
	for range len(" and more") {
		d.keys("left")
	}
	if got := d.items(); len(got) == 0 || got[0] != "@main.go" {
		t.Fatalf("popup %q", got)
	}
	// The space after the word is kept and the cursor goes past it.
	d.keys("tab").typ("x")
	if got := d.m.Value(); got != "see @main.go xand more" {
		t.Fatalf("value %q", got)
	}
}

func TestPopupKeysDoNotBrowseHistory(t *testing.T) {
	d := newDriver(t, Options{Cwd: walkedTree(t)})
	submitAll(d, "an old prompt")
	d.typ("@src/").keys("up", "down", "down")
	if got := d.m.Value(); got != "@src/" {
		t.Fatalf("value %q: up/down left the popup", got)
	}
	if d.m.s.comp.sel != 1 {
		t.Fatalf("selection %d, want 1", d.m.s.comp.sel)
	}
}

func TestCompletionWaitsForTheIndex(t *testing.T) {
	m := New(Options{Cwd: walkedTree(t)})
	m.SetValue("@ma")
	if m.CompletionOpen() {
		t.Fatal("popup open before the files were listed")
	}
	d := &driver{t: t, m: m}
	d.run(m.Init())
	if got := d.items(); len(got) == 0 || got[0] != "@main.go" {
		t.Fatalf("after listing, popup %q", got)
	}
}

func TestStaleFileResultsAreDropped(t *testing.T) {
	m := New(Options{Cwd: "/nowhere"})
	m.s.files.paths, m.s.files.ready = []string{"a.go", "b.go"}, true
	m.SetValue("@a")
	first := m.s.comp.seq
	m.InsertText("x")
	m.s.fileMatches(fileMatches{seq: first, query: "a", best: []string{"a.go"}})
	if m.CompletionOpen() {
		t.Fatal("a superseded result opened the popup")
	}
	m.s.filesIndexed(filesIndexed{generation: m.s.files.generation - 1, paths: []string{"old"}})
	if m.s.files.paths[0] != "a.go" {
		t.Fatal("an older listing replaced the index")
	}
}

func TestCancelledMatchSendsNothing(t *testing.T) {
	paths := make([]string, 1000)
	for i := range paths {
		paths[i] = "dir/file.go"
	}
	stop := new(atomic.Bool)
	stop.Store(true)
	if msg := (fileMatchJob{query: "f", paths: paths, stop: stop}).run(); msg != nil {
		t.Fatalf("cancelled job sent %v", msg)
	}
}

func TestNarrowingMatchesLikeAFullMatch(t *testing.T) {
	paths := withDirs([]string{
		"cmd/cairn/main.go", "core/agent/session.go", "core/agent/session_test.go",
		"core/provider/anthropic/stream.go", "tui/editor/editor.go", "tui/editor/view.go",
		"README.md", "Makefile", "docs/Über/ß.md", "internal/KELVIN/k.go",
	})
	stop := new(atomic.Bool)
	for _, q := range []string{"s", "se", "ses", "sess", "e", "ed", "edi", "edv", "m", "ma", "mak", "ü", "üb", "k", "kk"} {
		rs := []rune(q)
		prev := string(rs[:len(rs)-1])
		full := fileMatchJob{query: q, paths: paths, stop: stop}.run()
		base := fileMatchJob{query: prev, paths: paths, stop: stop}.run()
		var cands []int32
		if prev != "" {
			cands = base.(InternalMsg).payload.(fileMatches).matched
		}
		narrowed := fileMatchJob{query: q, paths: paths, cands: cands, stop: stop}.run()
		f, n := full.(InternalMsg).payload.(fileMatches), narrowed.(InternalMsg).payload.(fileMatches)
		if !reflect.DeepEqual(f.best, n.best) || !reflect.DeepEqual(f.matched, n.matched) {
			t.Errorf("query %q: full %q, narrowed %q", q, f.best, n.best)
		}
		// The quick filter must never drop what the fuzzy matcher finds.
		for _, m := range fuzzy.Find(q, paths) {
			if f.matched != nil && !slices.Contains(f.matched, int32(m.Index)) {
				t.Errorf("query %q: %q matches but was filtered out", q, m.Str)
			}
		}
	}
}

func TestRankingPrefersNamesHoldingTheQuery(t *testing.T) {
	var files []string
	for i := range 2 * maxRanked {
		files = append(files, fmt.Sprintf("a/z%05d/e/t/a.go", i)) // "zeta" as a scattered subsequence
	}
	files = append(files, "z/y/x/w/v/zeta.go") // deepest, so last in the index
	stop := new(atomic.Bool)
	res := fileMatchJob{query: "zeta", paths: withDirs(files), stop: stop}.run().(InternalMsg).payload.(fileMatches)
	if len(res.best) == 0 || res.best[0] != "z/y/x/w/v/zeta.go" {
		t.Fatalf("best %q, want zeta.go first although it is past the ranking limit", res.best)
	}
}

func TestCommandCompletion(t *testing.T) {
	cmds := []Command{
		{Name: "help", Description: "Show help"},
		{Name: "hello", Description: "Say hello"},
		{Name: "model", Description: "Pick a model"},
		{Name: "theme", Description: "Pick a theme"},
	}
	tests := []struct {
		name       string
		typed      string
		keys       []string
		wantItems  []string
		wantValue  string
		wantSubmit string
	}{
		{"slash lists everything", "/", nil, []string{"/help", "/hello", "/model", "/theme"}, "/", ""},
		{"prefix matches first", "/he", nil, []string{"/help", "/hello", "/theme"}, "/he", ""},
		{"fuzzy matches too", "/mdl", nil, []string{"/model"}, "/mdl", ""},
		{"tab completes", "/he", []string{"tab"}, []string{"/help", "/hello", "/theme"}, "/help ", ""},
		{"enter sends what was typed", "/he", []string{"enter"}, []string{"/help", "/hello", "/theme"}, "", "/he"},
		{"enter never sends a fuzzy match", "/mdl", []string{"enter"}, []string{"/model"}, "", "/mdl"},
		{"enter sends the one moved back to", "/he", []string{"down", "up", "enter"}, []string{"/help", "/hello", "/theme"}, "", "/help"},
		{"enter sends the one moved to", "/he", []string{"down", "enter"}, []string{"/help", "/hello", "/theme"}, "", "/hello"},
		{"no match sends as typed", "/zzz", []string{"enter"}, nil, "", "/zzz"},
		{"arguments close the popup", "/model x", nil, nil, "/model x", ""},
		{"esc closes", "/he", []string{"esc"}, []string{"/help", "/hello", "/theme"}, "/he", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, Options{Commands: cmds})
			d.typ(tt.typed)
			if got := d.items(); !slices.Equal(got, tt.wantItems) {
				t.Fatalf("popup %q, want %q", got, tt.wantItems)
			}
			d.keys(tt.keys...)
			if got := d.m.Value(); got != tt.wantValue {
				t.Errorf("value %q, want %q", got, tt.wantValue)
			}
			subs := d.submitted()
			switch {
			case tt.wantSubmit == "" && len(subs) > 0:
				t.Errorf("submitted %v", subs)
			case tt.wantSubmit != "" && (len(subs) != 1 || subs[0].Text != tt.wantSubmit):
				t.Errorf("submitted %v, want %q", subs, tt.wantSubmit)
			}
			if len(tt.keys) > 0 && d.m.CompletionOpen() {
				t.Errorf("popup still open: %q", d.items())
			}
		})
	}
}

func TestExactCommandComesFirst(t *testing.T) {
	d := newDriver(t, Options{Commands: []Command{{Name: "hello"}, {Name: "he"}}})
	d.typ("/he").keys("enter")
	if subs := d.submitted(); len(subs) != 1 || subs[0].Text != "/he" {
		t.Fatalf("submitted %v, want /he", subs)
	}
}

func TestSetCommandsUpdatesAnOpenPopup(t *testing.T) {
	d := newDriver(t, Options{Commands: []Command{{Name: "help"}}})
	d.typ("/h")
	d.m.SetCommands([]Command{{Name: "history"}, {Name: "help"}})
	if got := d.items(); !slices.Equal(got, []string{"/history", "/help"}) {
		t.Fatalf("popup %q", got)
	}
}

func TestMayMatch(t *testing.T) {
	tests := []struct {
		s, q string
		want bool
	}{
		{"src/Editor.go", "edit", true},
		{"src/Editor.go", "sedg", true},
		{"src/Editor.go", "zz", false},
		{"src/Editor.go", "gs", false},
		{"docs/Über.md", "zz", true}, // non-ASCII: left to the fuzzy matcher
	}
	for _, tt := range tests {
		if got := mayMatch(tt.s, []byte(tt.q)); got != tt.want {
			t.Errorf("mayMatch(%q, %q) = %v", tt.s, tt.q, got)
		}
	}
}

// TestMentionsAfterAColon: once an @ word holds a colon, the mentions that
// start with it are offered instead of files, and one that looks like an
// image is inserted as text, not attached.
func TestMentionsAfterAColon(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, "code.go", "shot.png")
	d := newDriver(t, Options{Cwd: dir, AttachImages: true})
	d.m.SetMentions([]Command{{Name: "code:file:///notes", Description: "notes"}, {Name: "code:file:///shot.png"}, {Name: "web:https://x/notes"}})
	d.typ("see @code")
	if got := d.items(); !slices.Equal(got, []string{"@code.go"}) {
		t.Errorf("before the colon: %q, want files", got)
	}
	d.typ(":")
	if got := d.items(); !slices.Equal(got, []string{"@code:file:///notes", "@code:file:///shot.png"}) {
		t.Errorf("after the colon: %q", got)
	}
	d.typ("file:///sh").keys("tab")
	if v := d.m.Value(); v != "see @code:file:///shot.png " {
		t.Errorf("value = %q", v)
	}
	for _, msg := range d.take() {
		if _, ok := msg.(ImageRefMsg); ok {
			t.Errorf("a mention was attached as an image file: %+v", msg)
		}
	}
	d.typ("and @x:notes")
	if got := d.items(); len(got) != 0 {
		t.Errorf("no mention matches: %q", got)
	}
}
