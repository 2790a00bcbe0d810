package trust

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// sparse makes a file of size bytes that takes no room on disk.
func sparse(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func newStore(t *testing.T) *Store {
	return &Store{Path: filepath.Join(t.TempDir(), "trusted.json")}
}

func checkState(t *testing.T, s *Store, p Project) State {
	t.Helper()
	st, err := s.Check(p, p.Scan())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestLargeLinkHidesNothing: a link to a large file outside the project,
// sorted before the other control files, neither costs a read of that file
// nor hides later changes to the files after it.
func TestLargeLinkHidesNothing(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "large")
	sparse(t, outside, 40<<20)
	for _, changed := range []string{"AGENTS.md", ".mcp.json", ".cairn/settings.json", ".cairn/zz.md"} {
		t.Run(changed, func(t *testing.T) {
			dir := t.TempDir()
			symlink(t, outside, filepath.Join(dir, ".cairn", "00cache"))
			for _, f := range []string{"AGENTS.md", ".mcp.json", ".cairn/settings.json", ".cairn/zz.md"} {
				write(t, filepath.Join(dir, f), "{}")
			}
			p := Find(dir)
			s := newStore(t)
			if err := s.Trust(p, p.Scan()); err != nil {
				t.Fatal(err)
			}
			if st := checkState(t, s, p); st != Trusted {
				t.Fatalf("right after trust: %v", st)
			}
			write(t, filepath.Join(dir, changed), `{"approvalMode":"yolo"}`)
			if st := checkState(t, s, p); st != Changed {
				t.Errorf("after %s changed: %v, want %v", changed, st, Changed)
			}
		})
	}
}

// TestScanLinks: a control file that is a link is fingerprinted as the
// link when it leads out of the project, and by what it leads to when that
// is in the project; a link that leads nowhere changes the fingerprint once
// it leads somewhere.
func TestScanLinks(t *testing.T) {
	tests := []struct {
		name string
		// setup makes the project in dir, with other as a directory outside.
		setup func(t *testing.T, dir, other string)
		// change is done after trust.
		change func(t *testing.T, dir, other string)
		want   State
		// outside is the link the scan reports leaving the project.
		outside string
	}{
		{
			name: "outside: its content is not the project's",
			setup: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(other, "s.json"), "{}")
				symlink(t, filepath.Join(other, "s.json"), filepath.Join(dir, ".cairn", "settings.json"))
			},
			change:  func(t *testing.T, dir, other string) { write(t, filepath.Join(other, "s.json"), `{"x":1}`) },
			want:    Trusted,
			outside: ".cairn/settings.json",
		},
		{
			name: "outside: pointed elsewhere",
			setup: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(other, "a"), "{}")
				write(t, filepath.Join(other, "b"), "{}")
				symlink(t, filepath.Join(other, "a"), filepath.Join(dir, "AGENTS.md"))
			},
			change: func(t *testing.T, dir, other string) {
				os.Remove(filepath.Join(dir, "AGENTS.md"))
				symlink(t, filepath.Join(other, "b"), filepath.Join(dir, "AGENTS.md"))
			},
			want:    Changed,
			outside: "AGENTS.md",
		},
		{
			name: "outside through a chain: the far end moved",
			setup: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(other, "a"), "{}")
				write(t, filepath.Join(other, "b"), "{}")
				symlink(t, filepath.Join(other, "a"), filepath.Join(dir, "lib", "hop"))
				symlink(t, "../../lib/hop", filepath.Join(dir, ".cairn", "prompts", "x.md"))
			},
			change: func(t *testing.T, dir, other string) {
				os.Remove(filepath.Join(dir, "lib", "hop"))
				symlink(t, filepath.Join(other, "b"), filepath.Join(dir, "lib", "hop"))
			},
			want:    Changed,
			outside: ".cairn/prompts/x.md",
		},
		{
			name: "the .cairn directory itself leads out",
			setup: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(other, "settings.json"), "{}")
				symlink(t, other, filepath.Join(dir, ".cairn"))
			},
			change:  func(t *testing.T, dir, other string) { write(t, filepath.Join(other, "settings.json"), `{"x":1}`) },
			want:    Trusted,
			outside: ".cairn",
		},
		{
			name: "inside: its content counts",
			setup: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(dir, "docs", "rules.md"), "be careful")
				symlink(t, "../docs/rules.md", filepath.Join(dir, ".cairn", "SYSTEM.md"))
			},
			change: func(t *testing.T, dir, other string) { write(t, filepath.Join(dir, "docs", "rules.md"), "be bold") },
			want:   Changed,
		},
		{
			name: "inside, a directory: its files count",
			setup: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(dir, "shared", "prompts", "a.md"), "a")
				symlink(t, "../shared/prompts", filepath.Join(dir, ".cairn", "prompts"))
			},
			change: func(t *testing.T, dir, other string) { write(t, filepath.Join(dir, "shared", "prompts", "b.md"), "b") },
			want:   Changed,
		},
		{
			name: "dangling, then leading somewhere",
			setup: func(t *testing.T, dir, other string) {
				symlink(t, "../notes/s.json", filepath.Join(dir, ".cairn", "settings.json"))
			},
			change: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(dir, "notes", "s.json"), `{"approvalMode":"yolo"}`)
			},
			want: Changed,
		},
		{
			name: "a circle of links inside",
			setup: func(t *testing.T, dir, other string) {
				write(t, filepath.Join(dir, ".cairn", "settings.json"), "{}")
				symlink(t, ".", filepath.Join(dir, ".cairn", "loop"))
			},
			change: func(t *testing.T, dir, other string) {},
			want:   Trusted,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			tt.setup(t, dir, other)
			p := Find(dir)
			scan := scanBounded(t, p)
			var outside []string
			for _, f := range scan.Files {
				if f.Outside != "" {
					outside = append(outside, f.Path)
				}
			}
			if want := slices.DeleteFunc([]string{tt.outside}, func(s string) bool { return s == "" }); !slices.Equal(outside, want) {
				t.Errorf("links out of the project: %q, want %q", outside, want)
			}
			s := newStore(t)
			if err := s.Trust(p, scan); err != nil {
				t.Fatal(err)
			}
			tt.change(t, dir, other)
			if st := checkState(t, s, p); st != tt.want {
				t.Errorf("after the change: %v, want %v", st, tt.want)
			}
		})
	}
}

// scanBounded scans p, failing if that takes more than a few seconds.
func scanBounded(t *testing.T, p Project) Scan {
	t.Helper()
	done := make(chan Scan, 1)
	go func() { done <- p.Scan() }()
	select {
	case s := <-done:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("Scan did not finish")
		return Scan{}
	}
}

// TestUnsureAsksAgain: a project whose control files cannot all be
// fingerprinted whole is never trusted by an earlier answer, and the scan
// says which file is in doubt.
func TestUnsureAsksAgain(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		doubt string // the file in doubt; "" for TooMany
	}{
		{"a control file too large", func(t *testing.T, dir string) {
			sparse(t, filepath.Join(dir, "AGENTS.md"), maxFileBytes+1)
			write(t, filepath.Join(dir, ".mcp.json"), "{}")
		}, "AGENTS.md"},
		{"control files too large in all", func(t *testing.T, dir string) {
			for i := range maxBytes/maxFileBytes + 1 {
				sparse(t, filepath.Join(dir, ".cairn", fmt.Sprintf("f%d", i)), maxFileBytes)
			}
		}, fmt.Sprintf(".cairn/f%d", maxBytes/maxFileBytes)},
		{"too many control files", func(t *testing.T, dir string) {
			for i := range maxFiles + 1 {
				write(t, filepath.Join(dir, ".cairn", "prompts", fmt.Sprintf("%04d.md", i)), "x")
			}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			p := Find(dir)
			scan := scanBounded(t, p)
			if scan.Sure() {
				t.Fatal("the scan is sure")
			}
			var doubted []string
			for _, f := range scan.Files {
				if f.Doubt != "" {
					doubted = append(doubted, f.Path)
				}
			}
			if tt.doubt == "" && !scan.TooMany {
				t.Errorf("TooMany not set")
			}
			if tt.doubt != "" && !slices.Equal(doubted, []string{tt.doubt}) {
				t.Errorf("files in doubt: %q, want %q", doubted, tt.doubt)
			}
			s := newStore(t)
			if err := s.Trust(p, scan); err != nil {
				t.Fatal(err)
			}
			if st := checkState(t, s, p); st != Changed {
				t.Errorf("after trust, unchanged: %v, want %v", st, Changed)
			}
		})
	}
}

// TestUnreadableAsksAgain: a control file cairn cannot read could become
// readable without changing, so it leaves the scan unsure.
func TestUnreadableAsksAgain(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".cairn", "settings.json"), "{}")
	if err := os.Chmod(filepath.Join(dir, ".cairn", "settings.json"), 0); err != nil {
		t.Fatal(err)
	}
	if Find(dir).Scan().Sure() {
		t.Error("an unreadable settings file left the scan sure")
	}
}

// TestControlFileNamesIgnoreCase: every spelling of AGENTS.md, CLAUDE.md,
// .mcp.json and .cairn that cairn may read is a control file.
func TestControlFileNamesIgnoreCase(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"AGENTS.MD", "claude.md", ".MCP.json", ".Cairn/settings.json"} {
		write(t, filepath.Join(dir, f), "x")
	}
	if err := os.Mkdir(filepath.Join(dir, "AGENTS.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := []string{".Cairn/settings.json", ".MCP.json", "AGENTS.MD", "claude.md"}
	if got := Find(dir).ControlFiles(); !slices.Equal(got, want) {
		t.Errorf("ControlFiles = %q, want %q", got, want)
	}
}

// TestKeep: after cairn writes a control file for the person, trust is
// renewed for that file alone, and only while the others are as trusted.
func TestKeep(t *testing.T) {
	tests := []struct {
		name  string
		other func(t *testing.T, dir string) // a change besides cairn's own write
		want  State
	}{
		{"only cairn's write", func(*testing.T, string) {}, Trusted},
		{"AGENTS.md changed too", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "AGENTS.md"), "obey the repo") }, Changed},
		{"a new .mcp.json", func(t *testing.T, dir string) { write(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers":{}}`) }, Changed},
		{"a new .vscode/mcp.json", func(t *testing.T, dir string) { write(t, filepath.Join(dir, ".vscode", "mcp.json"), `{"servers":{}}`) }, Changed},
		{"a new .cursor/mcp.json", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, ".cursor", "mcp.json"), `{"mcpServers":{}}`)
		}, Changed},
		{"a new .zed/settings.json", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, ".zed", "settings.json"), `{"context_servers":{}}`)
		}, Changed},
		{"settings changed", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, ".cairn", "settings.json"), `{"approvalMode":"yolo"}`)
		}, Changed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "AGENTS.md"), "be careful")
			write(t, filepath.Join(dir, ".cairn", "settings.json"), "{}")
			p := Find(dir)
			trusted := p.Scan()
			s := newStore(t)
			if err := s.Trust(p, trusted); err != nil {
				t.Fatal(err)
			}
			tt.other(t, dir)
			write(t, filepath.Join(dir, ".cairn", "approvals.json"), `{"version":1,"rules":[{"tool":"bash","command":"make"}]}`)
			next, err := s.Keep(p, trusted, ".cairn/approvals.json")
			if (err == nil) != (tt.want == Trusted) || (err != nil && !errors.Is(err, ErrNotKept)) {
				t.Fatalf("Keep: %v", err)
			}
			if st := checkState(t, s, p); st != tt.want {
				t.Errorf("after Keep: %v, want %v", st, tt.want)
			}
			if tt.want == Trusted && !slices.Contains(next.Paths(), ".cairn/approvals.json") {
				t.Errorf("the scan Keep returned lacks the rules file: %q", next.Paths())
			}
		})
	}
}

// TestOutdatedEntry: an entry written before control files had
// fingerprints of their own asks once more.
func TestOutdatedEntry(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "AGENTS.md"), "x")
	p := Find(dir)
	s := newStore(t)
	write(t, s.Path, fmt.Sprintf(`{"version":1,"projects":{%q:{"fingerprint":"sha256:00","trustedAt":"2026-01-01T00:00:00Z"}}}`, p.Dir))
	if st := checkState(t, s, p); st != Outdated {
		t.Errorf("old entry: %v, want %v", st, Outdated)
	}
	if err := s.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	if st := checkState(t, s, p); st != Trusted {
		t.Errorf("trusted again: %v", st)
	}
}

// TestOtherAgentTreesAreControlFiles: another agent's project skills and
// agent definitions, which cairn reads, and pi's project extensions, which
// it runs, need trust like .cairn/; the rest of those agents' directories
// does not.
func TestOtherAgentTreesAreControlFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{".claude/skills/x/SKILL.md", ".claude/agents/a.md", ".pi/skills/y/SKILL.md",
		".agents/skills/z/SKILL.md", ".claude/settings.json", ".pi/settings.json", ".pi/extensions/gate.ts"} {
		write(t, filepath.Join(dir, f), "x")
	}
	want := []string{".agents/skills/z/SKILL.md", ".claude/agents/a.md", ".claude/skills/x/SKILL.md", ".pi/extensions/gate.ts", ".pi/skills/y/SKILL.md"}
	if got := Find(dir).ControlFiles(); !slices.Equal(got, want) {
		t.Errorf("ControlFiles = %q, want %q", got, want)
	}
	s := newStore(t)
	p := Find(dir)
	if err := s.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ".pi/skills/y/SKILL.md"), "changed")
	if st := checkState(t, s, p); st != Changed {
		t.Errorf("after a skill changed: %v, want changed", st)
	}
	if err := s.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ".pi/extensions/gate.ts"), "export default () => {}")
	if st := checkState(t, s, p); st != Changed {
		t.Errorf("after a pi extension changed: %v, want changed", st)
	}
}
