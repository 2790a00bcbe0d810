package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/approval"
)

// files writes the global and project settings files (skipping empty
// contents) in a fresh directory and returns their paths.
func files(t *testing.T, global, project string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	g := GlobalFile(filepath.Join(dir, "home", ".cairn"))
	p := ProjectFile(filepath.Join(dir, "proj"))
	for path, content := range map[string]string{g: global, p: project} {
		if content == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return g, p
}

func mustLoad(t *testing.T, g, p string) *Store {
	t.Helper()
	s, err := Load(g, p)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

func readString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDefaultsWithoutFiles(t *testing.T) {
	g, p := files(t, "", "")
	s := mustLoad(t, g, p)
	if got := s.Effective(); got != Defaults() {
		t.Errorf("Effective() = %+v, want the defaults %+v", got, Defaults())
	}
	d := Defaults()
	if !d.Compaction.Enabled || d.Compaction.ReserveTokens != 16384 || d.Compaction.KeepRecentTokens != 20000 ||
		!d.Retry.Enabled || d.Retry.MaxRetries != 3 || d.Retry.BaseDelay() != 2*time.Second || d.Retry.MaxDelay() != time.Minute ||
		d.FollowUpMode != QueueOneAtATime || d.SteeringMode != QueueOneAtATime ||
		d.InterruptMode != InterruptWait || d.ApprovalMode != approval.ModeDefault {
		t.Errorf("Defaults() = %+v, not pi's", d)
	}
	if _, err := Load("", ""); err != nil {
		t.Errorf("Load with no files: %v", err)
	}
}

func TestProjectWinsAndObjectsMergeKeyByKey(t *testing.T) {
	g, p := files(t,
		`{"defaultModel": "global-model", "defaultProvider": "anthropic", "theme": "dark",
		  "compaction": {"enabled": false, "reserveTokens": 1000},
		  "retry": {"maxRetries": 7}}`,
		`{"defaultModel": "project-model", "compaction": {"enabled": true},
		  "retry": {"enabled": false}, "followUpMode": "all", "approvalMode": "auto-edit"}`)
	got := mustLoad(t, g, p).Effective()

	want := Defaults()
	want.DefaultModel = "project-model"
	want.DefaultProvider = "anthropic"
	want.Theme = "dark"
	want.Compaction = CompactionSettings{Enabled: true, ReserveTokens: 1000, KeepRecentTokens: 20000}
	want.Retry = RetrySettings{Enabled: false, MaxRetries: 7, BaseDelayMs: 2000, MaxDelayMs: 60000}
	want.FollowUpMode = QueueAll
	want.ApprovalMode = approval.ModeAutoEdit
	if got != want {
		t.Errorf("Effective() =\n %+v\nwant\n %+v", got, want)
	}
}

func TestMergeIsOneLevelDeepLikePi(t *testing.T) {
	g, p := files(t,
		`{"retry": {"maxRetries": 5, "provider": {"timeoutMs": 1, "maxRetries": 2}}, "packages": ["a", "b"]}`,
		`{"retry": {"provider": {"timeoutMs": 9}}, "packages": ["c"]}`)
	s := mustLoad(t, g, p)
	for key, want := range map[string]string{
		"retry.maxRetries": `5`,
		"retry.provider":   `{"timeoutMs":9}`,
		"packages":         `["c"]`,
	} {
		if got, ok := s.Get(key); !ok || string(got) != want {
			t.Errorf("Get(%s) = %s, %v; want %s", key, got, ok, want)
		}
	}
}

func TestMalformedFileIsReportedAndIgnored(t *testing.T) {
	tests := []struct {
		name       string
		content    string
		line, col  int
		wantInText string
	}{
		{"missing value", "{\n  \"defaultModel\": \"x\",\n  \"theme\": }\n", 3, 12, "invalid character '}'"},
		{"truncated", "{\n  \"theme\": \"dark\"", 2, 17, "unexpected end"},
		{"not an object", "\n  [1, 2]\n", 2, 3, "JSON object"},
		{"trailing data", "{}\n}", 2, 1, "after top-level value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, p := files(t, tt.content, `{"defaultProvider": "from-project"}`)
			s, err := Load(g, p)
			if s == nil {
				t.Fatal("Load returned no Store")
			}
			var fe *FileError
			var se *SyntaxError
			if !errors.As(err, &fe) || fe.Path != g || !errors.As(err, &se) {
				t.Fatalf("Load error = %v, want a *FileError for %s holding a *SyntaxError", err, g)
			}
			if se.Line != tt.line || se.Column != tt.col {
				t.Errorf("position = line %d, column %d; want line %d, column %d (%v)", se.Line, se.Column, tt.line, tt.col, err)
			}
			msg := err.Error()
			for _, part := range []string{g, tt.wantInText, "ignored"} {
				if !containsFold(msg, part) {
					t.Errorf("error %q does not mention %q", msg, part)
				}
			}
			got := s.Effective()
			if got.DefaultProvider != "from-project" || got.Theme != "" || got.DefaultModel != "" {
				t.Errorf("Effective() = %+v, want the project file's provider and nothing from the broken file", got)
			}
		})
	}
}

func TestUnusableValueFallsBackToDefault(t *testing.T) {
	tests := []struct {
		content string
		key     string
		check   func(Settings) bool
	}{
		{`{"compaction": {"enabled": "yes", "reserveTokens": 5}}`, "compaction.enabled",
			func(s Settings) bool { return s.Compaction.Enabled && s.Compaction.ReserveTokens == 5 }},
		{`{"followUpMode": "several"}`, "followUpMode",
			func(s Settings) bool { return s.FollowUpMode == QueueOneAtATime }},
		{`{"interruptMode": "later"}`, "interruptMode",
			func(s Settings) bool { return s.InterruptMode == InterruptWait }},
		{`{"approvalMode": "reckless"}`, "approvalMode",
			func(s Settings) bool { return s.ApprovalMode == approval.ModeDefault }},
		{`{"defaultThinkingLevel": "huge"}`, "defaultThinkingLevel",
			func(s Settings) bool { return s.DefaultThinkingLevel == "" }},
		{`{"retry": {"maxRetries": -1}}`, "retry.maxRetries",
			func(s Settings) bool { return s.Retry.MaxRetries == 3 }},
		{`{"theme": 3}`, "theme",
			func(s Settings) bool { return s.Theme == "" }},
		{`{"notifications": "loud"}`, "notifications",
			func(s Settings) bool { return s.Notifications == "" }},
		{`{"scrollbackOnQuit": "some"}`, "scrollbackOnQuit",
			func(s Settings) bool { return s.ScrollbackOnQuit == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			g, _ := files(t, tt.content, "")
			s, err := Load(g, "")
			var fe *FileError
			var ke *KeyError
			if !errors.As(err, &fe) || fe.Path != g || !errors.As(err, &ke) || ke.Key != tt.key {
				t.Fatalf("Load error = %v, want a *FileError for %s about %s", err, g, tt.key)
			}
			if got := s.Effective(); !tt.check(got) {
				t.Errorf("Effective() = %+v, want the default for %s", got, tt.key)
			}
		})
	}
}

func TestSessionChangeNeverTouchesFiles(t *testing.T) {
	g, p := files(t, `{"defaultModel": "a",   "theme": "dark"}`, `{"theme": "light"}`)
	before := readString(t, g)
	entries := func() int {
		list, err := os.ReadDir(filepath.Dir(g))
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	n := entries()
	s := mustLoad(t, g, p)
	if err := s.Set("defaultModel", "b", ScopeSession); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("theme", "session-theme", ScopeSession); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("compaction.enabled", false, ScopeSession); err != nil {
		t.Fatal(err)
	}
	got := s.Effective()
	if got.DefaultModel != "b" || got.Theme != "session-theme" || got.Compaction.Enabled || got.Compaction.ReserveTokens != 16384 {
		t.Errorf("Effective() = %+v, want the session's changes over the files", got)
	}
	if after := readString(t, g); after != before {
		t.Errorf("global file changed:\n%s\nwas\n%s", after, before)
	}
	if readString(t, p) != `{"theme": "light"}` {
		t.Error("project file changed")
	}
	if entries() != n {
		t.Error("files appeared next to the global settings file")
	}

	// Removing the session's value lets the files show through again.
	if err := s.Set("theme", nil, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if got := s.Effective().Theme; got != "light" {
		t.Errorf("theme after removing the session value = %q, want the project's %q", got, "light")
	}
}

func TestGlobalWriteKeepsUnknownKeysAndOrder(t *testing.T) {
	g, _ := files(t, "\ufeff"+`{
  "quietStartup": true,
  "compaction": {"keepRecentTokens": 1e4, "futureKnob": [1, {"a": null}]},
  "packages": ["npm:pi-foo", {"source": "git:x", "skills": []}],
  "defaultModel": "old",
  "note": "<a & b>"
}`, "")
	s := mustLoad(t, g, "")
	if err := s.Set("compaction.enabled", false, ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("defaultModel", "new", ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("followUpMode", QueueAll, ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	want := `{
  "quietStartup": true,
  "compaction": {
    "keepRecentTokens": 1e4,
    "futureKnob": [
      1,
      {
        "a": null
      }
    ],
    "enabled": false
  },
  "packages": [
    "npm:pi-foo",
    {
      "source": "git:x",
      "skills": []
    }
  ],
  "defaultModel": "new",
  "note": "<a & b>",
  "followUpMode": "all"
}
`
	if got := readString(t, g); got != want {
		t.Errorf("global file =\n%s\nwant\n%s", got, want)
	}
	got := s.Effective()
	if got.Compaction.Enabled || got.Compaction.KeepRecentTokens != 10000 || got.DefaultModel != "new" || got.FollowUpMode != QueueAll {
		t.Errorf("Effective() = %+v after the writes", got)
	}
	if raw, ok := s.Get("packages"); !ok || string(raw) != `["npm:pi-foo",{"source":"git:x","skills":[]}]` {
		t.Errorf("Get(packages) = %s, %v", raw, ok)
	}
}

func TestProjectWriteCreatesDirectoryAndFile(t *testing.T) {
	g, p := files(t, `{"theme": "dark"}`, "")
	s := mustLoad(t, g, p)
	if err := s.Set("approvalMode", "yolo", ScopeProject); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, p); got != "{\n  \"approvalMode\": \"yolo\"\n}\n" {
		t.Errorf("project file = %q", got)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("project file mode = %v, want 0644", info.Mode().Perm())
	}
	if _, err := os.Stat(p + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock file left behind: %v", err)
	}
	if got := s.Effective(); got.ApprovalMode != approval.ModeYolo || got.Theme != "dark" {
		t.Errorf("Effective() = %+v", got)
	}
	if readString(t, g) != `{"theme": "dark"}` {
		t.Error("a project write changed the global file")
	}
}

func TestSetRefusesUnusableValues(t *testing.T) {
	g, _ := files(t, `{"theme": "dark"}`, "")
	s := mustLoad(t, g, "")
	for _, tt := range []struct {
		key   string
		value any
	}{
		{"compaction.enabled", "yes"},
		{"compaction", 3},
		{"followUpMode", "sometimes"},
		{"approvalMode", "reckless"},
		{"retry.maxDelayMs", -5},
		{"theme.name", "x"}, // theme holds a string
		{"", 1},
		{"a..b", 1},
	} {
		for _, scope := range []Scope{ScopeSession, ScopeGlobal} {
			if err := s.Set(tt.key, tt.value, scope); err == nil {
				t.Errorf("Set(%q, %v, %v) succeeded", tt.key, tt.value, scope)
			}
		}
	}
	if got := readString(t, g); got != `{"theme": "dark"}` {
		t.Errorf("refused changes rewrote the file: %s", got)
	}
	if got := s.Effective(); got != func() Settings { d := Defaults(); d.Theme = "dark"; return d }() {
		t.Errorf("refused changes changed the settings: %+v", got)
	}
}

func TestSetNeverOverwritesBrokenFile(t *testing.T) {
	broken := `{"theme": "dark",`
	g, _ := files(t, broken, "")
	s, err := Load(g, "")
	if err == nil {
		t.Fatal("Load did not report the broken file")
	}
	err = s.Set("defaultModel", "x", ScopeGlobal)
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Set on a broken file: %v, want a *SyntaxError", err)
	}
	if got := readString(t, g); got != broken {
		t.Errorf("broken file overwritten with %q", got)
	}
	if s.Effective().DefaultModel != "" {
		t.Error("a failed Set changed the settings")
	}
}

func TestSetNilRemovesKey(t *testing.T) {
	g, _ := files(t, `{"theme": "dark", "defaultModel": "m"}`, "")
	s := mustLoad(t, g, "")
	if err := s.Set("theme", nil, ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, g); got != "{\n  \"defaultModel\": \"m\"\n}\n" {
		t.Errorf("file = %q", got)
	}
	if _, ok := s.Get("theme"); ok {
		t.Error("Get(theme) still finds the removed key")
	}
}

func TestSetPathKeepsDotsInNames(t *testing.T) {
	g, _ := files(t, "", "")
	s := mustLoad(t, g, "")
	path := []string{"modelThinkingLevels", "anthropic/claude-sonnet-4.5"}
	if err := s.SetPath(path, "high", ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"modelThinkingLevels\": {\n    \"anthropic/claude-sonnet-4.5\": \"high\"\n  }\n}\n"
	if got := readString(t, g); got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}

func TestWriteSeesOtherProcessesChanges(t *testing.T) {
	g, _ := files(t, `{"theme": "dark"}`, "")
	a := mustLoad(t, g, "")
	b := mustLoad(t, g, "")
	if err := a.Set("defaultModel", "from-a", ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	if err := b.Set("defaultProvider", "from-b", ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	got := b.Effective()
	if got.DefaultModel != "from-a" || got.DefaultProvider != "from-b" || got.Theme != "dark" {
		t.Errorf("b.Effective() = %+v, want both writers' changes", got)
	}
}

func TestConcurrentWritersLoseNothing(t *testing.T) {
	g, _ := files(t, `{"theme": "dark"}`, "")
	const writes = 15
	var wg sync.WaitGroup
	errs := make(chan error, 2*writes)
	for _, name := range []string{"a", "b"} {
		// Two Stores stand for two cairn processes: only the lock file
		// serialises them.
		s := mustLoad(t, g, "")
		wg.Go(func() {
			for i := range writes {
				errs <- s.SetPath([]string{name, fmt.Sprint(i)}, i, ScopeGlobal)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	final := mustLoad(t, g, "")
	for _, name := range []string{"a", "b"} {
		for i := range writes {
			raw, ok := final.Get(fmt.Sprintf("%s.%d", name, i))
			if !ok || string(raw) != fmt.Sprint(i) {
				t.Errorf("%s.%d = %s, %v; an update was lost", name, i, raw, ok)
			}
		}
	}
	if raw, _ := final.Get("theme"); string(raw) != `"dark"` {
		t.Errorf("theme = %s, want the original value kept", raw)
	}
	if _, err := os.Stat(g + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock file left behind: %v", err)
	}
}

func TestStaleLockIsBroken(t *testing.T) {
	g, _ := files(t, `{}`, "")
	lock := g + ".lock"
	if err := os.WriteFile(lock, []byte("99999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * lockStale)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	s := mustLoad(t, g, "")
	if err := s.Set("theme", "x", ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	if s.Effective().Theme != "x" {
		t.Error("write after breaking the stale lock did not apply")
	}
}

func TestOneFileForBothScopes(t *testing.T) {
	// Working in the home directory, <home>/.cairn/settings.json is both the
	// global and the project file.
	g, _ := files(t, `{"theme": "dark", "followUpMode": "bogus"}`, "")
	s, err := Load(g, g)
	if err == nil || strings.Count(err.Error(), "followUpMode") != 1 {
		t.Errorf("Load error = %v, want the bad value reported once", err)
	}
	if err := s.Set("theme", "light", ScopeGlobal); err != nil {
		t.Fatal(err)
	}
	if got := s.Effective().Theme; got != "light" {
		t.Errorf("theme = %q after a global write to the shared file, want %q", got, "light")
	}
	if err := s.Set("theme", "blue", ScopeProject); err != nil {
		t.Fatal(err)
	}
	if got := s.Effective().Theme; got != "blue" {
		t.Errorf("theme = %q after a project write to the shared file, want %q", got, "blue")
	}
}

func TestSetWithoutFile(t *testing.T) {
	s := mustLoad(t, "", "")
	if err := s.Set("theme", "x", ScopeProject); err == nil {
		t.Error("Set in a project scope with no project file succeeded")
	}
	if s.Path(ScopeSession) != "" || s.Path(ScopeGlobal) != "" {
		t.Error("Path reports a file Load was not given")
	}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// TestOnWriteHearsEachWrite: the OnWrite function hears the scope of each
// file write, after the write, and nothing for session-only changes or
// refused ones.
func TestOnWriteHearsEachWrite(t *testing.T) {
	g, p := files(t, "", "")
	s := mustLoad(t, g, p)
	var heard []Scope
	s.OnWrite(func(sc Scope) {
		if readString(t, p) == "" && sc == ScopeProject {
			t.Error("OnWrite ran before the project file was written")
		}
		heard = append(heard, sc)
	})
	for _, sc := range []Scope{ScopeProject, ScopeSession, ScopeGlobal} {
		if err := s.Set("theme", "dark", sc); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.Set("compaction", "not an object", ScopeGlobal)
	if len(heard) != 2 || heard[0] != ScopeProject || heard[1] != ScopeGlobal {
		t.Errorf("heard %v, want [project global]", heard)
	}
}

func TestOtherAgentDirs(t *testing.T) {
	if !Defaults().OtherAgentDirs {
		t.Error("otherAgentDirs is off by default")
	}
	g, p := files(t, `{"otherAgentDirs": false}`, "")
	if mustLoad(t, g, p).Effective().OtherAgentDirs {
		t.Error(`{"otherAgentDirs": false} left it on`)
	}
	g, p = files(t, `{"otherAgentDirs": "no"}`, "")
	s, err := Load(g, p)
	var ke *KeyError
	if !errors.As(err, &ke) || ke.Key != "otherAgentDirs" || !s.Effective().OtherAgentDirs {
		t.Errorf("a string value: err %v, effective %v; want a KeyError and the default", err, s.Effective().OtherAgentDirs)
	}
}
