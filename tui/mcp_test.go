package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core/mcp"
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
