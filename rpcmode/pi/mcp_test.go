package pi

import (
	"errors"
	"testing"

	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestGetMCPServers: get_mcp_servers lists each server with its state, its
// tools under the names the model calls them by, and why a failed one
// failed; with no MCP it answers an empty list.
func TestGetMCPServers(t *testing.T) {
	no := false
	statuses := []mcp.Status{
		{Server: mcp.Server{Name: "everything", Source: "/home/u/.cairn/mcp.json", Transport: mcp.TransportStdio, Command: "npx", Args: []string{"server-everything"}},
			State: mcp.Ready, Tools: []mcp.ToolInfo{{Name: "echo", Description: "Echoes", ReadOnly: true, Destructive: &no}}},
		{Server: mcp.Server{Name: "broken", Source: "/p/.mcp.json", Transport: mcp.TransportStdio, Command: "false"},
			State: mcp.Failed, Err: errors.New("exit status 1"), Stderr: "boom"},
	}
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), mcp: func() []mcp.Status { return statuses }})
	r.send(map[string]any{"id": "m", "type": "get_mcp_servers"})
	res := r.response("m")
	if res.get("success") != true ||
		res.str("data.servers.0.name") != "everything" || res.str("data.servers.0.state") != "ready" ||
		res.str("data.servers.0.command") != "npx server-everything" ||
		res.str("data.servers.0.tools.0.name") != "mcp__everything__echo" || res.get("data.servers.0.tools.0.readOnly") != true ||
		res.get("data.servers.0.tools.0.destructive") != false ||
		res.str("data.servers.1.state") != "failed" || res.str("data.servers.1.error") != "exit status 1" || res.str("data.servers.1.stderr") != "boom" {
		t.Errorf("get_mcp_servers: %s", res.text)
	}

	r2 := newRig(t, rigConfig{faux: faux.New(faux.Options{})})
	r2.send(map[string]any{"id": "n", "type": "get_mcp_servers"})
	if res := r2.response("n"); res.get("success") != true || res.text == "" || res.get("data.servers") == nil {
		t.Errorf("without MCP: %s", res.text)
	}
}
