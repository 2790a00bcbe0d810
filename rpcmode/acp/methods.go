package acp

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/cairn-dev/cairn/core/toolset"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
	"github.com/cairn-dev/cairn/core/session"
)

// ProtocolVersion is the ACP version cairn speaks.
const ProtocolVersion = 1

type initializeParams struct {
	ProtocolVersion    *int               `json:"protocolVersion"`
	ClientCapabilities clientCapabilities `json:"clientCapabilities"`
}

type initializeResult struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities agentCapabilities `json:"agentCapabilities"`
	AuthMethods       []struct{}        `json:"authMethods"`
	AgentInfo         implementation    `json:"agentInfo"`
}

type agentCapabilities struct {
	LoadSession         bool           `json:"loadSession"`
	PromptCapabilities  promptCaps     `json:"promptCapabilities"`
	MCPCapabilities     mcpCaps        `json:"mcpCapabilities"`
	SessionCapabilities map[string]any `json:"sessionCapabilities"`
}

type promptCaps struct {
	Image           bool `json:"image"`
	Audio           bool `json:"audio"`
	EmbeddedContext bool `json:"embeddedContext"`
}

type mcpCaps struct {
	HTTP bool `json:"http"`
	SSE  bool `json:"sse"`
}

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// initialize answers with protocol version 1 whatever the client asks
// for (the client disconnects if it cannot speak it) and with what cairn
// really does: load when sessions are stored, images and embedded context
// in prompts, no audio, no MCP servers.
func (s *server) initialize(m message) (any, *rpcError) {
	var p initializeParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion == nil {
		return nil, errorf(CodeInvalidParams, `Invalid params: "protocolVersion" is required`)
	}
	s.mu.Lock()
	s.caps = p.ClientCapabilities
	s.mu.Unlock()
	useClient(s.b(), s, p.ClientCapabilities)
	version := s.host.Version
	if version == "" {
		version = "dev"
	}
	return initializeResult{
		ProtocolVersion: ProtocolVersion,
		AgentCapabilities: agentCapabilities{
			LoadSession:         !s.b().sess.InMemory(),
			PromptCapabilities:  promptCaps{Image: true, EmbeddedContext: true},
			SessionCapabilities: sessionCaps(!s.b().sess.InMemory()),
			// With Open, the client's MCP servers are started, over any
			// transport cairn's own configuration takes.
			MCPCapabilities: mcpCaps{HTTP: s.host.Open != nil, SSE: s.host.Open != nil},
		},
		AuthMethods: []struct{}{},
		AgentInfo:   implementation{Name: "cairn", Title: "cairn", Version: version},
	}, nil
}

// sessionCaps offers session/list and session/resume when sessions are
// stored.
func sessionCaps(stored bool) map[string]any {
	if !stored {
		return map[string]any{}
	}
	return map[string]any{"list": struct{}{}, "resume": struct{}{}}
}

// authenticate refuses: cairn offers no ACP authentication methods.
func (s *server) authenticate(message) (any, *rpcError) {
	return nil, errorf(CodeInvalidParams, "Invalid params: cairn has no ACP authentication methods; it uses the provider credentials in its own settings (run cairn once in a terminal and use /login)")
}

type sessionParams struct {
	SessionID  *string         `json:"sessionId"`
	Cwd        *string         `json:"cwd"`
	MCPServers json.RawMessage `json:"mcpServers"`
}

type sessionResult struct {
	SessionID     string         `json:"sessionId,omitempty"`
	Modes         modeState      `json:"modes"`
	ConfigOptions []configOption `json:"configOptions"`
}

// newSession starts a conversation, answers, and then lists the slash
// commands (the client knows the session id by then). The first one reuses
// the conversation cairn started with when it is still empty.
func (s *server) newSession(m message) (any, *rpcError) {
	var p sessionParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if err := s.place(p, nil); err != nil {
		return nil, err
	}
	s.mu.Lock()
	first := s.sessionID == ""
	s.mu.Unlock()
	if !first || len(s.b().sess.Messages()) > 0 {
		if err := s.b().sess.NewConversation(""); err != nil {
			return nil, busyError(err)
		}
	}
	id := s.open()
	s.reply(m.ID, sessionResult{SessionID: id, Modes: s.modes(), ConfigOptions: s.configOptions()})
	s.sendCommands(id)
	return nil, nil
}

// open makes the current conversation the ACP session.
func (s *server) open() string {
	id := s.b().sess.Conversation().ID
	s.mu.Lock()
	s.sessionID = id
	s.mu.Unlock()
	s.b().sub.Mark(markSession{id})
	return id
}

// sendCommands lists the slash commands of session id. MCP servers still
// starting list their prompts once they have started (at most
// mcpSettleLimit later): the list is sent again then if it grew.
func (s *server) sendCommands(id string) {
	b := s.b()
	cmds := commandsOf(b)
	s.notify(id, availableCommandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: cmds})
	if b.host.MCPPrompts == nil && b.host.Extensions == nil {
		return
	}
	s.goBackground(func() {
		ctx, cancel := context.WithTimeout(s.ctx, mcpSettleLimit)
		defer cancel()
		if b.host.MCPPrompts != nil {
			b.host.MCPPrompts.WaitSettled(ctx)
		}
		if b.host.Extensions != nil {
			toolset.New(nil, toolset.Options{Limit: mcpSettleLimit}, b.host.Extensions).Wait(ctx, nil)
		}
		if s.ctx.Err() != nil || s.currentSession() != id || s.b() != b {
			return
		}
		if later := commandsOf(b); len(later) != len(cmds) {
			s.notify(id, availableCommandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: later})
		}
	})
}

// mcpSettleLimit bounds the wait for MCP servers to start before their
// prompts are listed as commands.
const mcpSettleLimit = 2 * time.Minute

// commandsOf lists b's prompt templates and the prompts of its ready MCP
// servers.
func commandsOf(b *bound) []command {
	cmds := make([]command, 0, len(b.host.Prompts))
	for _, t := range b.host.Prompts {
		c := command{Name: t.Name, Description: t.Description}
		if t.ArgumentHint != "" {
			c.Input = &commandInput{Hint: t.ArgumentHint}
		}
		cmds = append(cmds, c)
	}
	for _, p := range b.host.MCPPrompts.PromptCommands() {
		// The usage goes in the input hint, not in the description too.
		c := command{Name: p.Name, Description: strings.TrimSpace(strings.TrimSuffix(p.Description(), p.Usage()))}
		if u := p.Usage(); u != "" {
			c.Input = &commandInput{Hint: u}
		}
		cmds = append(cmds, c)
	}
	if b.host.Extensions != nil {
		for _, e := range b.host.Extensions.Commands() {
			cmds = append(cmds, command{Name: e.Name, Description: e.Description})
		}
	}
	return cmds
}

// notify sends a session/update in order with the events.
func (s *server) notify(id string, u any) {
	s.send(outRequest{JSONRPC: "2.0", Method: "session/update", Params: sessionUpdate{SessionID: id, Update: u}})
}

func busyError(err error) *rpcError {
	if errors.Is(err, agent.ErrBusy) || strings.Contains(err.Error(), "abort first") {
		return errorf(CodeInvalidRequest, "Invalid Request: %v", err)
	}
	return errorf(CodeInternalError, "%v", err)
}

// loadSession switches to a stored conversation and replays it before
// answering.
func (s *server) loadSession(m message) (any, *rpcError) { return s.switchSession(m, true) }

// resumeSession switches to a stored conversation without replaying it.
func (s *server) resumeSession(m message) (any, *rpcError) { return s.switchSession(m, false) }

func (s *server) switchSession(m message, replay bool) (any, *rpcError) {
	var p sessionParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if p.SessionID == nil || *p.SessionID == "" {
		return nil, errorf(CodeInvalidParams, `Invalid params: "sessionId" is required`)
	}
	if s.b().sess.InMemory() {
		return nil, errorf(CodeMethodNotFound, "Method not found: %s (cairn was started with --no-session)", jsonrpc2.Echo(m.Method))
	}
	// Only move to another directory for a session that is there.
	if err := s.place(p, func(dir string) bool { return s.storedIn(dir, *p.SessionID) }); err != nil {
		return nil, err
	}
	if s.b().sess.Conversation().ID != *p.SessionID {
		infos, err := s.b().sess.ListConversations()
		if err != nil {
			return nil, errorf(CodeInternalError, "list sessions: %v", err)
		}
		i := slices.IndexFunc(infos, func(info session.Info) bool { return info.ID == *p.SessionID })
		if i < 0 {
			return nil, errNoSession(*p.SessionID, s.b().host.Cwd)
		}
		if err := s.b().sess.OpenConversation(infos[i].Path); err != nil {
			return nil, busyError(err)
		}
	}
	id := s.open()
	if replay {
		s.replay(id, s.b().sess.Messages())
	}
	s.reply(m.ID, sessionResult{Modes: s.modes(), ConfigOptions: s.configOptions()})
	s.sendCommands(id)
	return nil, nil
}

type listParams struct {
	Cwd    *string `json:"cwd"`
	Cursor *string `json:"cursor"`
}

type sessionInfo struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

// listSessions lists the stored sessions of cairn's directory, newest
// first, in one page.
func (s *server) listSessions(m message) (any, *rpcError) {
	var p listParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if p.Cursor != nil {
		return nil, errorf(CodeInvalidParams, "Invalid params: cairn lists every session in one page and gives no cursors")
	}
	if s.b().sess.InMemory() {
		return nil, errorf(CodeMethodNotFound, "Method not found: session/list (cairn was started with --no-session)")
	}
	out := struct {
		Sessions []sessionInfo `json:"sessions"`
	}{Sessions: []sessionInfo{}}
	dir := s.b().host.Cwd
	var infos []session.Info
	var err error
	switch {
	case p.Cwd == nil || sameDir(*p.Cwd, dir):
		infos, err = s.b().sess.ListConversations()
	case s.host.ListSessions == nil || !filepath.IsAbs(*p.Cwd):
		return out, nil
	default:
		dir = filepath.Clean(*p.Cwd)
		infos, err = s.host.ListSessions(dir)
	}
	if err != nil {
		return nil, errorf(CodeInternalError, "list sessions: %v", err)
	}
	for _, info := range infos {
		title := info.Name
		if title == "" {
			title = firstLine(info.FirstMessage)
		}
		si := sessionInfo{SessionID: info.ID, Cwd: dir, Title: title}
		if !info.Modified.IsZero() {
			si.UpdatedAt = info.Modified.UTC().Format(time.RFC3339)
		}
		out.Sessions = append(out.Sessions, si)
	}
	return out, nil
}

// session checks that a request names the open session.
func (s *server) session(id *string) *rpcError {
	if id == nil {
		return errorf(CodeInvalidParams, `Invalid params: "sessionId" is required`)
	}
	s.mu.Lock()
	open := s.sessionID
	s.mu.Unlock()
	if open == "" || *id != open {
		return notFound(*id, "no open session "+*id)
	}
	return nil
}
