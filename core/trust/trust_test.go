package trust

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fingerprint is the fingerprint of p's control files as they are now.
func fingerprint(p Project) string { return p.Scan().Fingerprint() }

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestControlFiles: the files under the working directory's .cairn/,
// every AGENTS.md and CLAUDE.md from the repository root down, and the
// .mcp.json files of the root and the working directory count;
// .cairn/ of the root, when the working directory is below it, does not
// (cairn reads the working directory's).
func TestControlFiles(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "svc", "api")
	write(t, filepath.Join(repo, "AGENTS.md"), "root rules")
	write(t, filepath.Join(repo, "svc", "CLAUDE.md"), "svc rules")
	write(t, filepath.Join(sub, ".cairn", "settings.json"), "{}")
	write(t, filepath.Join(sub, ".cairn", "prompts", "x.md"), "x")
	write(t, filepath.Join(repo, ".cairn", "approvals.json"), "{}")
	write(t, filepath.Join(sub, "README.md"), "not a control file")
	write(t, filepath.Join(repo, ".mcp.json"), "{}")
	write(t, filepath.Join(sub, ".mcp.json"), "{}")
	write(t, filepath.Join(repo, "svc", ".mcp.json"), "{} (cairn does not read this one)")
	if err := os.Symlink(filepath.Join(repo, "AGENTS.md"), filepath.Join(sub, ".cairn", "SYSTEM.md")); err != nil {
		t.Fatal(err)
	}

	p := Find(sub)
	realRepo, _ := filepath.EvalSymlinks(repo)
	if p.Root != realRepo {
		t.Fatalf("Root = %s, want %s", p.Root, realRepo)
	}
	want := []string{".mcp.json", "AGENTS.md", "svc/CLAUDE.md", "svc/api/.cairn/SYSTEM.md", "svc/api/.cairn/prompts/x.md", "svc/api/.cairn/settings.json", "svc/api/.mcp.json"}
	if got := p.ControlFiles(); !slices.Equal(got, want) {
		t.Errorf("ControlFiles = %q, want %q", got, want)
	}
	if got := Find(t.TempDir()).ControlFiles(); len(got) != 0 {
		t.Errorf("an empty directory has control files %q", got)
	}
}

// TestFingerprintFollowsContent: any change to a control file's name or
// bytes, or a new one, changes the fingerprint; other files do not.
func TestFingerprintFollowsContent(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".cairn", "settings.json"), `{"approvalMode":"default"}`)
	p := Find(dir)
	base := fingerprint(p)
	if fingerprint(p) != base {
		t.Fatal("the fingerprint is not stable")
	}
	write(t, filepath.Join(dir, "main.go"), "package main")
	if fingerprint(p) != base {
		t.Error("an ordinary file changed the fingerprint")
	}
	write(t, filepath.Join(dir, ".cairn", "settings.json"), `{"approvalMode":"yolo"}`)
	changed := fingerprint(p)
	if changed == base {
		t.Error("changed settings kept the fingerprint")
	}
	write(t, filepath.Join(dir, "AGENTS.md"), "")
	if fingerprint(p) == changed {
		t.Error("a new, empty AGENTS.md kept the fingerprint")
	}
}

// TestStore: trust is remembered per directory, lost when control files
// change, and forgotten on request; a corrupt trust file trusts nothing
// and is not overwritten.
func TestStore(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".cairn", "approvals.json"), `{"version":1,"rules":[]}`)
	p := Find(dir)
	at := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	s := &Store{Path: filepath.Join(t.TempDir(), "cairn", "trusted.json"), Now: func() time.Time { return at }}
	check := func(want State) {
		t.Helper()
		got, err := s.Check(p, p.Scan())
		if err != nil || got != want {
			t.Fatalf("Check = %v, %v; want %v", got, err, want)
		}
	}
	check(Untrusted)
	if err := s.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	check(Trusted)
	data, _ := os.ReadFile(s.Path)
	if !strings.Contains(string(data), p.Dir) || !strings.Contains(string(data), "2026-11-25T04:00:00Z") {
		t.Errorf("trust file:\n%s", data)
	}
	if other := Find(t.TempDir()); func() State { st, _ := s.Check(other, other.Scan()); return st }() != Untrusted {
		t.Error("trust leaked to another directory")
	}
	write(t, filepath.Join(dir, ".cairn", "approvals.json"), `{"version":1,"rules":[{"tool":"bash","command":"rm"}]}`)
	check(Changed)
	if err := s.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	check(Trusted)
	if err := s.Forget(p); err != nil {
		t.Fatal(err)
	}
	check(Untrusted)

	write(t, s.Path, "{not json")
	if st, err := s.Check(p, p.Scan()); st != Untrusted || err == nil || !strings.Contains(err.Error(), "fix or delete") {
		t.Errorf("corrupt file: Check = %v, %v", st, err)
	}
	if err := s.Trust(p, p.Scan()); err == nil {
		t.Error("Trust overwrote a corrupt trust file")
	}
	if data, _ := os.ReadFile(s.Path); string(data) != "{not json" {
		t.Errorf("the corrupt file changed: %q", data)
	}
}

// TestLinkedCairnDir: a .cairn that is a symlink to another directory is
// fingerprinted by the files it leads to, so changing them lapses trust.
func TestLinkedCairnDir(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "elsewhere", "settings.json"), `{"approvalMode":"default"}`)
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, ".cairn")); err != nil {
		t.Fatal(err)
	}
	p := Find(dir)
	if got := p.ControlFiles(); !slices.Equal(got, []string{".cairn/settings.json"}) {
		t.Fatalf("ControlFiles = %q", got)
	}
	before := fingerprint(p)
	write(t, filepath.Join(dir, "elsewhere", "settings.json"), `{"approvalMode":"yolo"}`)
	if fingerprint(p) == before {
		t.Error("changing the linked settings kept the fingerprint")
	}
}

// TestFingerprintDoesNotReadPipes: a control file that is a named pipe (a
// cloned repository can hold one) is not opened, so cairn does not hang
// deciding whether to trust it.
func TestFingerprintDoesNotReadPipes(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "AGENTS.md"), 0o644); err != nil {
		t.Skipf("no fifo here: %v", err)
	}
	done := make(chan string, 1)
	go func() { done <- fingerprint(Find(dir)) }()
	select {
	case fp := <-done:
		if fp == "" {
			t.Error("empty fingerprint")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Fingerprint blocked on a named pipe")
	}
}
