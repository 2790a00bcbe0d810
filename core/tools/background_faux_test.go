//go:build unix

package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/shell/shelltest"
	"github.com/cairn-dev/cairn/core/tools"
)

const fauxWait = 20 * time.Second

// freePort returns a TCP port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// lastResult is the newest tool result of a request.
func lastResult(req *provider.Request) (*core.ToolResultMessage, string) {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if r, ok := req.Messages[i].(*core.ToolResultMessage); ok {
			var text []string
			for _, c := range r.Content {
				text = append(text, c.Text)
			}
			return r, strings.Join(text, "\n")
		}
	}
	return nil, ""
}

func toolCall(n int, name string, args any) faux.Response {
	raw, _ := json.Marshal(args)
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: fmt.Sprintf("c%d", n), Name: name, Arguments: raw}}}
}

// The scripted model starts a web server in the background, polls it with
// bash_output until it serves, fetches a page with curl in a second bash
// call, and kills it with kill_shell: the whole life of a background
// command through the agent loop.
func TestFauxModelRunsAServerInTheBackground(t *testing.T) {
	for _, prog := range []string{"python3", "curl"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("%s is not installed", prog)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "marker.txt"), []byte("served by the background\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	table := background.New(background.Options{TempDir: t.TempDir()})

	var (
		id       string
		pid      int
		polls    int
		fetched  string
		killed   string
		failures []string
	)
	calls := 0
	step := func(req *provider.Request) (faux.Response, error) {
		calls++
		res, text := lastResult(req)
		switch {
		case res == nil:
			return toolCall(calls, "bash", map[string]any{
				"command":           fmt.Sprintf("python3 -u -m http.server %d --bind 127.0.0.1", port),
				"run_in_background": true,
			}), nil
		case res.IsError:
			failures = append(failures, res.ToolName+": "+text)
			return faux.Response{Text: "giving up"}, nil
		case res.ToolName == "bash" && id == "":
			var d tools.BackgroundDetails
			if err := json.Unmarshal(res.Details, &d); err != nil || d.ID == "" || !d.Running {
				failures = append(failures, "start details: "+string(res.Details))
				return faux.Response{Text: "giving up"}, nil
			}
			id, pid = d.ID, d.Pid
			return toolCall(calls, "bash_output", map[string]any{"bash_id": id, "filter": "Serving HTTP", "wait": 5}), nil
		case res.ToolName == "bash_output" && !strings.Contains(text, "Serving HTTP"):
			polls++
			if !strings.Contains(text, id+": running") {
				failures = append(failures, "poll: "+text)
				return faux.Response{Text: "giving up"}, nil
			}
			return toolCall(calls, "bash_output", map[string]any{"bash_id": id, "filter": "Serving HTTP", "wait": 5}), nil
		case res.ToolName == "bash_output":
			polls++
			return toolCall(calls, "bash", map[string]any{"command": fmt.Sprintf("curl -sS http://127.0.0.1:%d/marker.txt", port)}), nil
		case res.ToolName == "bash":
			fetched = text
			return toolCall(calls, "kill_shell", map[string]any{"shell_id": id}), nil
		case res.ToolName == "kill_shell":
			killed = text
			return faux.Response{Text: "done"}, nil
		}
		failures = append(failures, "unexpected result of "+res.ToolName+": "+text)
		return faux.Response{Text: "giving up"}, nil
	}
	fp := faux.New(faux.Options{})
	for range 40 { // bounded: each poll waits up to 5 s for the server
		fp.PushStep(step)
	}
	sess, err := agent.New(agent.Config{
		Model:     faux.Model,
		Open:      func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
		Tools:     tools.WithBackground(tools.New(dir), table),
		Processes: table,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Prompt("start a server, fetch it, stop it", nil, ""); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), fauxWait)
	defer cancel()
	if err := sess.Wait(ctx); err != nil {
		t.Fatalf("the session did not settle within %v: %v", fauxWait, err)
	}
	if len(failures) > 0 {
		t.Fatalf("the script failed: %s", strings.Join(failures, "\n"))
	}
	if polls == 0 || !strings.Contains(fetched, "served by the background") {
		t.Fatalf("after %d polls curl gave %q", polls, fetched)
	}
	if !strings.Contains(killed, "Killed "+id) {
		t.Fatalf("kill_shell said %q", killed)
	}
	shelltest.WaitGone(t, fauxWait, pid)
	if info, err := table.Info(id); err != nil || info.Running || !info.Killed {
		t.Fatalf("after kill_shell the table says %+v, %v", info, err)
	}
	if sess.Processes() != table {
		t.Fatal("the session does not own the table")
	}
}
