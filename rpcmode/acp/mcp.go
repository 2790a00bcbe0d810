package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/mcp"
)

// nameValue is ACP's EnvVariable and HttpHeader.
type nameValue struct {
	Name  *string `json:"name"`
	Value *string `json:"value"`
}

// mcpServerParams is one entry of mcpServers: stdio (no type, or
// "stdio"), "http" or "sse".
type mcpServerParams struct {
	Type    string      `json:"type"`
	Name    *string     `json:"name"`
	Command *string     `json:"command"`
	Args    []string    `json:"args"`
	Env     []nameValue `json:"env"`
	URL     *string     `json:"url"`
	Headers []nameValue `json:"headers"`
}

// maxClientMCPServers bounds the servers one session may ask for.
const maxClientMCPServers = 64

// clientMCPServers reads session/new's or session/load's mcpServers: the
// MCP servers the client wants the session to use, beside cairn's own
// configuration. A stdio server runs in the session's directory.
func clientMCPServers(raw json.RawMessage, cwd string) ([]mcp.Server, *rpcError) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []mcpServerParams
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errorf(CodeInvalidParams, `Invalid params: "mcpServers" must be an array of MCP servers: %v`, err)
	}
	if len(list) == 0 {
		return nil, nil
	}
	if len(list) > maxClientMCPServers {
		return nil, errorf(CodeInvalidParams, `Invalid params: "mcpServers" lists %d servers; cairn takes at most %d`, len(list), maxClientMCPServers)
	}
	out := make([]mcp.Server, 0, len(list))
	for i, p := range list {
		bad := func(format string, args ...any) *rpcError {
			return errorf(CodeInvalidParams, "Invalid params: mcpServers[%d]: %s", i, fmt.Sprintf(format, args...))
		}
		if p.Name == nil || strings.TrimSpace(*p.Name) == "" {
			return nil, bad(`"name" is required`)
		}
		s := mcp.Server{Name: *p.Name, Source: "the editor (ACP mcpServers)", Timeout: mcp.DefaultTimeout, Dir: cwd}
		if slices.ContainsFunc(out, func(o mcp.Server) bool { return o.Name == s.Name }) {
			return nil, bad("the name %q is used twice", s.Name)
		}
		switch p.Type {
		case "", "stdio":
			if p.Command == nil || *p.Command == "" {
				return nil, bad(`a stdio server needs "command"`)
			}
			if !filepath.IsAbs(*p.Command) && strings.ContainsRune(*p.Command, filepath.Separator) {
				return nil, bad("command %q must be absolute or a name found on PATH", *p.Command)
			}
			s.Transport, s.Command, s.Args = mcp.TransportStdio, *p.Command, p.Args
			env, err := pairs(p.Env, "env")
			if err != nil {
				return nil, bad("%v", err)
			}
			s.Env = env
		case "http", "sse":
			if p.URL == nil || !(strings.HasPrefix(*p.URL, "http://") || strings.HasPrefix(*p.URL, "https://")) {
				return nil, bad(`an %s server needs an http or https "url"`, p.Type)
			}
			s.Transport, s.URL = mcp.TransportHTTP, *p.URL
			if p.Type == "sse" {
				s.Transport = mcp.TransportSSE
			}
			headers, err := pairs(p.Headers, "headers")
			if err != nil {
				return nil, bad("%v", err)
			}
			s.Headers = headers
		default:
			return nil, bad("cairn does not know the transport %q", p.Type)
		}
		out = append(out, s)
	}
	return out, nil
}

func pairs(list []nameValue, what string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	m := make(map[string]string, len(list))
	for j, nv := range list {
		if nv.Name == nil || *nv.Name == "" || nv.Value == nil {
			return nil, fmt.Errorf(`%s[%d] needs "name" and "value"`, what, j)
		}
		m[*nv.Name] = *nv.Value
	}
	return m, nil
}
