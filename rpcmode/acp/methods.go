package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
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
	return &rpcError{Code: CodeResourceNotFound, Message: "Resource not found: no session " + id + " in " + dir, Data: map[string]string{"uri": id}}
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
	if b.host.MCPPrompts == nil {
		return
	}
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		ctx, cancel := context.WithTimeout(s.ctx, mcpSettleLimit)
		defer cancel()
		b.host.MCPPrompts.WaitSettled(ctx)
		if s.ctx.Err() != nil || s.currentSession() != id || s.b() != b {
			return
		}
		if later := commandsOf(b); len(later) != len(cmds) {
			s.notify(id, availableCommandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: later})
		}
	}()
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

// storedIn reports whether the session id is stored for dir.
func (s *server) storedIn(dir, id string) bool {
	if s.host.ListSessions == nil {
		return false
	}
	infos, err := s.host.ListSessions(dir)
	return err == nil && slices.ContainsFunc(infos, func(info session.Info) bool { return info.ID == id })
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
		return &rpcError{Code: CodeResourceNotFound, Message: "Resource not found: no open session " + *id, Data: map[string]string{"uri": *id}}
	}
	return nil
}

type promptParams struct {
	SessionID *string           `json:"sessionId"`
	Prompt    []json.RawMessage `json:"prompt"`
}

// prompt starts a turn; the writer answers it when the session settles.
func (s *server) prompt(m message) (any, *rpcError) {
	var p promptParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if err := s.session(p.SessionID); err != nil {
		return nil, err
	}
	text, images, err := promptContent(p.Prompt)
	if err != nil {
		return nil, err
	}
	if expanded, ok := s.b().host.Prompts.Expand(text); ok {
		text = expanded
	}
	s.mu.Lock()
	if s.prompting {
		s.mu.Unlock()
		return nil, errorf(CodeInvalidRequest, "Invalid Request: a prompt is already running in this session; cancel it first")
	}
	s.prompting, s.cancelled, s.promptID = true, false, m.ID
	s.mu.Unlock()
	b := s.b()
	b.sub.Mark(markPrompt{m.ID})
	if servers := b.host.MCPPrompts; servers != nil && strings.HasPrefix(text, "/mcp__") {
		// Asking the server may wait for it to start: not on the reader,
		// so that session/cancel is read meanwhile.
		ctx, cancel := context.WithCancel(s.ctx)
		s.mu.Lock()
		s.expanding = cancel
		s.mu.Unlock()
		go func() {
			defer cancel()
			exp, ok, err := servers.ExpandPrompt(ctx, text)
			s.mu.Lock()
			s.expanding = nil
			cancelled := s.cancelled
			s.mu.Unlock()
			switch {
			case cancelled:
				b.sub.Mark(markRefused{id: m.ID})
			case ok && err != nil:
				b.sub.Mark(markRefused{id: m.ID, err: errorf(CodeInvalidParams, "Invalid params: %v", err)})
			case ok:
				s.start(b, m.ID, exp.Text, append(exp.Images, images...))
			default:
				s.start(b, m.ID, text, images)
			}
		}()
		return nil, nil
	}
	s.start(b, m.ID, text, images)
	return nil, nil
}

// start runs the prompt's turn in b's session.
func (s *server) start(b *bound, id json.RawMessage, text string, images []core.Content) {
	if err := b.sess.Prompt(text, images, agent.BehaviorNone); err != nil {
		b.sub.Mark(markRefused{id: id, err: busyError(err)})
	}
}

// endPrompt closes the prompt and reports whether it was cancelled.
func (s *server) endPrompt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cancelled
	s.prompting, s.cancelled, s.promptID = false, false, nil
	return c
}

// cancelPrompt handles session/cancel: the running turn is aborted (a
// pending permission request is dismissed with it) and its prompt is
// answered "cancelled".
func (s *server) cancelPrompt(raw json.RawMessage) {
	var p sessionParams
	if decodeParams(raw, &p) != nil || s.session(p.SessionID) != nil {
		return
	}
	s.abortPrompt(nil)
}

// cancelling reports whether the client cancelled the running prompt.
func (s *server) cancelling() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancelled
}

// cancelRequest handles $/cancel_request: cancelling the running
// session/prompt request cancels its turn as session/cancel does; other
// requests are answered at once, so there is nothing to cancel.
func (s *server) cancelRequest(raw json.RawMessage) {
	var p cancelRequest
	if decodeParams(raw, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	s.abortPrompt(p.RequestID)
}

// abortPrompt cancels the running prompt, if there is one and (when id is
// set) its request id is id.
func (s *server) abortPrompt(id json.RawMessage) {
	s.mu.Lock()
	running := s.prompting && (id == nil || bytes.Equal(bytes.TrimSpace(id), s.promptID))
	if running {
		s.cancelled = true
		if s.expanding != nil {
			s.expanding()
		}
	}
	s.mu.Unlock()
	if running {
		s.b().sess.Abort()
	}
}

// promptContent reads a prompt's content blocks: text, resource links
// (named in the text), embedded text resources (inlined) and images.
func promptContent(blocks []json.RawMessage) (string, []core.Content, *rpcError) {
	if len(blocks) == 0 {
		return "", nil, errorf(CodeInvalidParams, `Invalid params: "prompt" needs at least one content block`)
	}
	var parts []string
	var images []core.Content
	for i, raw := range blocks {
		var b struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Data     string `json:"data"`
			MimeType string `json:"mimeType"`
			URI      string `json:"uri"`
			Name     string `json:"name"`
			Resource *struct {
				URI      string  `json:"uri"`
				Text     *string `json:"text"`
				Blob     *string `json:"blob"`
				MimeType string  `json:"mimeType"`
			} `json:"resource"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return "", nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: %v", i, err)
		}
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			if b.Data == "" || b.MimeType == "" {
				return "", nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: an image needs data and mimeType", i)
			}
			images = append(images, core.ImageBlock(b.Data, b.MimeType))
		case "resource_link":
			name := b.Name
			if name == "" {
				name = b.URI
			}
			parts = append(parts, "["+name+"]("+b.URI+")")
		case "resource":
			if b.Resource == nil {
				return "", nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: a resource block needs a resource", i)
			}
			if b.Resource.Text == nil {
				return "", nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: cairn takes text resources only, %s is binary", i, b.Resource.URI)
			}
			parts = append(parts, "<context uri=\""+b.Resource.URI+"\">\n"+*b.Resource.Text+"\n</context>")
		default:
			return "", nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: cairn does not take %q content", i, b.Type)
		}
	}
	return strings.Join(parts, "\n"), images, nil
}
