package acp

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/session"
)

// where reads a session/new's or session/load's directory and MCP
// servers: an absolute path, which is the directory cairn was started in
// or, when the host can open others, a directory; and the servers the
// client asks for beside cairn's own.
func (s *server) where(p sessionParams) (string, []mcp.Server, *rpcError) {
	cwd := p.Cwd
	if cwd == nil {
		return "", nil, errorf(CodeInvalidParams, `Invalid params: "cwd" is required`)
	}
	if !filepath.IsAbs(*cwd) {
		return "", nil, errorf(CodeInvalidParams, `Invalid params: "cwd" must be an absolute path, not %q`, *cwd)
	}
	dir := s.host.Cwd
	if !sameDir(*cwd, dir) {
		if s.host.Open == nil {
			return "", nil, errorf(CodeInvalidParams, "Invalid params: cairn serves %s, the directory it was started in; start it in %s to work there", dir, *cwd)
		}
		if info, err := os.Stat(*cwd); err != nil || !info.IsDir() {
			return "", nil, errorf(CodeInvalidParams, "Invalid params: %s is not a directory cairn can work in", *cwd)
		}
		dir = filepath.Clean(*cwd)
	}
	servers, rerr := clientMCPServers(p.MCPServers, dir)
	if rerr != nil {
		return "", nil, rerr
	}
	if s.host.Open == nil && len(servers) > 0 {
		s.warn("acp: the client offered %d MCP server(s); this host cannot start them", len(servers))
		servers = nil
	}
	return dir, servers, nil
}

func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

func errNoSession(id, dir string) *rpcError {
	return notFound(id, "no session "+id+" in "+dir)
}

// notFound is ACP's resource-not-found error for the session id.
func notFound(id, what string) *rpcError {
	return &rpcError{Code: CodeResourceNotFound, Message: "Resource not found: " + what, Data: map[string]string{"uri": id}}
}

// storedIn reports whether the session id is stored for dir.
func (s *server) storedIn(dir, id string) bool {
	if s.host.ListSessions == nil {
		return false
	}
	infos, err := s.host.ListSessions(dir)
	return err == nil && slices.ContainsFunc(infos, func(info session.Info) bool { return info.ID == id })
}
