package mcp_test

import (
	"context"
	"encoding/json"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/mcp/mcptest"
	"github.com/cairn-dev/cairn/core/toolset"
)

// manual is a clock for the registry's limit: started is told when a wait
// begins, and the limit passes when the test sends on fire.
type manual struct {
	started chan struct{}
	fire    chan time.Time
}

func newManual() *manual {
	return &manual{started: make(chan struct{}, 8), fire: make(chan time.Time, 1)}
}

func (c *manual) after(time.Duration) <-chan time.Time {
	c.started <- struct{}{}
	return c.fire
}

func startManager(t *testing.T, servers ...mcp.Server) *mcp.Manager {
	t.Helper()
	m := mcp.Start(mcp.Config{Servers: servers}, mcp.Options{Backoff: func(int) time.Duration { return time.Hour }})
	t.Cleanup(m.Close)
	return m
}

func registryOf(m *mcp.Manager, clock *manual) *toolset.Registry {
	r := toolset.New(nil, toolset.Options{Limit: time.Minute, After: clock.after, Longer: "raise mcp.startupTimeoutMs"})
	r.Add(mcp.NewSource(m, func(ctx context.Context) { r.Wait(ctx, nil) }))
	return r
}

func names(tools []core.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Spec().Name)
	}
	return out
}

func within(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// waitFor waits until the registry's tools satisfy ok, following the
// manager's changes.
func waitFor(t *testing.T, m *mcp.Manager, r *toolset.Registry, ok func([]string) bool) {
	t.Helper()
	ctx := within(t, 30*time.Second)
	for {
		changed := m.Changed()
		if ok(names(r.Tools())) {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("tools %v", names(r.Tools()))
		}
	}
}

func run(t *testing.T, tool core.Tool, args string) core.ToolResult {
	t.Helper()
	if tool == nil {
		t.Fatal("no tool")
	}
	res, err := tool.Execute(within(t, 30*time.Second), core.ToolCall{ID: "c", Name: tool.Spec().Name, Arguments: json.RawMessage(args)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func resultText(r core.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// A wait for a server still starting says so and ends when it is ready,
// and the tools then include the server's.
func TestRegistryWaitsForAServerStillStarting(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	m := startManager(t, g.Config("slow"))
	r := registryOf(m, newManual())
	notes := make(chan toolset.Note, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Wait(within(t, 30*time.Second), func(n toolset.Note) { notes <- n })
	}()
	n := <-notes
	if n.Kind != toolset.NoteWaiting || !slices.Equal(n.Names, []string{"slow"}) || !strings.Contains(n.String(), `waiting up to 1m0s for MCP server still starting: "slow"`) {
		t.Fatalf("first note %+v %q", n, n)
	}
	g.Open()
	select {
	case <-done:
	case <-within(t, 30*time.Second).Done():
		t.Fatal("the wait did not end when the server was ready")
	}
	if len(notes) != 0 {
		t.Errorf("more notes: %+v", <-notes)
	}
	if got := names(r.Tools()); !slices.Contains(got, "mcp__slow__echo") {
		t.Errorf("tools after the wait: %v", got)
	}
}

// A server that never starts is given up on at the limit, once: later
// waits do not wait for it again, and its tools come if it starts later.
func TestRegistryGivesUpOnAServerThatNeverStarts(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	m := startManager(t, g.Config("never"))
	clock := newManual()
	r := registryOf(m, clock)
	var notes []toolset.Note
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Wait(within(t, 30*time.Second), func(n toolset.Note) { notes = append(notes, n) })
	}()
	<-clock.started
	clock.fire <- time.Now()
	<-done
	if len(notes) != 2 || notes[1].Kind != toolset.NoteGaveUp || !strings.Contains(notes[1].String(), `gave up waiting for MCP server after 1m0s: "never"`) ||
		!strings.Contains(notes[1].String(), "(raise mcp.startupTimeoutMs to wait longer)") {
		t.Fatalf("notes %+v", notes)
	}
	notes = nil
	r.Wait(within(t, 30*time.Second), func(n toolset.Note) { notes = append(notes, n) })
	if len(notes) != 0 || len(clock.started) != 0 {
		t.Errorf("a second wait waited again: %+v", notes)
	}
	g.Open()
	waitFor(t, m, r, func(n []string) bool { return slices.Contains(n, "mcp__never__echo") })
}

// With no wait allowed, Wait says at once what it is not waiting for.
func TestRegistryWithoutAWaitSaysSo(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	m := startManager(t, g.Config("held"))
	r := toolset.New(nil, toolset.Options{Limit: -1}, mcp.NewSource(m, nil))
	var notes []toolset.Note
	r.Wait(within(t, 30*time.Second), func(n toolset.Note) { notes = append(notes, n) })
	if len(notes) != 1 || notes[0].Kind != toolset.NoteGaveUp || !strings.Contains(notes[0].String(), "the startup wait is 0") {
		t.Fatalf("notes %+v", notes)
	}
}

// A server that cannot start is reported once, with its error; a call of
// one of its tools fails at once with that error.
func TestFailedServerIsReportedOnceAndFailsItsCallsAtOnce(t *testing.T) {
	// Nothing listens where the server should be.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	m := startManager(t, mcp.Server{Name: "gone", Source: "test", Transport: mcp.TransportHTTP, URL: "http://" + addr + "/mcp", Timeout: time.Minute})
	r := registryOf(m, newManual())
	var notes []toolset.Note
	r.Wait(within(t, 30*time.Second), func(n toolset.Note) { notes = append(notes, n) })
	// The start may end during the wait or before it.
	var failed []toolset.Note
	for _, n := range notes {
		if n.Kind == toolset.NoteFailed {
			failed = append(failed, n)
		}
	}
	if len(failed) != 1 || !slices.Equal(failed[0].Names, []string{"gone"}) || !strings.Contains(failed[0].String(), `MCP server "gone" failed to start`) {
		t.Fatalf("notes %+v", notes)
	}
	notes = nil
	r.Wait(within(t, 30*time.Second), func(n toolset.Note) { notes = append(notes, n) })
	if len(notes) != 0 {
		t.Errorf("reported again: %+v", notes)
	}
	// Retries are an hour apart: a call that waited for the next one
	// would hit this test's limit.
	began := time.Now()
	res := run(t, r.Find("mcp__gone__echo"), `{"text":"x"}`)
	if !res.IsError || !strings.Contains(resultText(res), `MCP server "gone" failed to start`) || time.Since(began) > 10*time.Second {
		t.Errorf("call after %s: %+v", time.Since(began), res)
	}
}

// notifications/tools/list_changed mid-session: the registry's next
// tools include the new tool, and a call of it runs.
func TestToolAddedMidSessionIsDeclared(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{})
	m := startManager(t, g.Config("g"))
	r := registryOf(m, newManual())
	r.Wait(within(t, 30*time.Second), nil)
	if got := names(r.Tools()); !slices.Contains(got, "mcp__g__echo") || slices.Contains(got, "mcp__g__later") {
		t.Fatalf("tools at first: %v", got)
	}
	g.AddTool("later", "")
	waitFor(t, m, r, func(n []string) bool { return slices.Contains(n, "mcp__g__later") })
	if res := run(t, r.Find("mcp__g__later"), `{"text":"hi"}`); res.IsError || resultText(res) != "later: hi" {
		t.Errorf("call: %+v", res)
	}
}

// Past the budget, a server's tools are not declared but still reached
// by name, and mcp_tool_search waits for a server still starting before
// it answers.
func TestUndeclaredToolsAreFoundAndSearchWaits(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	g.AddTool("huge", strings.Repeat("a very long description ", mcp.DirectBudget/20))
	m := startManager(t, g.Config("big"))
	clock := newManual()
	r := registryOf(m, clock)
	found := make(chan core.ToolResult, 1)
	go func() { found <- run(t, r.Find(mcp.SearchToolName), `{"query":"echo"}`) }()
	<-clock.started // the search is waiting for the server
	g.Open()
	if res := <-found; !strings.Contains(resultText(res), "## mcp__big__echo") {
		t.Fatalf("search: %+v", res)
	}
	got := names(r.Tools())
	if slices.Contains(got, "mcp__big__echo") || !slices.Contains(got, mcp.CallToolName) {
		t.Errorf("declared past the budget: %v", got)
	}
	if res := run(t, r.Find("mcp__big__echo"), `{"text":"direct"}`); res.IsError || resultText(res) != "echo: direct" {
		t.Errorf("undeclared call: %+v", res)
	}
}

// The tools a server listed last time are shown while it starts, but never
// declared or callable: only a ready server's tools are.
func TestLastToolsAreShownNeverOffered(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	s := g.Config("slow")
	cache := &mcp.ToolCache{Path: t.TempDir() + "/tools.json"}
	cache.Store(s, []mcp.ToolInfo{{Name: "echo"}, {Name: "gone"}})
	m := mcp.Start(mcp.Config{Servers: []mcp.Server{s}}, mcp.Options{Cache: cache})
	t.Cleanup(m.Close)
	r := registryOf(m, newManual())
	if st := m.Statuses()[0]; st.State != mcp.Starting || len(st.LastTools) != 2 {
		t.Fatalf("status %+v", st)
	}
	if got := names(r.Tools()); slices.Contains(got, "mcp__slow__echo") || slices.Contains(got, "mcp__slow__gone") {
		t.Errorf("cached tools declared: %v", got)
	}
	g.Open()
	waitFor(t, m, r, func(n []string) bool { return slices.Contains(n, "mcp__slow__echo") })
	if got := names(r.Tools()); slices.Contains(got, "mcp__slow__gone") {
		t.Errorf("a tool the server no longer has is declared: %v", got)
	}
	if last := cache.Lookup([]mcp.Server{s})["slow"]; len(last) != 1 || last[0].Name != "echo" {
		t.Errorf("the cache was not refreshed: %+v", last)
	}
}

// Without an enabled server a session has no MCP tools at all; a server
// added later (aionrs's add_mcp_server) brings them.
func TestNoEnabledServerNoMCPTools(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{}) // stops after the manager
	m := startManager(t, mcp.Server{Name: "off", Source: "test", Transport: mcp.TransportStdio, Command: "true", Disabled: true})
	r := registryOf(m, newManual())
	if got := names(r.Tools()); len(got) != 0 || r.Find(mcp.CallToolName) != nil {
		t.Fatalf("tools %v", got)
	}
	if _, err := m.Connect(within(t, 30*time.Second), g.Config("added")); err != nil {
		t.Fatal(err)
	}
	if got := names(r.Tools()); !slices.Contains(got, "mcp__added__echo") || !slices.Contains(got, mcp.CallToolName) {
		t.Errorf("tools after Connect: %v", got)
	}
}

// A call of a tool whose server is still starting is judged by the
// server's own schema once it is ready: the stand-in the registry finds
// meanwhile lets the agent's strict argument check through (it declares no
// parameters of its own), and the call then runs with those arguments.
func TestCallOfAToolStillStartingKeepsItsArguments(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	m := startManager(t, g.Config("slow"))
	r := registryOf(m, newManual())
	tool := r.Find("mcp__slow__echo")
	if tool == nil {
		t.Fatal("no stand-in for a tool of a server still starting")
	}
	args, err := core.CheckArguments(tool.Spec(), json.RawMessage(`{"text":"early"}`))
	if err != nil {
		t.Fatalf("the stand-in refused the arguments before the server could judge them: %v", err)
	}
	if _, err := core.CheckArguments(tool.Spec(), json.RawMessage(`{"text":"a","Text":"b"}`)); err == nil {
		t.Error("the stand-in let case-variant keys through")
	}
	done := make(chan core.ToolResult, 1)
	go func() { done <- run(t, tool, string(args)) }()
	g.Open()
	if res := <-done; res.IsError || resultText(res) != "echo: early" {
		t.Fatalf("result %+v", res)
	}
}

// A server named as in Claude Code's documentation examples and the
// modelcontextprotocol/servers README ("sequential-thinking") gives its
// tools Claude Code's names, hyphen kept; a call by the name cairn used
// before (an older session's history) still finds the tool.
func TestHyphenatedServerKeepsClaudeCodeNames(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{})
	m := startManager(t, g.Config("sequential-thinking"))
	r := registryOf(m, newManual())
	r.Wait(within(t, 30*time.Second), nil)
	if got := names(r.Tools()); !slices.Contains(got, "mcp__sequential-thinking__echo") {
		t.Fatalf("tools: %v", got)
	}
	for _, name := range []string{"mcp__sequential-thinking__echo", "mcp__sequential_thinking__echo"} {
		tool := r.Find(name)
		if tool == nil {
			t.Fatalf("%s not found", name)
		}
		if res := run(t, tool, `{"text":"hi"}`); res.IsError || resultText(res) != "echo: hi" {
			t.Errorf("%s: %+v", name, res)
		}
	}
}
