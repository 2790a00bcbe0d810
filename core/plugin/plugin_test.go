package plugin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// superpowersLike lays out a plugin shaped after obra/superpowers (MIT):
// .claude-plugin/plugin.json with name, version, author and keywords, a
// hooks/hooks.json, skills/, and a marketplace.json listing the plugin
// itself with source "./".
func superpowersLike(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write(t, ManifestFile(root), `{"name": "superpowers", "description": "Core skills library", "version": "6.2.0",
		"author": {"name": "A", "email": "a@example.com"}, "license": "MIT", "keywords": ["skills", "tdd"]}`)
	write(t, MarketplaceFile(root), `{"name": "superpowers-dev", "owner": {"name": "A"},
		"plugins": [{"name": "superpowers", "version": "6.2.0", "source": "./"}]}`)
	write(t, filepath.Join(root, "hooks", "hooks.json"), `{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}]}}`)
	write(t, filepath.Join(root, "skills", "brainstorming", "SKILL.md"), "---\nname: brainstorming\ndescription: d\n---\n")
	return root
}

func TestReadManifest(t *testing.T) {
	root := superpowersLike(t)
	p, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "superpowers" || p.Version != "6.2.0" || len(p.Warnings) != 0 || p.HooksFiles()[0] != filepath.Join(root, "hooks", "hooks.json") {
		t.Errorf("%+v", p)
	}
	// Without a manifest the directory names the plugin, as in Claude Code.
	bare := filepath.Join(t.TempDir(), "bare-plugin")
	write(t, filepath.Join(bare, "commands", "x.md"), "x")
	if p, err := Read(bare); err != nil || p.Name != "bare-plugin" {
		t.Errorf("bare: %+v %v", p, err)
	}
	write(t, ManifestFile(bare), `{"name": "../evil"}`)
	if _, err := Read(bare); err == nil {
		t.Error("a name with a path in it was accepted")
	}
}

func TestInstallListRemove(t *testing.T) {
	ctx := context.Background()
	cairn := t.TempDir()
	p, _, err := Install(ctx, superpowersLike(t), cairn)
	if err != nil {
		t.Fatal(err)
	}
	if p.Root != filepath.Join(cairn, "plugins", "superpowers") {
		t.Errorf("root %s", p.Root)
	}
	if _, err := os.Stat(filepath.Join(p.Root, "skills", "brainstorming", "SKILL.md")); err != nil {
		t.Error(err)
	}
	if _, _, err := Install(ctx, superpowersLike(t), cairn); err == nil || !strings.Contains(err.Error(), "installed already") {
		t.Errorf("a second install: %v", err)
	}
	got, warnings := Installed(Dirs{Cairn: cairn})
	if len(got) != 1 || got[0].Name != "superpowers" || len(warnings) != 0 {
		t.Errorf("installed %+v %v", got, warnings)
	}
	if err := Remove("superpowers", cairn); err != nil {
		t.Fatal(err)
	}
	if got, _ := Installed(Dirs{Cairn: cairn}); len(got) != 0 {
		t.Errorf("after remove: %+v", got)
	}
	if err := Remove("../x", cairn); err == nil {
		t.Error("a path was removed")
	}
}

func TestInstallFromGit(t *testing.T) {
	src := superpowersLike(t)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	cairn := t.TempDir()
	p, _, err := Install(context.Background(), "file://"+src, cairn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p.Root, ".git")); err == nil {
		t.Error(".git was copied")
	}
	if _, err := os.Stat(filepath.Join(p.Root, "hooks", "hooks.json")); err != nil {
		t.Error(err)
	}
}

// A marketplace of several plugins (shaped after anthropics/claude-code's
// .claude-plugin/marketplace.json: relative sources under ./plugins) is
// refused, naming each plugin's directory.
func TestInstallRefusesAMarketplaceOfSeveral(t *testing.T) {
	root := t.TempDir()
	write(t, MarketplaceFile(root), `{"name": "claude-code-plugins", "owner": {"name": "A"}, "plugins": [
		{"name": "code-review", "source": "./plugins/code-review", "category": "productivity"},
		{"name": "security-guidance", "source": "./plugins/security-guidance"}]}`)
	_, _, err := Install(context.Background(), root, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "marketplace of 2 plugins") || !strings.Contains(err.Error(), filepath.Join(root, "plugins", "code-review")) {
		t.Errorf("%v", err)
	}
}

// Claude Code's registry (installed_plugins.json version 2, entries per
// scope, enabled in settings.json's enabledPlugins): enabled user plugins
// load; disabled ones do not, whatever a project says; a project plugin,
// enabled in the project's settings, only in its trusted project; cairn's
// own plugin of the same name wins.
func TestInstalledFromClaudeCode(t *testing.T) {
	claude, project := t.TempDir(), t.TempDir()
	a, b, c := superpowersLike(t), t.TempDir(), t.TempDir()
	write(t, ManifestFile(b), `{"name": "off"}`)
	write(t, ManifestFile(c), `{"name": "proj"}`)
	write(t, filepath.Join(claude, "plugins", "installed_plugins.json"), `{"version": 2, "plugins": {
		"superpowers@superpowers-dev": [{"scope": "user", "installPath": "`+a+`", "version": "6.2.0", "installedAt": "2026-01-01T00:00:00Z", "lastUpdated": "2026-01-01T00:00:00Z", "gitCommitSha": "abc"}],
		"off@m": [{"scope": "user", "installPath": "`+b+`", "version": "1"}],
		"proj@m": [{"scope": "project", "installPath": "`+c+`", "version": "1", "projectPath": "`+project+`"}]}}`)
	write(t, filepath.Join(claude, "settings.json"), `{"enabledPlugins": {"superpowers@superpowers-dev": true, "off@m": false}}`)
	// Claude Code enables a project's plugin in the project's settings.
	write(t, filepath.Join(project, ".claude", "settings.json"), `{"enabledPlugins": {"proj@m": true, "off@m": true}}`)
	names := func(d Dirs) string {
		ps, _ := Installed(d)
		var n []string
		for _, p := range ps {
			n = append(n, p.Name+":"+p.From)
		}
		return strings.Join(n, " ")
	}
	if got := names(Dirs{Claude: claude, Project: project}); got != "superpowers:claude" {
		t.Errorf("untrusted project: %s", got)
	}
	if got := names(Dirs{Claude: claude, Project: project, ProjectTrusted: true}); got != "proj:claude superpowers:claude" {
		t.Errorf("trusted project: %s", got)
	}
	cairn := t.TempDir()
	if _, _, err := Install(context.Background(), superpowersLike(t), cairn); err != nil {
		t.Fatal(err)
	}
	if got := names(Dirs{Claude: claude, Cairn: cairn}); got != "superpowers:cairn" {
		t.Errorf("cairn's should win: %s", got)
	}
}

func TestMCPServerName(t *testing.T) {
	if got := MCPServerName("my.plugin", "db"); got != "plugin_my_plugin_db" {
		t.Errorf("%s", got)
	}
}

// FuzzManifest: any plugin.json reads without panicking, and a plugin it
// accepts has a usable name and component files inside its directory.
func FuzzManifest(f *testing.F) {
	f.Add(`{"name": "superpowers", "version": "6.2.0", "hooks": "./extra/hooks.json", "mcpServers": ["./a.json", "../out.json"]}`)
	f.Add(`{"name": "x", "hooks": {"SessionStart": []}, "commands": ["./c"]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, text string) {
		root := t.TempDir()
		write(t, ManifestFile(root), text)
		p, err := Read(root)
		if err != nil {
			return
		}
		if !validName().MatchString(p.Name) {
			t.Fatalf("name %q", p.Name)
		}
		for _, file := range append(p.HooksFiles(), p.MCPFiles()...) {
			if rel, err := filepath.Rel(root, file); err != nil || strings.HasPrefix(rel, "..") {
				t.Fatalf("%s is outside the plugin", file)
			}
		}
	})
}
