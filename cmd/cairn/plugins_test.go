package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/mcp/mcptest"
)

// A plugin installed with cairn plugin install is listed, its hooks run
// with CLAUDE_PLUGIN_ROOT (a SessionStart hook shaped after
// obra/superpowers', run through a script in the plugin), and its MCP
// server runs named after the plugin; cairn plugin remove takes it away.
func TestPluginInstallListRunRemove(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{})
	src := t.TempDir()
	writeFile(t, filepath.Join(src, ".claude-plugin", "plugin.json"), `{"name": "demo", "version": "1.0.0"}`)
	writeFile(t, filepath.Join(src, "hooks", "hooks.json"), `{"hooks": {"SessionStart": [{"matcher": "startup|clear|compact",
		"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/hooks/start\"", "shell": "bash", "async": false}]}]}}`)
	writeFile(t, filepath.Join(src, "hooks", "start"), "#!/bin/bash\necho ran > \"$CLAUDE_PROJECT_DIR/started-by-$(basename \"$CLAUDE_PLUGIN_ROOT\")\"\n")
	if err := os.Chmod(filepath.Join(src, "hooks", "start"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "commands", "review.md"), "---\ndescription: Review the change\n---\nReview the staged diff carefully.\n")
	writeFile(t, filepath.Join(src, "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: Tidy a file\n---\nTidy it.\n")
	writeFile(t, filepath.Join(src, "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews a change\ntools: Read, Grep\n---\nReview it.\n")
	writeFile(t, filepath.Join(src, ".mcp.json"), `{"mcpServers": {"echo": {"url": "`+g.URL+`/mcp"}}}`)
	project := t.TempDir()
	t.Chdir(project)
	vars := map[string]string{"CAIRN_DIR": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "ok"}]}`)}

	r := invoke(t, vars, nil, "plugin", "install", src)
	if r.code != exitOK || !strings.Contains(r.stdout, "installed demo 1.0.0") {
		t.Fatalf("install: %+v", r)
	}
	if r = invoke(t, vars, nil, "plugin", "list"); !strings.Contains(r.stdout, "demo 1.0.0  from cairn") {
		t.Fatalf("list: %+v", r)
	}
	if r = invoke(t, vars, nil, "--provider", "faux", "--no-session", "-p", "go"); r.code != exitOK {
		t.Fatalf("run: %+v", r)
	}
	// Its command is /demo:review, as Claude Code names it.
	if r = invoke(t, vars, nil, "--provider", "faux", "--no-session", "--mode", "json", "-p", "/demo:review"); !strings.Contains(r.stdout, "Review the staged diff carefully.") {
		t.Errorf("/demo:review: %.3000s\n%s", r.stdout, r.stderr)
	}
	if r = invoke(t, vars, nil, "skills"); !strings.Contains(r.stdout, "tidy") {
		t.Errorf("skills: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, "started-by-demo")); err != nil {
		t.Errorf("the plugin's SessionStart hook did not run: %v", err)
	}
	// Its agent is demo:reviewer, as Claude Code names it.
	plugins, _ := installedPlugins(newEnvironment(func(k string) string { return vars[k] }), project, false)
	defs, problems := pluginAgents(plugins)
	if len(problems) > 0 || len(defs) != 1 || defs[0].Name != "demo:reviewer" {
		t.Errorf("agents %+v, problems %v", defs, problems)
	}
	if r = invoke(t, vars, nil, "mcp", "list"); !strings.Contains(r.stdout, "plugin_demo_echo") || !strings.Contains(r.stdout, "ready") {
		t.Errorf("mcp list: %+v", r)
	}
	if r = invoke(t, vars, nil, "plugin", "remove", "demo"); r.code != exitOK {
		t.Fatalf("remove: %+v", r)
	}
	if r = invoke(t, vars, nil, "plugin", "list"); !strings.Contains(r.stdout, "no plugins installed") {
		t.Errorf("after remove: %+v", r)
	}
	if r = invoke(t, vars, nil, "plugin", "frobnicate"); r.code != exitUsage {
		t.Errorf("an unknown subcommand: %+v", r)
	}
}
