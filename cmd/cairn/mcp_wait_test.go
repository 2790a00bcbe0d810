package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/mcp/mcptest"
)

// slowStart is how long the slow server takes to start: 3 s, the case
// the issue names, unless CAIRN_TEST_MCP_DELAY_MS says otherwise (a
// shorter delay tests the same path faster).
func slowStart(t *testing.T) time.Duration {
	t.Helper()
	if v := os.Getenv("CAIRN_TEST_MCP_DELAY_MS"); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("CAIRN_TEST_MCP_DELAY_MS=%q: %v", v, err)
		}
		return time.Duration(ms) * time.Millisecond
	}
	return 3 * time.Second
}

// mcpHome is a fresh cairn directory whose mcp.json has the servers, and
// a working directory of its own.
func mcpHome(t *testing.T, servers map[string]any) map[string]string {
	t.Helper()
	t.Chdir(t.TempDir())
	home := t.TempDir()
	writeMCPConfig(t, filepath.Join(home, "mcp.json"), servers)
	return map[string]string{"CAIRN_DIR": home}
}

// A server that takes 3 s to start: -p waits for it and calls its tool,
// on every run (each run a new connection, each as slow).
func TestPrintCallsTheToolOfASlowServer(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Delay: slowStart(t)})
	vars := mcpHome(t, map[string]any{"slow": map[string]any{"url": g.URL + "/mcp"}})
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "mcp__slow__echo", "arguments": {"text": "first run"}}]},
	  {"text": "Done."}
	]}`)
	for run := range 5 {
		r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "go")
		if r.code != exitOK || !strings.Contains(r.stdout, `"text":"echo: first run"`) ||
			!strings.Contains(r.stderr, `cairn: waiting up to 10s for MCP server still starting: "slow"`) {
			t.Fatalf("run %d: exit %d\nstdout %.3000s\nstderr %s", run+1, r.code, r.stdout, r.stderr)
		}
	}
}

// A server that never starts: -p answers without it once the limit
// (CAIRN_MCP_STARTUP_MS) has passed, and says on stderr what it waited
// for and gave up on.
func TestPrintGivesUpOnAServerThatNeverStarts(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	vars := mcpHome(t, map[string]any{"never": map[string]any{"url": g.URL + "/mcp"}})
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [{"text": "Answered without it."}]}`)
	vars["CAIRN_MCP_STARTUP_MS"] = "300"
	r := invoke(t, vars, nil, "--no-session", "--provider", "faux", "-p", "go")
	if r.code != exitOK || strings.TrimSpace(r.stdout) != "Answered without it." ||
		!strings.Contains(r.stderr, `cairn: waiting up to 300ms for MCP server still starting: "never"`) ||
		!strings.Contains(r.stderr, `cairn: gave up waiting for MCP server after 300ms: "never"`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	// 0: no wait at all, and it says so.
	vars["CAIRN_MCP_STARTUP_MS"] = "0"
	r = invoke(t, vars, nil, "--no-session", "--provider", "faux", "-p", "go")
	if r.code != exitOK || !strings.Contains(r.stderr, `not waiting for MCP server still starting ("never"; the startup wait is 0)`) {
		t.Fatalf("no wait: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// The refusal of an MCP call in -p names what would allow it.
func TestPrintRefusalOfAnMCPCallNamesWhatAllowsIt(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{})
	vars := mcpHome(t, map[string]any{"g": map[string]any{"url": g.URL + "/mcp"}})
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "mcp__g__echo", "arguments": {"text": "x"}}]},
	  {"text": "Done."}
	]}`)
	r := invoke(t, vars, nil, "--no-session", "--provider", "faux", "--approval", "auto_edit", "-p", "go")
	if r.code != exitOK || !strings.Contains(r.stderr, "cairn: refused mcp__g__echo") || !strings.Contains(r.stderr, "--approval yolo") ||
		!strings.Contains(r.stderr, `{"tool": "mcp__g__*"}`) || strings.Contains(r.stderr, "--approval auto_edit") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
