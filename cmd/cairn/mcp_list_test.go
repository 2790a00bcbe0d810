package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/toolset"
)

// mcpServersDir holds the npm MCP servers, resolved before tests change
// directory.
var mcpServersDir, _ = filepath.Abs("../../core/mcp/testdata/servers")

// everythingServer returns an mcpServers entry running
// @modelcontextprotocol/server-everything over stdio, skipping the test
// when node or the package is missing (failing under CI).
func everythingServer(t testing.TB) map[string]any {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("node is not installed")
	}
	script := filepath.Join(mcpServersDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		skip("%s is missing: run npm ci --prefix core/mcp/testdata/servers --ignore-scripts --no-audit --no-fund", script)
	}
	return map[string]any{"command": node, "args": []string{script, "stdio"}}
}

func writeMCPConfig(t testing.TB, path string, servers map[string]any) {
	t.Helper()
	data, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMCPListShowsToolsFailuresAndConfigErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	home := t.TempDir()
	writeMCPConfig(t, filepath.Join(home, "mcp.json"), map[string]any{
		"everything": everythingServer(t),
		"broken":     map[string]any{"command": "sh", "args": []string{"-c", "echo 'fatal: no API token' >&2; exit 1"}},
		"secret":     map[string]any{"url": "https://example.com/mcp", "headers": map[string]string{"Authorization": "Bearer ${MCP_TEST_UNSET}"}},
		"off":        map[string]any{"command": "false", "enabled": false},
	})
	r := invoke(t, map[string]string{"CAIRN_DIR": home}, nil, "mcp", "list")
	if r.code != exitFailure {
		t.Errorf("exit %d, want 1 (a broken server and an invalid entry)", r.code)
	}
	for _, want := range []string{
		`server "secret": headers.Authorization: environment variable MCP_TEST_UNSET is not set`,
		"everything  ready  stdio ",
		"  mcp__everything__echo  [read-only]  ",
		"  mcp__everything__get-tiny-image  ",
		"  /mcp__everything__args-prompt <city> [state]  [prompt]  A prompt with two arguments",
		"broken  failed  stdio sh -c ",
		"fatal: no API token",
		"off  disabled",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "mcp", "logs", "broken.log")); err != nil {
		t.Errorf("no stderr log: %v", err)
	}
}

func TestMCPListUsage(t *testing.T) {
	if r := invoke(t, nil, nil, "mcp"); r.code != exitUsage || !strings.Contains(r.stderr, "usage: cairn mcp list") {
		t.Errorf("%+v", r)
	}
	t.Chdir(t.TempDir())
	if r := invoke(t, nil, nil, "mcp", "list"); r.code != exitOK || !strings.Contains(r.stdout, "No MCP servers configured") {
		t.Errorf("%+v", r)
	}
}

// A project's .mcp.json runs commands: cairn starts its servers only in a
// trusted project, and again only after a changed file is trusted anew
// (project trust fingerprints it).
func TestProjectMCPFileNeedsTrust(t *testing.T) {
	project := t.TempDir()
	t.Chdir(project)
	home := t.TempDir()
	vars := map[string]string{"CAIRN_DIR": home}
	writeMCPConfig(t, filepath.Join(project, ".mcp.json"), map[string]any{"everything": everythingServer(t)})

	r := invoke(t, vars, nil, "mcp", "list")
	if strings.Contains(r.stdout, "everything") || !strings.Contains(r.stderr, "the project is not trusted") {
		t.Fatalf("an untrusted .mcp.json was used: %+v", r)
	}
	r = invoke(t, vars, nil, "mcp", "list", "--trust-project")
	if r.code != exitOK || !strings.Contains(r.stdout, "everything  ready") {
		t.Fatalf("a trusted .mcp.json was not used: %+v", r)
	}
	r = invoke(t, vars, nil, "mcp", "list")
	if r.code != exitOK || !strings.Contains(r.stdout, "everything  ready") {
		t.Fatalf("the trust was not remembered: %+v", r)
	}
	writeMCPConfig(t, filepath.Join(project, ".mcp.json"), map[string]any{"everything": everythingServer(t), "other": map[string]any{"command": "true"}})
	r = invoke(t, vars, nil, "mcp", "list")
	if strings.Contains(r.stdout, "everything") || !strings.Contains(r.stderr, "changed since you trusted it") {
		t.Fatalf("a changed .mcp.json was used: %+v", r)
	}
}

// An untrusted project's .cairn/mcp.json is ignored; --no-mcp starts
// nothing at all.
func TestUntrustedProjectMCPAndNoMCP(t *testing.T) {
	project := t.TempDir()
	t.Chdir(project)
	home := t.TempDir()
	writeMCPConfig(t, filepath.Join(project, ".cairn", "mcp.json"), map[string]any{"proj": map[string]any{"command": "true"}})
	writeMCPConfig(t, filepath.Join(home, "mcp.json"), map[string]any{"mine": map[string]any{"command": "true"}})
	env := newEnvironment(func(k string) string { return map[string]string{"CAIRN_DIR": home}[k] })
	opts := &Options{}
	var errb strings.Builder
	trusted := projectTrustFor(IOStreams{Err: &errb}, env, opts, project, nil)
	cfg, notes, err := loadMCPConfig(env, trusted)
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Name != "mine" || len(notes) != 1 || !strings.Contains(notes[0], "not trusted") {
		t.Fatalf("servers %+v, notes %q, err %v", cfg.Servers, notes, err)
	}
	registry := toolset.Static(nil)
	run := startMCP(IOStreams{Err: &errb}, env, &Options{NoMCP: true}, trusted, registry, false)
	if run.manager != nil || len(registry.Tools()) != 0 {
		t.Fatalf("--no-mcp started %+v", run)
	}
}

// A session of a fresh cairn directory (nothing cached) starts the
// servers in the background, waits for them before the first request, and
// a call, direct or through mcp_call, goes through the approval gate with
// the server's hints in the question, then reaches the server.
func TestSessionCallsAnMCPToolAfterApproval(t *testing.T) {
	t.Run("direct", func(t *testing.T) {
		testSessionMCPCall(t, `{"type": "toolCall", "id": "c1", "name": "mcp__everything__echo", "arguments": {"message": "through cairn"}}`)
	})
	t.Run("through mcp_call", func(t *testing.T) {
		testSessionMCPCall(t, `{"type": "toolCall", "id": "c1", "name": "mcp_call", "arguments": {"tool": "mcp__everything__echo", "arguments": {"message": "through cairn"}}}`)
	})
}

func testSessionMCPCall(t *testing.T, toolCall string) {
	t.Chdir(t.TempDir())
	home := t.TempDir()
	writeMCPConfig(t, filepath.Join(home, "mcp.json"), map[string]any{"everything": everythingServer(t)})
	vars := map[string]string{"CAIRN_DIR": home}
	script := writeScript(t, `{"responses": [
	  {"content": [`+toolCall+`]},
	  {"text": "Done."}
	]}`)
	vars["CAIRN_FAUX_SCRIPT"] = script
	env := newEnvironment(func(k string) string { return vars[k] })
	var errb strings.Builder
	a, err := buildApp(IOStreams{Err: &errb}, env, &Options{Provider: "faux", NoSession: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	events, stop := a.session.Subscribe()
	defer stop()
	if err := a.session.Prompt("go", nil, agent.BehaviorNone); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(60 * time.Second)
	var result *core.ToolExecutionEnd
	for result == nil {
		select {
		case ev := <-events:
			switch ev := ev.(type) {
			case core.Question:
				if ev.Purpose != core.PurposeApproval || !strings.Contains(ev.Message, "read-only") || !strings.Contains(ev.Title, "mcp__everything__echo") {
					t.Fatalf("question %+v", ev)
				}
				if err := a.session.Answer(ev.ID, core.Answer{Value: ev.Options[0].Value}); err != nil {
					t.Fatal(err)
				}
			case core.ToolExecutionEnd:
				result = &ev
			}
		case <-timeout:
			t.Fatalf("no tool result; stderr %s", errb.String())
		}
	}
	if result.Result.IsError || !strings.Contains(result.Result.Content[0].Text, "through cairn") {
		t.Fatalf("result %+v", result.Result)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.session.Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestRPCExpandsMCPPrompt: in rpc mode, a prompt naming a prompt of
// server-everything waits for the server and sends what it returns; one
// missing a required argument is refused. The host waits for each answer
// before the next command, as stdin's end stops what is running (as pi
// does).
func TestRPCExpandsMCPPrompt(t *testing.T) {
	t.Chdir(t.TempDir())
	home := t.TempDir()
	writeMCPConfig(t, filepath.Join(home, "mcp.json"), map[string]any{"everything": everythingServer(t)})
	c, _ := startBridgeChild(t, home, writeScript(t, `{"responses": [{"text": "Sunny."}]}`),
		"--mode", "rpc", "--no-session", "--provider", "faux")
	c.send(`{"id":"p","type":"prompt","message":"/mcp__everything__args-prompt Boston state=MA"}`)
	var seen []string
	for {
		f := c.next(30 * time.Second)
		line, _ := json.Marshal(f)
		seen = append(seen, string(line))
		if f.str("type") == "agent_settled" {
			break
		}
	}
	if all := strings.Join(seen, "\n"); !strings.Contains(all, `"text":"What's weather in Boston, MA?"`) || !strings.Contains(all, "Sunny.") {
		t.Errorf("the prompt's expansion did not reach the model:\n%s", all)
	}
	c.send(`{"id":"q","type":"prompt","message":"/mcp__everything__args-prompt"}`)
	if _, r := c.until("prompt", "q"); r["success"] != false || !strings.Contains(r.str("error"), `missing required argument "city"`) {
		t.Errorf("a prompt without its required argument: %v", r)
	}
}

// TestPrintExpandsMCPPrompt: `cairn -p /mcp__<server>__<prompt> args`
// sends the prompt the server returns; a missing argument is a usage error.
func TestPrintExpandsMCPPrompt(t *testing.T) {
	t.Chdir(t.TempDir())
	home := t.TempDir()
	writeMCPConfig(t, filepath.Join(home, "mcp.json"), map[string]any{"everything": everythingServer(t)})
	vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "Sunny."}]}`)}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "-p", "/mcp__everything__args-prompt Paris")
	if r.code != exitOK || !strings.Contains(r.stdout, `"text":"What's weather in Paris?"`) {
		t.Errorf("exit %d\nstdout %.2000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = invoke(t, vars, nil, "--no-session", "--provider", "faux", "-p", "/mcp__everything__args-prompt")
	if r.code != exitUsage || !strings.Contains(r.stderr, `missing required argument "city"`) {
		t.Errorf("missing argument: exit %d, stderr %s", r.code, r.stderr)
	}
}

// Other clients' files: the person's ~/.claude.json is read always; a
// project's .vscode/mcp.json (JSONC), .cursor/mcp.json and
// .zed/settings.json only once the project is trusted; a server named in
// several files is the one of the file read last (cairn's own files win
// over other clients', the project's over the person's).
func TestOtherClientsMCPFiles(t *testing.T) {
	project, home, cairnDir := t.TempDir(), t.TempDir(), t.TempDir()
	t.Chdir(project)
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {"mine": {"command": "from-claude"}, "both": {"command": "from-claude"}},
		"projects": {"`+project+`": {"mcpServers": {"local": {"command": "local-cmd"}}}}}`)
	writeMCPConfig(t, filepath.Join(cairnDir, "mcp.json"), map[string]any{"both": map[string]any{"command": "from-cairn"}})
	writeFile(t, filepath.Join(project, ".vscode", "mcp.json"), `{
		// VS Code's servers key, with comments and a trailing comma
		"servers": {"vs": {"type": "stdio", "command": "vs-cmd"}, "shared": {"command": "from-vscode"},},
	}`)
	writeFile(t, filepath.Join(project, ".cursor", "mcp.json"), `{"mcpServers": {"cur": {"command": "cursor-cmd"}}}`)
	writeFile(t, filepath.Join(project, ".zed", "settings.json"), `{"context_servers": {"zed": {"command": "zed-cmd", "args": []}}}`)
	writeMCPConfig(t, filepath.Join(project, ".mcp.json"), map[string]any{"shared": map[string]any{"command": "from-mcp-json"}})
	env := newEnvironment(func(k string) string { return map[string]string{"CAIRN_DIR": cairnDir, "HOME": home}[k] })
	load := func(opts *Options) map[string]string {
		var errb strings.Builder
		cfg, _, err := loadMCPConfig(env, projectTrustFor(IOStreams{Err: &errb}, env, opts, project, nil))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, s := range cfg.Servers {
			got[s.Name] = s.Command
		}
		return got
	}
	if got := load(&Options{}); len(got) != 3 || got["mine"] != "from-claude" || got["local"] != "local-cmd" || got["both"] != "from-cairn" {
		t.Errorf("untrusted: %v", got)
	}
	got := load(&Options{TrustProject: true})
	want := map[string]string{"mine": "from-claude", "local": "local-cmd", "both": "from-cairn", "vs": "vs-cmd", "cur": "cursor-cmd", "zed": "zed-cmd", "shared": "from-mcp-json"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("trusted: %v\nwant %v", got, want)
	}
}
