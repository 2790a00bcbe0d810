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
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/session"
)

// ProtocolVersion is the ACP version cairn speaks.
const ProtocolVersion = 1

type initializeParams struct {
	ProtocolVersion    *int               `json:"protocolVersion"`
	ClientCapabilities clientCapabilities `json:"clientCapabilities"`
	// ClientInfo is read only for the client's name (a malformed one is
	// no reason to refuse the connection).
	ClientInfo json.RawMessage `json:"clientInfo"`
}

type initializeResult struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities agentCapabilities `json:"agentCapabilities"`
	AuthMethods       []authMethod      `json:"authMethods"`
	AgentInfo         implementation    `json:"agentInfo"`
}

// authMethod is an AuthMethod of type agent (the default).
type authMethod struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// setupMethod is the authentication method cairn offers when no model
// provider has credentials: it is the instructions, since a key set in the
// editor's environment needs a restart of the agent to be seen.
const setupMethod = "cairn-provider-setup"

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
	var info implementation
	if json.Unmarshal(p.ClientInfo, &info) == nil {
		s.clientName = firstLine(info.Title)
		if s.clientName == "" {
			s.clientName = firstLine(info.Name)
		}
	}
	threads := make([]*thread, 0, len(s.threads))
	for _, t := range s.threads {
		threads = append(threads, t)
	}
	s.mu.Unlock()
	for _, t := range threads {
		if s.live == nil {
			useClient(t, s, p.ClientCapabilities)
		}
	}
	version := s.host.Version
	if version == "" {
		version = "dev"
	}
	if s.live != nil {
		return initializeResult{
			ProtocolVersion: ProtocolVersion,
			AgentCapabilities: agentCapabilities{LoadSession: true,
				PromptCapabilities:  promptCaps{Image: true, EmbeddedContext: true},
				SessionCapabilities: map[string]any{"list": struct{}{}, "close": struct{}{}}},
			AuthMethods: []authMethod{},
			AgentInfo:   implementation{Name: "cairn", Title: "cairn", Version: version},
		}, nil
	}
	return initializeResult{
		ProtocolVersion: ProtocolVersion,
		AgentCapabilities: agentCapabilities{
			LoadSession:         !s.inMemory,
			PromptCapabilities:  promptCaps{Image: true, EmbeddedContext: true},
			SessionCapabilities: sessionCaps(!s.inMemory),
			// With Open, the client's MCP servers are started, over any
			// transport cairn's own configuration takes.
			MCPCapabilities: mcpCaps{HTTP: s.host.Open != nil, SSE: s.host.Open != nil},
		},
		AuthMethods: s.authMethods(),
		AgentInfo:   implementation{Name: "cairn", Title: "cairn", Version: version},
	}, nil
}

// authMethods offers the set-up instructions while no provider has
// credentials, and nothing once one has.
func (s *server) authMethods() []authMethod {
	if s.host.Unconfigured == "" {
		return []authMethod{}
	}
	return []authMethod{{ID: setupMethod, Name: "Set up a model provider", Description: s.host.Unconfigured}}
}

// needsAuth is the auth_required error of a session request made while no
// provider has credentials, or nil.
func (s *server) needsAuth() *rpcError {
	if s.host.Unconfigured == "" {
		return nil
	}
	return errorf(CodeAuthRequired, "Authentication required: %s; then restart the agent", s.host.Unconfigured)
}

// sessionCaps offers session/close, and session/list and session/resume
// when sessions are stored.
func sessionCaps(stored bool) map[string]any {
	if !stored {
		return map[string]any{"close": struct{}{}}
	}
	return map[string]any{"list": struct{}{}, "resume": struct{}{}, "close": struct{}{}}
}

// authenticate cannot log in for the client: cairn reads credentials from
// its environment and models.json when it starts. It answers with what to
// set, or, when a provider is configured, that nothing is needed.
func (s *server) authenticate(m message) (any, *rpcError) {
	var p struct {
		MethodID *string         `json:"methodId"`
		Meta     json.RawMessage `json:"_meta"`
	}
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if p.MethodID == nil {
		return nil, errorf(CodeInvalidParams, `Invalid params: "methodId" is required`)
	}
	if *p.MethodID != setupMethod {
		return nil, errorf(CodeInvalidParams, "Invalid params: unknown authentication method %q; cairn's is %q (it says what to set up)", jsonrpc2.Echo(*p.MethodID), setupMethod)
	}
	if s.host.Unconfigured == "" {
		// A provider is configured: nothing more is needed.
		return struct{}{}, nil
	}
	return nil, s.needsAuth()
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

// newSession opens a thread: a core session of its own (the host's while
// no thread holds it, else one the host opens) on a new conversation,
// answers, and then lists the slash commands (the client knows the session
// id by then). Other threads go on as they were.
func (s *server) newSession(m message) (any, *rpcError) {
	var p sessionParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if err := s.needsAuth(); err != nil {
		return nil, err
	}
	if s.live != nil {
		return s.liveNew(m, p)
	}
	dir, servers, rerr := s.where(p)
	if rerr != nil {
		return nil, rerr
	}
	b, opened, rerr := s.bind(dir, servers)
	if rerr != nil {
		return nil, rerr
	}
	if len(b.sess.Messages()) > 0 || b.sess.Conversation().ID == "" {
		if err := b.sess.NewConversation(""); err != nil {
			s.release(b, opened)
			return nil, busyError(err)
		}
	}
	// Written now, not at its first answer: an editor may resume it by id
	// before anything was said in it (acpx opens a new one otherwise).
	if err := b.sess.PersistConversation(); err != nil {
		s.warn("acp: %v", err)
	}
	t := s.attach(b, opened)
	t.send(response{JSONRPC: "2.0", ID: m.ID, Result: sessionResult{SessionID: t.id, Modes: modes(b), ConfigOptions: s.configOptions(b)}})
	s.sendCommands(t)
	return nil, nil
}

// sendCommands lists the slash commands of thread t. MCP servers still
// starting list their prompts once they have started (at most
// mcpSettleLimit later): the list is sent again then if it grew.
func (s *server) sendCommands(t *thread) {
	b := t.b
	cmds := commandsOf(b)
	notify(t, availableCommandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: cmds})
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
		if s.ctx.Err() != nil || !s.isOpen(t) {
			return
		}
		if later := commandsOf(b); len(later) != len(cmds) {
			notify(t, availableCommandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: later})
		}
	})
}

// isOpen reports whether thread t is still open.
func (s *server) isOpen(t *thread) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.threads[t.id] == t
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

// notify sends a session/update of thread t in order with its events.
func notify(t *thread, u any) {
	t.send(outRequest{JSONRPC: "2.0", Method: "session/update", Params: sessionUpdate{SessionID: t.id, Update: u}})
}

func busyError(err error) *rpcError {
	if errors.Is(err, agent.ErrBusy) || strings.Contains(err.Error(), "abort first") {
		return errorf(CodeInvalidRequest, "Invalid Request: %v", err)
	}
	return errorf(CodeInternalError, "%v", err)
}

// loadSession opens a stored conversation as a thread and replays it
// before answering; a thread open already is replayed as it stands.
func (s *server) loadSession(m message) (any, *rpcError) { return s.openStored(m, true) }

// resumeSession opens a stored conversation as a thread without replaying
// it; a thread open already (also one never prompted, so not stored yet)
// just answers.
func (s *server) resumeSession(m message) (any, *rpcError) { return s.openStored(m, false) }

func (s *server) openStored(m message, replay bool) (any, *rpcError) {
	var p sessionParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if err := s.needsAuth(); err != nil {
		return nil, err
	}
	if p.SessionID == nil || *p.SessionID == "" {
		return nil, errorf(CodeInvalidParams, `Invalid params: "sessionId" is required`)
	}
	if s.live != nil {
		if !replay {
			return nil, errNotLive(m.Method)
		}
		return s.liveOpen(m, *p.SessionID, p, true, false)
	}
	if s.inMemory {
		return nil, errorf(CodeMethodNotFound, "Method not found: %s (cairn was started with --no-session)", jsonrpc2.Echo(m.Method))
	}
	dir, servers, rerr := s.where(p)
	if rerr != nil {
		return nil, rerr
	}
	s.mu.Lock()
	t := s.threads[*p.SessionID]
	s.mu.Unlock()
	if t == nil {
		if t, rerr = s.openThread(*p.SessionID, dir, servers); rerr != nil {
			return nil, rerr
		}
	}
	if replay {
		s.replay(t, t.b.sess.Messages())
	}
	t.send(response{JSONRPC: "2.0", ID: m.ID, Result: sessionResult{Modes: modes(t.b), ConfigOptions: s.configOptions(t.b)}})
	s.sendCommands(t)
	return nil, nil
}

// openThread opens the conversation id stored for dir as a thread.
func (s *server) openThread(id, dir string, servers []mcp.Server) (*thread, *rpcError) {
	if !sameDir(dir, s.host.Cwd) && !s.storedIn(dir, id) {
		// Nothing is started for a session that is not there.
		return nil, errNoSession(id, dir)
	}
	b, opened, rerr := s.bind(dir, servers)
	if rerr != nil {
		return nil, rerr
	}
	if b.sess.Conversation().ID != id {
		infos, err := b.sess.ListConversations()
		if err != nil {
			s.release(b, opened)
			return nil, errorf(CodeInternalError, "list sessions: %v", err)
		}
		i := slices.IndexFunc(infos, func(info session.Info) bool { return info.ID == id })
		if i < 0 {
			s.release(b, opened)
			return nil, errNoSession(id, dir)
		}
		if err := b.sess.OpenConversation(infos[i].Path); err != nil {
			s.release(b, opened)
			return nil, busyError(err)
		}
	}
	return s.attach(b, opened), nil
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
	// Meta is ACP's _meta: for a live session, cairn's front end and state.
	Meta map[string]any `json:"_meta,omitempty"`
}

// listSessions lists the stored sessions of a directory, or of every
// directory when the request names none, newest first, in one page.
func (s *server) listSessions(m message) (any, *rpcError) {
	var p listParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if p.Cursor != nil {
		return nil, errorf(CodeInvalidParams, "Invalid params: cairn lists every session in one page and gives no cursors")
	}
	if s.live != nil {
		return s.liveList(p)
	}
	if s.inMemory {
		return nil, errorf(CodeMethodNotFound, "Method not found: session/list (cairn was started with --no-session)")
	}
	out := struct {
		Sessions []sessionInfo `json:"sessions"`
	}{Sessions: []sessionInfo{}}
	var infos []session.Info
	var err error
	switch {
	case p.Cwd != nil && !filepath.IsAbs(*p.Cwd):
		return nil, errorf(CodeInvalidParams, `Invalid params: "cwd" must be an absolute path, not %q`, *p.Cwd)
	case p.Cwd != nil && sameDir(*p.Cwd, s.host.Cwd) || p.Cwd == nil && s.host.ListSessions == nil:
		infos, err = s.first.sess.ListConversations()
	case s.host.ListSessions == nil:
		return out, nil
	case p.Cwd == nil:
		infos, err = s.host.ListSessions("")
	default:
		infos, err = s.host.ListSessions(filepath.Clean(*p.Cwd))
	}
	if err != nil {
		return nil, errorf(CodeInternalError, "list sessions: %v", err)
	}
	for _, info := range infos {
		title := info.Name
		if title == "" {
			title = firstLine(info.FirstMessage)
		}
		cwd := info.Cwd
		if cwd == "" {
			cwd = s.host.Cwd
		}
		si := sessionInfo{SessionID: info.ID, Cwd: cwd, Title: title}
		if !info.Modified.IsZero() {
			si.UpdatedAt = info.Modified.UTC().Format(time.RFC3339)
		}
		out.Sessions = append(out.Sessions, si)
	}
	return out, nil
}
