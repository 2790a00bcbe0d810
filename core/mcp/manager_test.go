package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// startOne starts a manager over servers with fast restarts and collects
// its reports.
func startOne(t *testing.T, servers ...Server) (*Manager, *reports) {
	t.Helper()
	rep := &reports{ch: make(chan string, 16)}
	m := Start(Config{Servers: servers}, Options{LogDir: t.TempDir(), Report: rep.add,
		Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	t.Cleanup(m.Close)
	return m, rep
}

type reports struct {
	mu  sync.Mutex
	all []string
	ch  chan string
}

func (r *reports) add(s string) {
	r.mu.Lock()
	r.all = append(r.all, s)
	r.mu.Unlock()
	r.ch <- s
}

// waitState waits until the server named name is in state want.
func waitState(t *testing.T, m *Manager, name string, want State) {
	t.Helper()
	ctx := waitCtx(t, 60*time.Second)
	for {
		changed := m.Changed()
		for _, st := range m.Statuses() {
			if st.Server.Name == name && st.State == want {
				return
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("%s never became %s: %+v", name, want, m.Statuses())
		}
	}
}

func waitCtx(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func toolNamed(t *testing.T, m *Manager, name string) *Tool {
	t.Helper()
	for _, tl := range m.LiveTools() {
		if tl.Spec().Name == name {
			return tl.(*Tool)
		}
	}
	t.Fatalf("no tool %s among %d", name, len(m.LiveTools()))
	return nil
}

func call(t *testing.T, tool core.Tool, args string) core.ToolResult {
	t.Helper()
	res, err := tool.Execute(waitCtx(t, 30*time.Second), core.ToolCall{ID: "c1", Name: tool.Spec().Name, Arguments: json.RawMessage(args)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func text(r core.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func TestFailedStartIsReportedOnceWithCommandAndStderr(t *testing.T) {
	s := testServer(t, "broken", "fail")
	m, rep := startOne(t, s)
	select {
	case msg := <-rep.ch:
		for _, want := range []string{`MCP server "broken"`, s.Command, "failed to start", "fatal: TEST_API_KEY is not set", "full log: "} {
			if !strings.Contains(msg, want) {
				t.Errorf("report lacks %q:\n%s", want, msg)
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no report")
	}
	// It is retried until given up on, and reported only once.
	waitState(t, m, "broken", Stopped)
	if _, err := m.Conn(waitCtx(t, 60*time.Second), "broken"); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("Conn: %v", err)
	}
	rep.mu.Lock()
	defer rep.mu.Unlock()
	if len(rep.all) != 1 {
		t.Errorf("%d reports: %q", len(rep.all), rep.all)
	}
}

func TestCrashMidCallIsAnErrorResultAndTheServerRestarts(t *testing.T) {
	m, _ := startOne(t, testServer(t, "crashy", "crash"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "crashy"); err != nil {
		t.Fatal(err)
	}
	crash, echo := toolNamed(t, m, "mcp__crashy__crash"), toolNamed(t, m, "mcp__crashy__echo")
	res := call(t, crash, `{}`)
	if !res.IsError || !strings.Contains(text(res), "stopped during the call") {
		t.Fatalf("result %+v", res)
	}
	// The restarted server answers the next call: the tool waits for it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		res = call(t, echo, `{"text":"again"}`)
		if !res.IsError || time.Now().After(deadline) {
			break
		}
	}
	if res.IsError || text(res) != "echo: again" {
		t.Fatalf("after restart: %+v", res)
	}
}

func TestCallThatNeverAnswersTimesOut(t *testing.T) {
	s := testServer(t, "slow", "hang")
	s.Timeout = 500 * time.Millisecond
	m, _ := startOne(t, s)
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "slow"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := call(t, toolNamed(t, m, "mcp__slow__hang"), `{}`)
	if !res.IsError || !strings.Contains(text(res), "did not answer hang within 500ms") {
		t.Fatalf("result %+v", res)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
	// The server still works.
	if res := call(t, toolNamed(t, m, "mcp__slow__echo"), `{"text":"hi"}`); res.IsError || text(res) != "echo: hi" {
		t.Fatalf("echo after timeout: %+v", res)
	}
}

func TestAbortCancelsTheCall(t *testing.T) {
	m, _ := startOne(t, testServer(t, "slow", "hang"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "slow"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan core.ToolResult, 1)
	tool := toolNamed(t, m, "mcp__slow__hang")
	go func() {
		res, _ := tool.Execute(ctx, core.ToolCall{ID: "c", Arguments: json.RawMessage(`{}`)}, nil)
		done <- res
	}()
	cancel()
	select {
	case res := <-done:
		if !res.IsError || !strings.Contains(text(res), "aborted") {
			t.Fatalf("result %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the aborted call did not return")
	}
}

func TestAbortCancelsTheRequestOnTheServer(t *testing.T) {
	m, _ := startOne(t, testServer(t, "srv", "hang"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "srv"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	running := make(chan struct{}, 1)
	done := make(chan core.ToolResult, 1)
	wait := toolNamed(t, m, "mcp__srv__wait")
	go func() {
		res, _ := wait.Execute(ctx, core.ToolCall{ID: "w", Arguments: json.RawMessage(`{}`)}, func(core.ToolUpdate) {
			select {
			case running <- struct{}{}:
			default:
			}
		})
		done <- res
	}()
	select {
	case <-running: // the server is handling the request
	case <-time.After(30 * time.Second):
		t.Fatal("the call never started on the server")
	}
	cancel()
	if res := <-done; !res.IsError || !strings.Contains(text(res), "aborted") {
		t.Fatalf("aborted call: %+v", res)
	}
	if got := text(call(t, toolNamed(t, m, "mcp__srv__was_cancelled"), `{}`)); got != "yes" {
		t.Errorf("the server's request was not cancelled (%s)", got)
	}
}

func TestMalformedFrameIsAnErrorAndCairnStaysUp(t *testing.T) {
	m, _ := startOne(t, testServer(t, "bad", "malformed"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "bad"); err != nil {
		t.Fatal(err)
	}
	res := call(t, toolNamed(t, m, "mcp__bad__garbage"), `{}`)
	if !res.IsError {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(text(res), "invalid character") {
		t.Errorf("result does not say what was wrong: %s", text(res))
	}
}

func TestOversizedFrameIsRefused(t *testing.T) {
	m, _ := startOne(t, testServer(t, "bad", "malformed"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "bad"); err != nil {
		t.Fatal(err)
	}
	res := call(t, toolNamed(t, m, "mcp__bad__huge"), `{}`)
	if !res.IsError {
		t.Fatalf("a 17 MiB frame was accepted: %d bytes", len(text(res)))
	}
	t.Logf("oversized frame: %.200s", text(res))
}

func TestLongTextIsCutInTheMiddleAndSaved(t *testing.T) {
	m, _ := startOne(t, testServer(t, "bad", "malformed"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "bad"); err != nil {
		t.Fatal(err)
	}
	res := call(t, toolNamed(t, m, "mcp__bad__long"), `{}`)
	got := text(res)
	if res.IsError || len(got) > MaxResultText+300 || !strings.HasPrefix(got, "aaaa") || !strings.HasSuffix(got, "zzzz") || !strings.Contains(got, "bytes left out; the whole result is in ") {
		t.Fatalf("result %d bytes: %.100s ... %.300s", len(got), got, got[len(got)/2-150:])
	}
	path := got[strings.Index(got, "is in ")+len("is in "):]
	path = path[:strings.Index(path, " ...]")]
	defer os.Remove(path)
	whole, err := os.ReadFile(path)
	if err != nil || len(whole) != 180_000 {
		t.Fatalf("saved %d bytes, %v", len(whole), err)
	}
}

func TestManagerStartDoesNotWait(t *testing.T) {
	var servers []Server
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		servers = append(servers, testServer(t, name, "hang"))
	}
	start := time.Now()
	m := Start(Config{Servers: servers}, Options{LogDir: t.TempDir()})
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("Start took %s", d)
	}
	m.WaitSettled(waitCtx(t, 60*time.Second))
	for _, st := range m.Statuses() {
		if st.State != Ready || len(st.Tools) != 6 {
			t.Errorf("%s: %s %v (%d tools)", st.Server.Name, st.State, st.Err, len(st.Tools))
		}
	}
	m.Close()
}

func TestHintsReachTheApprovalQuestion(t *testing.T) {
	yes := true
	ro := NewTool(nil, Server{Name: "s"}, ToolInfo{Name: "read", ReadOnly: true})
	de := NewTool(nil, Server{Name: "s"}, ToolInfo{Name: "rm", Destructive: &yes})
	plain := NewTool(nil, Server{Name: "s"}, ToolInfo{Name: "x"})
	for _, c := range []struct {
		tool *Tool
		want string
	}{{ro, "read-only"}, {de, "destructive"}, {plain, ""}} {
		asker := &recordingAsker{}
		WithHints(askingGate{}).Check(context.Background(), c.tool, core.ToolCall{}, asker)
		if c.want == "" && asker.q.Message != "gate text" || c.want != "" && !strings.Contains(asker.q.Message, c.want) {
			t.Errorf("%s: message %q", c.tool.Spec().Name, asker.q.Message)
		}
	}
}

func TestFailedStartsBackOffThenStop(t *testing.T) {
	var mu sync.Mutex
	var delays []int
	m := Start(Config{Servers: []Server{testServer(t, "broken", "fail")}}, Options{
		Backoff: func(n int) time.Duration {
			mu.Lock()
			defer mu.Unlock()
			delays = append(delays, n)
			return time.Millisecond
		}})
	defer m.Close()
	waitState(t, m, "broken", Stopped)
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(delays) != "[1 2 3 4]" {
		t.Errorf("backoff attempts %v, want [1 2 3 4] (then it stops after %d failures)", delays, MaxStartFailures)
	}
	if st := m.Statuses()[0]; st.State != Stopped || !strings.Contains(st.Stderr, "TEST_API_KEY") {
		t.Errorf("status %+v", st)
	}
}

func TestDefaultBackoffGrowsToThirtySeconds(t *testing.T) {
	var got []time.Duration
	for n := 1; n <= 8; n++ {
		got = append(got, defaultBackoff(n))
	}
	if fmt.Sprint(got) != "[1s 2s 4s 8s 16s 30s 30s 30s]" {
		t.Errorf("got %v", got)
	}
}

func TestChangedToolListIsListedAgain(t *testing.T) {
	m, _ := startOne(t, testServer(t, "g", "hang"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "g"); err != nil {
		t.Fatal(err)
	}
	if res := call(t, toolNamed(t, m, "mcp__g__grow"), `{}`); res.IsError {
		t.Fatalf("grow: %+v", res)
	}
	ctx := waitCtx(t, 30*time.Second)
	for {
		m.mu.Lock()
		changed := m.changed
		m.mu.Unlock()
		for _, tl := range m.LiveTools() {
			if tl.Spec().Name == "mcp__g__grown" {
				return
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the new tool never appeared: %d tools", len(m.LiveTools()))
		}
	}
}

func TestSearchAndCallReachToolsTheSessionDoesNotDeclare(t *testing.T) {
	m, _ := startOne(t, testServer(t, "g", "hang"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "g"); err != nil {
		t.Fatal(err)
	}
	src := NewSource(m, nil)
	tools := []core.Tool{src.Find(SearchToolName), src.Find(CallToolName)}
	if tools[0] == nil || tools[1] == nil {
		t.Fatalf("gateways %v", tools)
	}
	found := call(t, tools[0], `{"query":"echo text"}`)
	if !strings.HasPrefix(text(found), "## mcp__g__echo\nEcho text back\nparameters: {") {
		t.Errorf("search: %s", text(found))
	}
	// mcp_call is approved as the tool it names, hints and all.
	asker := &recordingAsker{}
	c := core.ToolCall{ID: "c", Name: CallToolName, Arguments: json.RawMessage(`{"tool":"mcp__g__echo","arguments":{"text":"via gateway"}}`)}
	WithHints(titleGate{}).Check(context.Background(), tools[1], c, asker)
	if asker.q.Title != "Allow mcp__g__echo?" || !strings.Contains(asker.q.Message, "read-only") {
		t.Errorf("question %+v", asker.q)
	}
	if res := call(t, tools[1], string(c.Arguments)); res.IsError || text(res) != "echo: via gateway" {
		t.Errorf("call: %+v", res)
	}
	// A call naming a tool not known yet is asked about by that name, so
	// whatever runs under it is what the person allowed.
	WithHints(titleGate{}).Check(context.Background(), tools[1], core.ToolCall{Arguments: json.RawMessage(`{"tool":"mcp__g__later"}`)}, asker)
	if asker.q.Title != "Allow mcp__g__later?" {
		t.Errorf("question %+v", asker.q)
	}
	if res := call(t, tools[1], `{"tool":"mcp__g__later"}`); !res.IsError || !strings.Contains(text(res), "no MCP tool named mcp__g__later") {
		t.Errorf("unknown tool: %+v", res)
	}
	// A name that is not an MCP tool's is asked about as mcp_call itself,
	// so no rule for read_mcp_resource (or bash) can come from it.
	WithHints(titleGate{}).Check(context.Background(), tools[1], core.ToolCall{Arguments: json.RawMessage(`{"tool":"read_mcp_resource"}`)}, asker)
	if asker.q.Title != "Allow "+CallToolName+"?" {
		t.Errorf("question %+v", asker.q)
	}
	// The ready server's tools are declared beside the gateways and the
	// resource tools, while they fit the budget.
	live := m.LiveTools()
	if got := src.Tools(); len(got) != len(live)+4 {
		t.Errorf("%d tools declared, want %d", len(got), len(live)+4)
	}
	if specBytes(live) > DirectBudget || specBytes(append(live, NewTool(m, Server{Name: "g"}, ToolInfo{Name: "big", Description: strings.Repeat("d", DirectBudget)}))) <= DirectBudget {
		t.Errorf("budget: %d bytes of specs", specBytes(live))
	}
}
