package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
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
	// The model is told too, in the conversation before its first
	// request, that the server's tools are still coming.
	r = invoke(t, vars, nil, "--no-session", "--provider", "faux", "--mode", "json", "-p", "go")
	if r.code != exitOK || !strings.Contains(r.stdout, `Still starting, so their tools are not available yet: MCP server \"never\"`) {
		t.Fatalf("the model was not told: exit %d\nstdout %.3000s", r.code, r.stdout)
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

// rpc mode: the first prompt waits for a slow server and its tool runs;
// a server that never starts is reported to the host as pi's notify
// request, in order with the run's events.
func TestRPCWaitsForServersAndReportsTheOnesItGaveUpOn(t *testing.T) {
	slow := mcptest.StartGo(t, mcptest.GoOptions{Delay: 300 * time.Millisecond})
	never := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	vars := mcpHome(t, map[string]any{"slow": map[string]any{"url": slow.URL + "/mcp"}, "never": map[string]any{"url": never.URL + "/mcp"}})
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "mcp__slow__echo", "arguments": {"text": "over rpc"}}]},
	  {"text": "Done."}
	]}`)
	vars["CAIRN_MCP_STARTUP_MS"] = "2000"
	r := driveUntil(t, vars, `{"id":"p","type":"prompt","message":"go"}`, `"type":"agent_settled"`, "--mode", "rpc", "--no-session", "--provider", "faux", "--approval", "yolo")
	gaveUp := strings.Index(r.stdout, `"method":"notify","message":"gave up waiting for MCP server after 2s: \"never\"`)
	echoed := strings.Index(r.stdout, `"text":"echo: over rpc"`)
	if r.code != exitOK || gaveUp < 0 || echoed < gaveUp || !strings.Contains(r.stdout, `"notifyType":"warning"`) {
		t.Errorf("exit %d\nstdout %.4000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// driveUntil runs cairn with args, sends input as a line on stdin and
// keeps stdin open, as a host does, until a stdout line contains until;
// then it ends stdin and returns what cairn wrote and its exit code.
func driveUntil(t *testing.T, vars map[string]string, input, until string, args ...string) result {
	t.Helper()
	h := startHost(t, vars, args...)
	h.send(input)
	h.until(until)
	return h.finish()
}

// host drives cairn over pipes, as a host process does.
type host struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	out   strings.Builder
	errb  *syncWriter
	code  chan int
}

func startHost(t *testing.T, vars map[string]string, args ...string) *host {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &host{t: t, in: inW, lines: make(chan string), errb: &syncWriter{}, code: make(chan int, 1)}
	go func() {
		c := run(context.Background(), args, IOStreams{In: inR, Out: outW, Err: h.errb}, func(k string) string { return vars[k] })
		_ = outW.Close()
		h.code <- c
	}()
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
	}()
	return h
}

func (h *host) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// until reads stdout up to a line containing sub and returns that line.
func (h *host) until(sub string) string {
	h.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-h.lines:
			if !ok {
				h.t.Fatalf("stdout ended before %s:\n%s\nstderr %s", sub, h.out.String(), h.errb.String())
			}
			h.out.WriteString(l + "\n")
			if strings.Contains(l, sub) {
				return l
			}
		case <-timeout:
			h.t.Fatalf("no %s within 60s:\n%s", sub, h.out.String())
		}
	}
}

// finish ends stdin and returns what cairn wrote and its exit code.
func (h *host) finish() result {
	_ = h.in.Close()
	for l := range h.lines {
		h.out.WriteString(l + "\n")
	}
	return result{<-h.code, h.out.String(), h.errb.String()}
}

// synaps mode: tools_list lists the tools of a server that became ready
// after start.
func TestSynapsToolsListFollowsTheServers(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Delay: 200 * time.Millisecond})
	vars := mcpHome(t, map[string]any{"g": map[string]any{"url": g.URL + "/mcp"}})
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [{"text": "ok"}]}`)
	h := startHost(t, vars, "--mode", "synaps", "--provider", "faux", "--no-session")
	h.send(`{"type":"prompt","id":"p","message":"hi"}`) // waits for the server
	h.until(`"agent_end"`)
	h.send(`{"type":"tools_list","id":"t"}`)
	if l := h.until(`"command":"tools_list"`); !strings.Contains(l, `"name":"mcp__g__echo"`) {
		t.Errorf("tools_list: %s", l)
	}
	if r := h.finish(); r.code != exitOK {
		t.Errorf("exit %d\nstderr %s", r.code, r.stderr)
	}
}

// --json-stream as AionUi's team mode drives it: ready says MCP is on,
// add_mcp_server after ready adds the server to the running session and
// is answered with mcp_ready and its tools; the first message declares
// them and a call runs after the host's approval; add_mcp_server after
// the first message is refused.
func TestJSONStreamAddMCPServer(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Delay: 200 * time.Millisecond})
	vars := mcpHome(t, map[string]any{})
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "mcp__team__echo", "arguments": {"text": "from the team"}}]},
	  {"text": "Done."}
	]}`)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncWriter
	code := make(chan int, 1)
	go func() {
		c := run(context.Background(), []string{"--json-stream", "--provider", "faux"},
			IOStreams{In: inR, Out: outW, Err: &stderr}, func(k string) string { return vars[k] })
		_ = outW.Close()
		code <- c
	}()
	p := newJSONStreamPeer(t, inW, outR)
	ready := p.next()
	if caps, _ := ready["capabilities"].(map[string]any); ready["type"] != "ready" || caps["mcp"] != true {
		t.Fatalf("ready = %v", ready)
	}
	p.send(`{"type":"add_mcp_server","name":"team","transport":"streamable-http","url":"` + g.URL + `/mcp"}`)
	p.send(`{"type":"ping"}`) // served while the server starts
	if got, _ := p.until("pong"); got != "pong" {
		t.Fatalf("before pong: %s", got)
	}
	if _, f := p.until("mcp_ready"); f["name"] != "team" || fmt.Sprint(f["tools"]) != "[echo]" {
		t.Fatalf("mcp_ready = %v", f)
	}
	p.send(`{"type":"message","msg_id":"m1","input":"use the team's tool"}`)
	_, req := p.until("tool_request")
	if tool, _ := req["tool"].(map[string]any); tool["name"] != "mcp__team__echo" || tool["category"] != "mcp" {
		t.Errorf("tool_request = %v", req)
	}
	p.send(`{"type":"tool_approve","call_id":"` + req["call_id"].(string) + `"}`)
	if _, res := p.until("tool_result"); !strings.Contains(fmt.Sprint(res), "echo: from the team") {
		t.Errorf("tool_result = %v", res)
	}
	p.until("stream_end")
	p.send(`{"type":"add_mcp_server","name":"late","transport":"stdio","command":"true"}`)
	if _, e := p.until("error"); !strings.Contains(fmt.Sprint(e), "only allowed before the first message") {
		t.Errorf("late add_mcp_server: %v", e)
	}
	_ = inW.Close()
	for range p.lines {
	}
	if c := <-code; c != exitOK {
		t.Fatalf("exit %d; stderr %s", c, stderr.String())
	}
}

// A fresh cairn directory with the reference server (server-everything,
// from npm) in mcp.json: the first run calls its echo tool, declared, in
// -p (json output shows the result), and in rpc mode also after
// new_session.
func TestEverythingEchoOnTheFirstRun(t *testing.T) {
	srv := everythingServer(t)
	call := `{"content": [{"type": "toolCall", "id": "c1", "name": "mcp__everything__echo", "arguments": {"message": "first run"}}]}`
	t.Run("print", func(t *testing.T) {
		vars := mcpHome(t, map[string]any{"everything": srv})
		vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [`+call+`, {"text": "Done."}]}`)
		r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "echo")
		if r.code != exitOK || !strings.Contains(r.stdout, `Echo: first run`) || strings.Contains(r.stdout, "not found") {
			t.Errorf("exit %d\nstdout %.3000s\nstderr %s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("rpc and new_session", func(t *testing.T) {
		vars := mcpHome(t, map[string]any{"everything": srv})
		vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [`+call+`, {"text": "Done."}, `+call+`, {"text": "Again."}]}`)
		h := startHost(t, vars, "--mode", "rpc", "--no-session", "--provider", "faux", "--approval", "yolo")
		h.send(`{"id":"p1","type":"prompt","message":"echo"}`)
		if l := h.until(`"type":"tool_execution_end"`); !strings.Contains(l, "Echo: first run") {
			t.Fatalf("first session: %s", l)
		}
		h.until(`"type":"agent_settled"`)
		h.send(`{"id":"n","type":"new_session"}`)
		h.until(`"command":"new_session"`)
		h.send(`{"id":"p2","type":"prompt","message":"echo again"}`)
		if l := h.until(`"type":"tool_execution_end"`); !strings.Contains(l, "Echo: first run") {
			t.Fatalf("after new_session: %s", l)
		}
		h.until(`"type":"agent_settled"`)
		if r := h.finish(); r.code != exitOK {
			t.Errorf("exit %d\nstderr %s", r.code, r.stderr)
		}
	})
	t.Run("json-stream", func(t *testing.T) {
		vars := mcpHome(t, map[string]any{"everything": srv})
		vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [`+call+`, {"text": "Done."}]}`)
		h := startHost(t, vars, "--json-stream", "--provider", "faux", "--auto-approve")
		h.until(`"type":"ready"`)
		h.send(`{"type":"message","msg_id":"m1","input":"echo"}`)
		if l := h.until(`"type":"tool_result"`); !strings.Contains(l, "Echo: first run") {
			t.Fatalf("tool_result: %s", l)
		}
		h.until(`"type":"stream_end"`)
		if r := h.finish(); r.code != exitOK {
			t.Errorf("exit %d\nstderr %s", r.code, r.stderr)
		}
	})
	t.Run("synaps", func(t *testing.T) {
		vars := mcpHome(t, map[string]any{"everything": srv})
		vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [`+call+`, {"text": "Done."}]}`)
		h := startHost(t, vars, "--mode", "synaps", "--provider", "faux", "--no-session", "--approval", "yolo")
		h.send(`{"type":"prompt","id":"p","message":"echo"}`)
		if l := h.until(`"toolcall_result"`); !strings.Contains(l, "Echo: first run") {
			t.Fatalf("tool result: %s", l)
		}
		h.until(`"agent_end"`)
		if r := h.finish(); r.code != exitOK {
			t.Errorf("exit %d\nstderr %s", r.code, r.stderr)
		}
	})
}

// --json-stream: a configured server that never starts is reported to the
// host as an info event of the first message, after the limit.
func TestJSONStreamReportsTheServerItGaveUpOn(t *testing.T) {
	never := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	vars := mcpHome(t, map[string]any{"never": map[string]any{"url": never.URL + "/mcp"}})
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [{"text": "Without it."}]}`)
	vars["CAIRN_MCP_STARTUP_MS"] = "300"
	h := startHost(t, vars, "--json-stream", "--provider", "faux")
	h.until(`"type":"ready"`)
	h.send(`{"type":"message","msg_id":"m1","input":"go"}`)
	l := h.until(`gave up waiting`)
	if !strings.Contains(l, `"type":"info"`) || !strings.Contains(l, `"msg_id":"m1"`) || !strings.Contains(l, `\"never\"`) {
		t.Errorf("report: %s", l)
	}
	h.until(`"type":"stream_end"`)
	if r := h.finish(); r.code != exitOK {
		t.Errorf("exit %d\nstderr %s", r.code, r.stderr)
	}
}
