package aionrs

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/mcp"
)

// MCPAdder starts an MCP server in the running session and waits, within
// ctx, until it is ready; it returns the server's tools (their names as the
// server gives them), or why the server is not ready. *mcp.Manager's
// Connect is one.
type MCPAdder interface {
	Connect(ctx context.Context, s mcp.Server) ([]mcp.ToolInfo, error)
}

// mcpAnswerLimit bounds how long add_mcp_server waits for its server
// before answering: AionUi gives up after 30 s, so the answer comes first.
const mcpAnswerLimit = 25 * time.Second

// addMCP is an add_mcp_server command's server.
type addMCP struct {
	name, transport, command, url string
	args                          []string
	env, headers                  map[string]string
}

// server is the MCP server as cairn configures it, or why the command
// cannot give one.
func (a addMCP) server(dir string) (mcp.Server, error) {
	s := mcp.Server{Name: a.name, Source: "the host (add_mcp_server)", Timeout: mcp.DefaultTimeout, Dir: dir,
		Env: a.env, Headers: a.headers}
	switch a.transport {
	case "stdio":
		if strings.TrimSpace(a.command) == "" {
			return s, fmt.Errorf(`a stdio server needs "command"`)
		}
		s.Transport, s.Command, s.Args = mcp.TransportStdio, a.command, a.args
	case "sse", "streamable-http":
		if strings.TrimSpace(a.url) == "" {
			return s, fmt.Errorf(`an %s server needs "url"`, a.transport)
		}
		s.Transport, s.URL = mcp.TransportHTTP, a.url
		if a.transport == "sse" {
			s.Transport = mcp.TransportSSE
		}
	default:
		return s, fmt.Errorf(`transport must be "stdio", "sse" or "streamable-http", not %q`, a.transport)
	}
	return s, nil
}

// mcpReadyFrame answers add_mcp_server once the server is ready.
type mcpReadyFrame struct {
	Type  string   `json:"type"`
	Name  string   `json:"name"`
	Tools []string `json:"tools"`
}

// onAddMCPServer starts the server in the session, as aionrs does, only
// before the first message; the answer (mcp_ready, or an error saying why)
// comes when the server is ready or failed, within mcpAnswerLimit, while
// other commands go on being served.
func (s *server) onAddMCPServer(c command) {
	s.mu.Lock()
	late := s.started
	s.mu.Unlock()
	switch {
	case late:
		s.sendError("", fmt.Sprintf("add_mcp_server %q: rejected, only allowed before the first message", c.MCP.name))
		return
	case s.host.MCP == nil:
		s.sendError("", fmt.Sprintf("add_mcp_server %q: MCP is off in this run (--no-mcp)", c.MCP.name))
		return
	}
	srv, err := c.MCP.server(s.host.Dir)
	if err != nil {
		s.sendError("", fmt.Sprintf("add_mcp_server %q: %v", c.MCP.name, err))
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(s.ctx, mcpAnswerLimit)
		defer cancel()
		tools, err := s.host.MCP.Connect(ctx, srv)
		if err != nil {
			if ctx.Err() != nil && s.ctx.Err() == nil {
				err = fmt.Errorf("not ready within %s; it goes on starting, and its tools come when it is ready", mcpAnswerLimit)
			}
			s.sendError("", fmt.Sprintf("add_mcp_server %q failed: %v", srv.Name, err))
			return
		}
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		s.send(line(mcpReadyFrame{Type: "mcp_ready", Name: srv.Name, Tools: names}))
	}()
}
