package acp

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/session"
)

// checkCwd checks a session's directory: an absolute path, which is the
// directory cairn serves or, when the host can open others, a directory.
// It reports whether it is another one.
func (s *server) checkCwd(cwd *string) (other bool, _ *rpcError) {
	if cwd == nil {
		return false, errorf(CodeInvalidParams, `Invalid params: "cwd" is required`)
	}
	if !filepath.IsAbs(*cwd) {
		return false, errorf(CodeInvalidParams, `Invalid params: "cwd" must be an absolute path, not %q`, *cwd)
	}
	if sameDir(*cwd, s.b().host.Cwd) {
		return false, nil
	}
	if s.host.Open == nil {
		return false, errorf(CodeInvalidParams, "Invalid params: cairn serves %s, the directory it was started in; start it in %s to work there", s.b().host.Cwd, *cwd)
	}
	if info, err := os.Stat(*cwd); err != nil || !info.IsDir() {
		return false, errorf(CodeInvalidParams, "Invalid params: %s is not a directory cairn can work in", *cwd)
	}
	return true, nil
}

// moveTo makes cairn serve another directory: the host builds a session
// there (its own project trust, settings, rules and session files), the
// writer moves to its events once the old session's are written, and the
// old session is closed. Not while a prompt runs.
func (s *server) moveTo(cwd string, servers []mcp.Server) *rpcError {
	s.mu.Lock()
	busy, caps := s.prompting, s.caps
	s.mu.Unlock()
	if busy {
		return errorf(CodeInvalidRequest, "Invalid Request: a prompt is running in %s; cancel it before opening a session in %s", s.b().host.Cwd, cwd)
	}
	h, err := s.host.Open(cwd, servers)
	if err != nil {
		return errorf(CodeInternalError, "cannot start a session in %s: %v", cwd, err)
	}
	next := newBound(h)
	next.servers = servers
	useClient(next, s, caps)
	old := s.cur.Swap(next)
	s.mu.Lock()
	s.sessionID = ""
	s.mu.Unlock()
	done := make(chan struct{})
	old.sub.Mark(markHandoff{next: next, done: done})
	s.closing.Add(1)
	go func() {
		defer s.closing.Done()
		<-done
		old.sub.Stop()
		if old.host.Close != nil {
			old.host.Close()
		}
	}()
	return nil
}

func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// place makes cairn serve a session/new's or session/load's directory
// with the MCP servers the client asks for: it moves (moveTo) when the
// directory is another one, or when the servers differ from the current
// session's. exists, when set, must hold for another directory before
// cairn moves there.
func (s *server) place(p sessionParams, exists func(dir string) bool) *rpcError {
	other, rerr := s.checkCwd(p.Cwd)
	if rerr != nil {
		return rerr
	}
	cur := s.b()
	dir := cur.host.Cwd
	if other {
		dir = filepath.Clean(*p.Cwd)
	}
	servers, rerr := clientMCPServers(p.MCPServers, dir)
	if rerr != nil {
		return rerr
	}
	if s.host.Open == nil {
		if len(servers) > 0 {
			s.warn("acp: the client offered %d MCP server(s); this host cannot start them", len(servers))
		}
		return nil
	}
	if !other && reflect.DeepEqual(servers, cur.servers) {
		return nil
	}
	if other && exists != nil && !exists(dir) {
		return errNoSession(*p.SessionID, dir)
	}
	return s.moveTo(dir, servers)
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
