package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/mcp/mcptest"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// lastText is the text of the transcript's last text item.
func (r *rig) lastText() string {
	var text string
	for _, e := range r.m.tr.entries {
		if ti, ok := e.it.(*textItem); ok {
			text = ansi.Strip(ti.text)
		}
	}
	return text
}

// TestMCPCommandListsServers: /mcp shows each server's state and source,
// its tools as the model calls them with their hints, and why a failed one
// failed; without servers it says how to add one.
func TestMCPCommandListsServers(t *testing.T) {
	yes := true
	statuses := []mcp.Status{
		{Server: mcp.Server{Name: "fs", Source: "/home/u/.cairn/mcp.json", Transport: mcp.TransportStdio, Command: "npx", Args: []string{"server-filesystem", "/tmp"}},
			State: mcp.Ready, Tools: []mcp.ToolInfo{{Name: "read_file", ReadOnly: true}, {Name: "delete", Destructive: &yes}}},
		{Server: mcp.Server{Name: "bad", Source: "/p/.mcp.json", Transport: mcp.TransportStdio, Command: "false"},
			State: mcp.Failed, Err: errors.New("exit status 1"), Stderr: "no such thing\n", Log: "/home/u/.cairn/mcp/logs/bad.log"},
	}
	r := newRig(t, rigOptions{mcp: func() []mcp.Status { return statuses }})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	r.command("/mcp")
	text := r.lastText()
	for _, want := range []string{
		"fs  ready  npx server-filesystem /tmp  (from /home/u/.cairn/mcp.json)",
		"mcp__fs__read_file (read-only)", "mcp__fs__delete (destructive)",
		"bad  failed", "error: exit status 1", "no such thing", "log: /home/u/.cairn/mcp/logs/bad.log",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/mcp does not show %q:\n%s", want, text)
		}
	}

	r2 := newRig(t, rigOptions{})
	r2.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	r2.command("/mcp")
	if text := r2.lastText(); !strings.Contains(text, "No MCP servers configured") {
		t.Errorf("without servers: %q", text)
	}
}

// mcpRig is a rig with a fake MCP server "code" offering a review prompt
// and a notes resource.
func mcpRig(t *testing.T) (*rig, *mcp.Manager, *mcptest.Server) {
	srv := &mcptest.Server{
		Prompts:   []mcp.PromptInfo{{Name: "review", Description: "Review code", Arguments: []mcp.PromptArgument{{Name: "topic", Required: true}, {Name: "depth"}}}},
		Resources: map[string]string{"file:///notes": "the notes say hello"},
	}
	m := mcptest.Start(t, "code", srv)
	r := newRig(t, rigOptions{mcp: m.Statuses, mcpServers: m, responses: []faux.Response{{Text: "ok"}}})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	return r, m, srv
}

// submit types text, closes the completion popup and sends it, waiting
// for what it starts in the background.
func (r *rig) submit(text string) {
	r.typeText(text)
	r.send(key("esc"))
	r.sendSync(key("enter"))
}

// sentText is the text of the session's last user message, "" if none.
func (r *rig) sentText() string {
	var sent string
	for _, msg := range r.sess.Messages() {
		if u, ok := msg.(*core.UserMessage); ok {
			sent = u.Text()
		}
	}
	return sent
}

// TestMCPPromptIsACommand: a server's prompt is offered after / and sends
// what the server returns for the arguments typed.
func TestMCPPromptIsACommand(t *testing.T) {
	r, _, _ := mcpRig(t)
	found := false
	for _, c := range r.m.commandList() {
		found = found || (c.Name == "mcp__code__review" && c.Description == "Review code <topic> [depth] (MCP)")
	}
	if !found {
		t.Errorf("the prompt is not offered after /: %v", r.m.commandList())
	}
	r.submit("/mcp__code__review parser depth=deep")
	r.waitSettled()
	if got := r.sentText(); got != "review: topic=parser depth=deep" {
		t.Errorf("sent %q (status %q)", got, r.m.status.text)
	}
	r.command("/mcp")
	if text := r.lastText(); !strings.Contains(text, "/mcp__code__review <topic> [depth] (prompt)") {
		t.Errorf("/mcp does not list the prompt:\n%s", text)
	}
}

// TestMCPPromptMissingArgumentKeepsTheDraft: a required argument left out
// is named, and nothing is sent.
func TestMCPPromptMissingArgumentKeepsTheDraft(t *testing.T) {
	r, _, _ := mcpRig(t)
	r.submit("/mcp__code__review")
	if !strings.Contains(r.m.status.text, `missing required argument "topic"`) || r.m.ed.Value() != "/mcp__code__review" || r.sentText() != "" {
		t.Errorf("status %q, draft %q, sent %q", r.m.status.text, r.m.ed.Value(), r.sentText())
	}
	if len(r.m.status.keyed) != 0 {
		t.Errorf("a status stays: %v", r.m.status.keyed)
	}
}

// TestMCPResourceIsAttached: @server:uri sends the resource's text with
// the message; one that cannot be read keeps the draft and says why.
func TestMCPResourceIsAttached(t *testing.T) {
	r, _, _ := mcpRig(t)
	r.submit("what is missing in @code:file:///missing?")
	if !strings.Contains(r.m.status.text, "cannot attach @code:file:///missing") || !strings.Contains(r.m.status.text, "the message was not sent") ||
		r.m.ed.Value() != "what is missing in @code:file:///missing?" || r.sentText() != "" {
		t.Errorf("unreadable: status %q, draft %q, sent %q", r.m.status.text, r.m.ed.Value(), r.sentText())
	}
	r.m.ed.SetValue("")
	r.submit("summarise @code:file:///notes")
	r.waitSettled()
	if got := r.sentText(); got != "summarise @code:file:///notes\n\nthe notes say hello" {
		t.Errorf("sent %q (status %q)", got, r.m.status.text)
	}
	if len(r.m.status.keyed) != 0 {
		t.Errorf("a status stays: %v", r.m.status.keyed)
	}
}

// TestMCPReconnect: /mcp reconnect <server> makes a new connection.
func TestMCPReconnect(t *testing.T) {
	r, m, srv := mcpRig(t)
	r.command("/mcp reconnect code")
	if !strings.Contains(r.m.status.text, `Reconnecting to MCP server "code"`) {
		t.Errorf("status %q", r.m.status.text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := m.Conn(ctx, "code"); err != nil || srv.Dials() != 2 {
		t.Errorf("after reconnect: %v, %d dials", err, srv.Dials())
	}
	r.command("/mcp reconnect nope")
	if !strings.Contains(r.m.status.text, `no MCP server named "nope"`) {
		t.Errorf("unknown server: status %q", r.m.status.text)
	}
}

// TestMCPResourcesAreCompletedAfterTheServer: `@server:` offers the
// server's resources.
func TestMCPResourcesAreCompletedAfterTheServer(t *testing.T) {
	r, _, _ := mcpRig(t)
	r.typeText("read @code:")
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "code:file:///notes") {
		t.Errorf("the resource is not offered:\n%s", screen)
	}
	r.send(key("tab"))
	if v := r.m.ed.Value(); v != "read @code:file:///notes " {
		t.Errorf("draft %q", v)
	}
}

// TestStatusShowsMCPServersStarting: while a server starts, the line above
// the footer names it; once it is ready, the name goes.
func TestStatusShowsMCPServersStarting(t *testing.T) {
	g := mcptest.StartGo(t, mcptest.GoOptions{Held: true})
	m := mcp.Start(mcp.Config{Servers: []mcp.Server{g.Config("slow")}}, mcp.Options{})
	t.Cleanup(m.Close)
	r := newRig(t, rigOptions{mcp: m.Statuses, mcpServers: m})
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	if text, _ := r.m.status.line(r.m.now()); !strings.Contains(text, "MCP starting: slow") {
		t.Fatalf("status %q", text)
	}
	g.Open()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for len(m.Starting()) > 0 {
		select {
		case <-m.Changed():
		case <-ctx.Done():
			t.Fatal("the server never started")
		}
	}
	r.send(mcpChangedMsg{})
	if text, _ := r.m.status.line(r.m.now()); strings.Contains(text, "MCP starting") {
		t.Errorf("status %q after the server started", text)
	}
}

// TestEnterNeverRunsAFuzzyMatch: with an MCP prompt offered, a command
// typed in full that does not exist (/init, /rev) is reported as unknown
// and stays in the editor; nothing goes to the model. The prompt runs
// only when the person takes it from the list (arrows, then enter).
func TestEnterNeverRunsAFuzzyMatch(t *testing.T) {
	r, _, _ := mcpRig(t)
	for _, typed := range []string{"/init", "/rev"} {
		r.m.ed.SetValue("")
		r.typeText(typed)
		r.sendSync(key("enter"))
		if !strings.Contains(r.m.status.text, "Unknown command "+typed) || r.m.ed.Value() != typed || r.sentText() != "" {
			t.Errorf("%s: status %q, draft %q, sent %q", typed, r.m.status.text, r.m.ed.Value(), r.sentText())
		}
	}
}
