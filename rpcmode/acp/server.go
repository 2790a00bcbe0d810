package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/extension"
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
	// Extensions runs the session's extensions: their `/` commands are
	// offered too (listed again once those still starting are ready).
	// Nil means none.
	Extensions *extension.Manager
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
	// Unconfigured, when set, says that no model provider has credentials
	// and what to set: initialize offers it as an authentication method
	// and session/new, load and resume fail with auth_required saying it,
	// instead of cairn exiting before it could answer.
	Unconfigured string
	// StartNotice, when set, is told to the person at the start of each
	// session's first turn, in the agent's message (editors show no
	// stderr): what of an untrusted project was left out and how to trust
	// it.
	StartNotice string
	// Trust, when set with StartNotice, records the project as trusted
	// (as --trust-project does); the person is offered it once per
	// directory, at a session's first turn.
	Trust func() error
	// Close ends this host's session when Serve moves to another directory
	// (Open) or, for a host Open built, when Serve returns. nil leaves it
	// to the caller.
	Close func()
}

// Serve speaks ACP on in and out until in ends or ctx is cancelled, then
// cancels every running turn, waits for the sessions to settle, writes the
// last frames and returns. It returns an error only when reading or
// writing failed. Each ACP session is a core session of its own: the first
// one opened in h's directory (without MCP servers of the client's) is
// h.Session, every other one is built with h.Open, so any number run side
// by side, each with its own conversation, directory, model, mode, MCP
// servers and turn. The caller closes h's session afterwards; Serve closes
// the sessions it opened with h.Open. After a cancellation a read of in
// may still be blocked; close in to end it.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Host) error {
	if h.Session == nil || h.Approvals == nil || h.Cwd == "" {
		return errors.New("acp.Serve: Host.Session, Host.Approvals and Host.Cwd are required")
	}
	s := newServer(h, out)
	readErr := jsonl.ReadUntil(ctx, s.ctx, func() error { return s.readLoop(in) })
	s.shutdown()
	return jsonl.Served("acp", readErr, s.out.failure())
}

// bound is a core session the adapter serves, with what belongs to it:
// its host, its event subscription and its tools' ACP kinds.
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
	out  *output
	// inMemory: sessions are not stored (--no-session).
	inMemory bool

	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	threads map[string]*thread // the open ACP sessions by id
	// first is host's own session; spare is it while no thread holds it.
	first, spare *bound
	nextOut      int                  // the id of cairn's next request
	permissions  map[int]permit       // request_permission ids awaiting answers
	pending      map[int]chan message // fs and terminal requests awaiting answers
	caps         clientCapabilities   // what the client offered in initialize
	closing      sync.WaitGroup       // sessions being closed
	background   sync.WaitGroup       // goroutines that end with ctx
	stopping     bool                 // shutdown began: nothing more starts in the background
	trustOffered map[string]bool      // directories whose trust was offered
	// live: the connection attaches to the process's live sessions
	// (ServeLive); first and spare are nil then.
	live Live
	// target is the live session session/new attaches to (AttachMethod).
	target string
	// clientName is what the client called itself in initialize.
	clientName string
}

func newServer(h Host, out io.Writer) *server {
	s := newServerState(h, out)
	s.inMemory = h.Session.InMemory()
	s.first = newBound(h)
	s.spare = s.first
	return s
}

// newServerState is a server with no session of its own yet.
func newServerState(h Host, out io.Writer) *server {
	s := &server{host: h, threads: map[string]*thread{}, nextOut: 1,
		permissions: map[int]permit{}, pending: map[int]chan message{}, trustOffered: map[string]bool{}}
	if s.host.MaxFrameBytes <= 0 {
		s.host.MaxFrameBytes = MaxFrameBytes
	}
	if s.host.ClientCallLimit <= 0 {
		s.host.ClientCallLimit = ClientCallLimit
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.out = &output{w: bufio.NewWriterSize(out, 64<<10), failed: s.cancel}
	return s
}

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

// shutdown cancels the running turns and waits, at most settleLimit in
// all, for the sessions to settle; then each session's last frames are
// written and the sessions Serve opened are closed.
func (s *server) shutdown() {
	s.cancel()
	// What runs in the background ends with ctx, and none of it starts a
	// turn after that; then the running turns are stopped.
	s.mu.Lock()
	s.stopping = true
	threads := make([]*thread, 0, len(s.threads))
	for _, t := range s.threads {
		threads = append(threads, t)
	}
	s.threads = map[string]*thread{}
	s.mu.Unlock()
	s.background.Wait()
	if s.live != nil {
		// An attached client going leaves the sessions as they are.
		for _, t := range threads {
			s.liveDetach(t)
		}
		s.closing.Wait()
		s.out.flush()
		return
	}
	for _, t := range threads {
		t.b.sess.Abort()
	}
	ctx, cancel := context.WithTimeout(context.Background(), settleLimit)
	defer cancel()
	for _, t := range threads {
		_ = t.b.sess.Wait(ctx)
	}
	for _, t := range threads {
		s.detach(t)
	}
	s.closing.Wait()
	if s.first != nil {
		s.first.sub.Stop()
	}
	s.out.flush()
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
		case AttachMethod:
			if s.live != nil {
				s.setTarget(m.Params)
			}
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
	switch r := result.(type) {
	case nil:
		if rerr != nil {
			s.replyError(m.ID, rerr)
		}
	case inThread:
		// In order with the session's updates.
		r.t.send(response{JSONRPC: "2.0", ID: m.ID, Result: r.result})
	default:
		s.reply(m.ID, result)
	}
}

// inThread is a handler's result to be sent in order with the updates of
// session t (after the ones its request caused).
type inThread struct {
	t      *thread
	result any
}

// handler answers a request: a result (inThread for one about a session),
// an error, or (nil, nil) when the answer is sent later (session/prompt).
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
		"session/close":             (*server).closeSession,
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

// send writes a frame of the connection's own (an answer to initialize,
// an error) at once.
func (s *server) send(frame any) {
	line, err := json.Marshal(frame)
	if err != nil {
		s.warn("acp: cannot encode a frame: %v", err)
		return
	}
	s.out.frame(line)
}

// markLine is a frame of the adapter's own, placed among the events.
type markLine struct{ line []byte }

// markEnd tells the writer that nothing follows.
type markEnd struct{}

// markPrompt opens a prompt turn: its request id, before the session's
// events for it.
type markPrompt struct {
	id json.RawMessage
	// text is what the client sent, so an attached client is not sent its
	// own prompt back.
	text string
}

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
func (markNotice) EventType() string  { return "acp_notice" }

// markNotice is a notice of the adapter's own for the person, in the turn
// it is placed in.
type markNotice struct{ notice core.Notice }
