package agent

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/mcp/mcptest"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/toolset"
)

// liveTools is a session's registry over one real MCP server (the Go SDK's,
// in process) named s.
func liveTools(t *testing.T, g *mcptest.GoServer) (*toolset.Registry, *mcp.Manager) {
	t.Helper()
	m := mcp.Start(mcp.Config{Servers: []mcp.Server{g.Config("s")}}, mcp.Options{})
	t.Cleanup(m.Close)
	reg := toolset.New(nil, toolset.Options{Limit: time.Minute})
	reg.Add(mcp.NewSource(m, nil))
	return reg, m
}

// requests records the tool names of each request the model gets.
type requests struct {
	mu    sync.Mutex
	tools [][]string
}

func (r *requests) step(answer faux.Response) faux.Step {
	return func(req *provider.Request) (faux.Response, error) {
		var names []string
		for _, spec := range req.Tools {
			names = append(names, spec.Name)
		}
		r.mu.Lock()
		r.tools = append(r.tools, names)
		r.mu.Unlock()
		return answer, nil
	}
}

func (r *requests) get(i int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i >= len(r.tools) {
		return nil
	}
	return r.tools[i]
}

func isNotice(sub string) func(core.Event) bool {
	return func(e core.Event) bool {
		n, ok := e.(core.Notice)
		return ok && strings.Contains(n.Message, sub)
	}
}

func toolResultText(events []core.Event) string {
	for _, e := range events {
		if end, ok := e.(core.ToolExecutionEnd); ok {
			return core.PlainText(end.Result.Content)
		}
	}
	return ""
}

// The first request waits for a server still starting and declares its
// tools; a tool the server adds mid-session (tools/list_changed) is
// declared in the next request, and the conversation records the change.
func TestRequestsDeclareTheToolsAvailableNow(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	reg, m := liveTools(t, g)
	var seen requests
	sections := func([]core.Tool) []core.PromptSection {
		return []core.PromptSection{{Name: "prompt", Text: "be brief"}}
	}
	f := newFixture(t, Config{Toolset: reg, SystemSections: sections})
	f.fp.PushStep(
		seen.step(faux.Response{Content: []core.Content{toolCall("c1", "mcp__s__echo", `{"text":"hi"}`)}}),
		seen.step(faux.Response{Text: "done"}),
	)
	if err := f.s.Prompt("go", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	f.until(isNotice(`waiting up to 1m0s for MCP server still starting: "s"`))
	g.Open()
	events := f.untilSettled()
	if got := seen.get(0); !slices.Contains(got, "mcp__s__echo") {
		t.Fatalf("first request's tools %v", got)
	}
	if got := toolResultText(events); got != "echo: hi" {
		t.Errorf("tool result %q", got)
	}

	g.AddTool("later", "")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for !slices.ContainsFunc(f.s.Tools(), func(tl core.Tool) bool { return tl.Spec().Name == "mcp__s__later" }) {
		select {
		case <-m.Changed():
		case <-ctx.Done():
			t.Fatal("the added tool never appeared")
		}
	}
	f.fp.PushStep(seen.step(faux.Response{Text: "ok"}))
	if err := f.s.Prompt("again", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	f.untilSettled()
	if got := seen.get(2); !slices.Contains(got, "mcp__s__later") {
		t.Fatalf("request after list_changed: tools %v", got)
	}
	if st := core.SystemStateOf(f.s.Messages()); !slices.ContainsFunc(st.Tools, func(s core.ToolSpec) bool { return s.Name == "mcp__s__later" }) {
		t.Errorf("the conversation did not declare the new tool: %v", st.Tools)
	}
}

// approvals records what the approver was asked about.
type approvals struct {
	mu    sync.Mutex
	tools []string
}

func (a *approvals) Check(_ context.Context, tool core.Tool, _ core.ToolCall, _ core.Asker) approval.Decision {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tools = append(a.tools, tool.Spec().Name+" "+string(tool.Category()))
	return approval.Decision{Allow: true}
}

// A call of a running tool the request did not declare (past the budget of
// declared MCP tools) runs, after the same approval as any MCP tool.
func TestUndeclaredToolIsCalledAfterApproval(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{})
	g.AddTool("huge", strings.Repeat("a very long description ", mcp.DirectBudget/20))
	reg, _ := liveTools(t, g)
	var seen requests
	var asked approvals
	f := newFixture(t, Config{Toolset: reg, Approver: &asked})
	f.fp.PushStep(
		seen.step(faux.Response{Content: []core.Content{toolCall("c1", "mcp__s__echo", `{"text":"routed"}`)}}),
		seen.step(faux.Response{Text: "done"}),
	)
	if err := f.s.Prompt("go", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	events := f.untilSettled()
	if got := seen.get(0); slices.Contains(got, "mcp__s__echo") || !slices.Contains(got, mcp.CallToolName) {
		t.Fatalf("declared %v", got)
	}
	if got := toolResultText(events); got != "echo: routed" {
		t.Errorf("tool result %q", got)
	}
	if !slices.Equal(asked.tools, []string{"mcp__s__echo mcp"}) {
		t.Errorf("approver asked about %v", asked.tools)
	}
}
