package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startRPC runs `cairn --provider faux --mode rpc --no-session <args>` in
// process, in a fresh working directory, playing script; it returns the
// connection and the working directory.
func startRPC(t *testing.T, script string, args ...string) (*synapsConn, string) {
	t.Helper()
	cwd := t.TempDir()
	t.Chdir(cwd)
	c, _ := startBridgeChild(t, t.TempDir(), writeScript(t, script),
		append([]string{"--provider", "faux", "--mode", "rpc", "--no-session"}, args...)...)
	return c, cwd
}

// untilFrame returns the next frame of type kind, failing the test when a
// frame stop names arrives first.
func (c *synapsConn) untilFrame(kind, stop string) synapsFrame {
	c.t.Helper()
	for {
		f := c.next(15 * time.Second)
		switch f.str("type") {
		case kind:
			return f
		case stop:
			c.t.Fatalf("%s before %s: %v", stop, kind, f)
		}
	}
}

// touchScript has the model run `touch made-by-bash`, then answer.
const touchScript = `{"responses": [
  {"content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "touch made-by-bash"}}]},
  {"text": "Done."}
]}`

// TestRPCModeRunsToolsWithoutAskingLikePi: a pi host starts cairn as it
// starts pi, with no approval flag, and never answers questions; the
// model's command runs unasked, as in pi, and get_state says "auto".
func TestRPCModeRunsToolsWithoutAskingLikePi(t *testing.T) {
	c, cwd := startRPC(t, touchScript)
	c.send(`{"id":"p","type":"prompt","message":"go"}`)
	end := c.untilFrame("tool_execution_end", "extension_ui_request")
	if end["isError"] != false {
		t.Fatalf("the command did not run: %v", end)
	}
	c.untilFrame("agent_settled", "extension_ui_request")
	if _, err := os.Stat(filepath.Join(cwd, "made-by-bash")); err != nil {
		t.Errorf("the command did not run: %v", err)
	}
	c.send(`{"id":"s","type":"get_state"}`)
	if _, st := c.until("get_state", "s"); st["data"].(map[string]any)["approvalMode"] != "auto" {
		t.Errorf("get_state: %v", st)
	}
}

// TestRPCModeApprovalsAreOptInAndTimeOut: with --approval default the host
// is asked, and the question says when it times out (then the call is
// denied), so a host that does not answer is never kept waiting for ever.
func TestRPCModeApprovalsAreOptInAndTimeOut(t *testing.T) {
	c, cwd := startRPC(t, touchScript, "--approval", "default")
	c.send(`{"id":"p","type":"prompt","message":"go"}`)
	q := c.untilFrame("extension_ui_request", "agent_settled")
	if q.str("method") != "select" || q["timeout"] != json.Number("60000") && q["timeout"] != float64(60000) {
		t.Fatalf("approval question without its 60 s timeout: %v", q)
	}
	c.send(`{"type":"extension_ui_response","id":"` + q.str("id") + `","cancelled":true}`)
	if end := c.untilFrame("tool_execution_end", "agent_settled"); end["isError"] != true {
		t.Errorf("a dismissed question ran the call: %v", end)
	}
	c.untilFrame("agent_settled", "")
	if _, err := os.Stat(filepath.Join(cwd, "made-by-bash")); err == nil {
		t.Error("the command ran without approval")
	}
}

// TestRPCSessionFileFromTheStart: get_state names the session file from
// the start, as pi 0.87.1 does, though it is written only with the first
// answer; with --no-session there is none, and get_entries answers from
// memory, beginning with the model and thinking level as a file does.
func TestRPCSessionFileFromTheStart(t *testing.T) {
	t.Chdir(t.TempDir())
	stdin := `{"id":"s","type":"get_state"}` + "\n" + `{"id":"e","type":"get_entries"}` + "\n"
	r := invoke(t, textScript(t), &stdin, "--provider", "faux", "--mode", "rpc")
	if !strings.Contains(r.stdout, `"sessionFile":"`) || !strings.Contains(r.stdout, `.jsonl"`) {
		t.Errorf("get_state before the first answer has no sessionFile:\n%s", r.stdout)
	}
	r = invoke(t, textScript(t), &stdin, "--provider", "faux", "--mode", "rpc", "--no-session")
	if strings.Contains(r.stdout, `"sessionFile"`) {
		t.Errorf("--no-session has a sessionFile:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, `"command":"get_entries","success":true,"data":{"entries":[{"type":"model_change"`) {
		t.Errorf("get_entries with --no-session:\n%s", r.stdout)
	}
}
