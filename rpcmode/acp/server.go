package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/jsonl"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/tools"
)

// Models is the model catalog as the adapter needs it; *catalog.Catalog
// satisfies it.
type Models interface {
	// Available lists the models that can be used.
	Available() []core.Model
}

// ApprovalModes reports and switches the approval mode and takes the
// client's "always deny"; *approval.Gate is one.
type ApprovalModes interface {
	Mode() approval.Mode
	SetMode(approval.Mode)
	DenyTool(name string)
}

// Host is what Serve adapts. Session, Approvals and Cwd are required.
type Host struct {
	// Session is the core session; its current conversation is the ACP
	// session.
	Session *agent.Session
	// Approvals is the gate whose mode session/set_mode switches.
	Approvals ApprovalModes
	// Models lists the models offered by the "model" config option; nil
	// offers only the current one.
	Models Models
	// Tools are the session's tools, for their ACP kinds.
	Tools []core.Tool
	// Workspace is where the session's built-in tools read, write and run
	// commands; when the client offers its file system or terminals in
	// initialize, Serve routes them there. nil keeps them local.
	Workspace *tools.Workspace
	// Prompts are the prompt templates, offered as slash commands; a prompt
	// starting with /name sends the template's text.
	Prompts prompts.Templates
	// MCPPrompts offers the MCP servers' prompts as slash commands
	// (/mcp__<server>__<prompt>); a prompt starting with one sends what the
	// server returns for it. nil offers none.
	MCPPrompts *mcp.Manager
	// Cwd is the directory cairn works in (absolute).
	Cwd string
	// Version is cairn's version, for agentInfo.
	Version string
	// MaxFrameBytes overrides MaxFrameBytes (for tests).
	MaxFrameBytes int
	// ClientCallLimit overrides ClientCallLimit (for tests).
	ClientCallLimit time.Duration
	// Warn receives what is worth telling a person but not the client
	// (stderr); nil drops it.
	Warn func(string)
	// Open builds a session for a directory, with the MCP servers the
	// client asks for beside cairn's own (ACP's mcpServers): for
	// session/new or session/load naming another directory, or other
	// servers. Serve then serves that session. nil refuses other
	// directories and ignores the client's servers.
	Open func(cwd string, servers []mcp.Server) (Host, error)
	// ListSessions lists the stored sessions of another directory for
	// session/list; nil lists none.
	ListSessions func(cwd string) ([]session.Info, error)
	// Close ends this host's session when Serve moves to another directory
	// (Open) or, for a host Open built, when Serve returns. nil leaves it
	// to the caller.
	Close func()
}

// Serve speaks ACP on in and out until in ends or ctx is cancelled, then
// cancels the running turn, waits for the session to settle, writes the
// last frames and returns. It returns an error only when reading or
// writing failed; the caller closes h's session afterwards (which writes
// its file), and Serve closes the sessions it opened with h.Open. After a
// cancellation a read of in may still be blocked; close in to end it.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Host) error {
	if h.Session == nil || h.Approvals == nil || h.Cwd == "" {
		return errors.New("acp.Serve: Host.Session, Host.Approvals and Host.Cwd are required")
	}
	s := newServer(h)
	first := s.b()
	w := &writer{srv: s, sess: first.sess, out: bufio.NewWriterSize(out, 64<<10)}
	written := make(chan struct{})
	go w.run(first.sub, written)

	readErr := jsonl.ReadUntil(ctx, s.ctx, func() error { return s.readLoop(in) })
	s.shutdown()
	last := s.b()
	last.sub.Mark(markEnd{})
	<-written
	s.closing.Wait()
	last.sub.Stop()
	if last != first && last.host.Close != nil {
		last.host.Close()
	}
	return jsonl.Served("acp", readErr, w.err)
}

// bound is the core session the adapter serves now, with what belongs to
// it: its host, its event subscription and its tools' ACP kinds.
type bound struct {
	host  Host
	sess  *agent.Session
	sub   *agent.Subscription
	kinds map[string]core.ToolKind
	// servers are the MCP servers the client asked the session for.
	servers []mcp.Server
}

func newBound(h Host) *bound {
	b := &bound{host: h, sess: h.Session, sub: h.Session.Follow(), kinds: map[string]core.ToolKind{}}
	for _, t := range h.Tools {
		b.kinds[t.Spec().Name] = t.Kind()
	}
	return b
}

// server is one Serve call's state.
type server struct {
	// host is the Host Serve was given; its settings (Version, limits,
	// Warn, Open) hold for every session.
	host Host
	cur  atomic.Pointer[bound]

	ctx    context.Context
	cancel context.CancelFunc

	mu          sync.Mutex
	sessionID   string               // the open ACP session, "" before session/new or load
	prompting   bool                 // a session/prompt is unanswered
	promptID    json.RawMessage      // its request id
	cancelled   bool                 // session/cancel arrived for it
	nextOut     int                  // the id of cairn's next request
	permissions map[int]permit       // request_permission ids awaiting answers
	pending     map[int]chan message // fs and terminal requests awaiting answers
	choices     map[string]choice
	caps        clientCapabilities // what the client offered in initialize
	expanding   context.CancelFunc // stops the MCP prompt the prompt is expanding
	closing     sync.WaitGroup     // sessions moved away from, being closed
	background  sync.WaitGroup     // goroutines that end with ctx
	stopping    bool               // shutdown began: nothing more starts in the background
}

func newServer(h Host) *server {
	s := &server{host: h, nextOut: 1,
		permissions: map[int]permit{}, pending: map[int]chan message{}, choices: map[string]choice{}}
	s.cur.Store(newBound(h))
	if s.host.MaxFrameBytes <= 0 {
		s.host.MaxFrameBytes = MaxFrameBytes
	}
	if s.host.ClientCallLimit <= 0 {
		s.host.ClientCallLimit = ClientCallLimit
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// b is the session served now.
func (s *server) b() *bound { return s.cur.Load() }

func (s *server) warn(format string, args ...any) {
	if s.host.Warn != nil {
		s.host.Warn(fmt.Sprintf(format, args...))
	}
}

// readLoop reads and dispatches frames until the input ends.
func (s *server) readLoop(in io.Reader) error {
	fr := jsonl.NewReader(in, s.host.MaxFrameBytes).SkipBlank()
	for {
		frame, tooLong, err := fr.Next()
		if err != nil {
			return err
		}
		if tooLong {
			s.replyError(nil, errorf(CodeInvalidRequest, "Invalid Request: the frame is longer than %d bytes and was skipped", s.host.MaxFrameBytes))
			continue
		}
		if s.ctx.Err() != nil {
			return nil
		}
		m, id, rerr := decodeMessage(frame)
		if rerr != nil {
			s.replyError(id, rerr)
			continue
		}
		s.dispatch(m)
	}
}

// settleLimit bounds how long shutdown waits for a cancelled turn (a tool
// that ignores cancellation) before cairn exits anyway.
const settleLimit = 10 * time.Second

// shutdown cancels the running turn and waits, at most settleLimit, for
// the session to settle.
func (s *server) shutdown() {
	s.cancel()
	// What runs in the background ends with ctx, and none of it starts a
	// turn after that; then the running turn is stopped.
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	s.background.Wait()
	s.b().sess.Abort()
	ctx, cancel := context.WithTimeout(context.Background(), settleLimit)
	defer cancel()
	_ = s.b().sess.Wait(ctx)
}

// goBackground runs f on a goroutine that shutdown waits for; f must end
// soon after s.ctx does. It reports false, running nothing, once shutdown
// has begun.
func (s *server) goBackground(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return false
	}
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		f()
	}()
	return true
}

// dispatch handles one message.
func (s *server) dispatch(m message) {
	switch m.Kind {
	case jsonrpc2.Response:
		s.answered(m)
		return
	case jsonrpc2.Notification:
		switch m.Method {
		case "session/cancel":
			s.cancelPrompt(m.Params)
		case "$/cancel_request":
			s.cancelRequest(m.Params)
		default:
			// Unknown notifications, extensions (_x) and $/cancel_request
			// among them, are ignored as the protocol asks.
		}
		return
	}
	h, ok := methods[m.Method]
	if !ok {
		s.replyError(m.ID, errorf(CodeMethodNotFound, "Method not found: %s", jsonrpc2.Echo(m.Method)))
		return
	}
	result, rerr := h(s, m)
	if rerr != nil {
		s.replyError(m.ID, rerr)
		return
	}
	if result != nil {
		s.reply(m.ID, result)
	}
}

// handler answers a request: a result, an error, or (nil, nil) when the
// answer is sent later (session/prompt).
type handler func(*server, message) (any, *rpcError)

var methods map[string]handler

func init() {
	methods = map[string]handler{
		"initialize":                (*server).initialize,
		"authenticate":              (*server).authenticate,
		"session/new":               (*server).newSession,
		"session/load":              (*server).loadSession,
		"session/resume":            (*server).resumeSession,
		"session/list":              (*server).listSessions,
		"session/prompt":            (*server).prompt,
		"session/set_mode":          (*server).setMode,
		"session/set_config_option": (*server).setConfigOption,
		rewindMethod:                (*server).rewind,
	}
}

// response is a JSON-RPC response frame.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// outRequest is a request or notification cairn sends.
type outRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *int   `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

var nullID = json.RawMessage("null")

func (s *server) reply(id json.RawMessage, result any) {
	s.send(response{JSONRPC: "2.0", ID: id, Result: result})
}

func (s *server) replyError(id json.RawMessage, e *rpcError) {
	if id == nil {
		id = nullID
	}
	s.send(response{JSONRPC: "2.0", ID: id, Error: e})
}

// send writes a frame in order with the session's events.
func (s *server) send(frame any) {
	line, err := json.Marshal(frame)
	if err != nil {
		s.warn("acp: cannot encode a frame: %v", err)
		return
	}
	s.b().sub.Mark(markLine{line})
}

// markLine is a frame of the adapter's own, placed among the events.
type markLine struct{ line []byte }

// markEnd tells the writer that nothing follows.
type markEnd struct{}

// markPrompt opens a prompt turn: its request id, before the session's
// events for it.
type markPrompt struct{ id json.RawMessage }

// markRefused answers a prompt the session refused, or (err nil) one
// cancelled before its turn started.
type markRefused struct {
	id  json.RawMessage
	err *rpcError
}

func (markLine) EventType() string    { return "acp_line" }
func (markEnd) EventType() string     { return "acp_end" }
func (markPrompt) EventType() string  { return "acp_prompt" }
func (markRefused) EventType() string { return "acp_refused" }
