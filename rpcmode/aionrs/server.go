package aionrs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/jsonl"
)

// ModeSetter reports and switches the approval mode; *approval.Gate is
// one.
type ModeSetter interface {
	Mode() approval.Mode
	SetMode(approval.Mode)
}

// Host is everything Serve drives. Session and Approvals are required.
type Host struct {
	// Session is the conversation the commands act on. Its approver must
	// be the gate behind Approvals, so that approvals reach the host as
	// questions.
	Session *agent.Session
	// Models lists the models set_config may switch to by id; nil (or an
	// id not among them) keeps the current model's server and wire format
	// under the new id, as aionrs does.
	Models func() []core.Model
	// Approvals is the gate whose mode set_mode switches.
	Approvals ModeSetter
	// Tools are the session's tools, for the category each tool_request
	// names; a tool not among them counts as exec.
	Tools []core.Tool
	// Dir is the workspace, against which relative file paths in
	// tool_result metadata are resolved; "" leaves them as they are.
	Dir string
	// Version is ready's version; "" means ProtocolVersion.
	Version string
	// SessionID is ready's session_id; "" leaves it out.
	SessionID string
	// MaxTurns, when positive, stops a message after that many model
	// requests (its stream_end follows, with an info saying why).
	MaxTurns int
	// MaxFrameBytes overrides MaxFrameBytes (for tests).
	MaxFrameBytes int
	// Log receives notes for whoever reads stderr (ignored commands);
	// nil discards them.
	Log io.Writer
	// MCP adds the servers of add_mcp_server; nil refuses them (and ready
	// says MCP is off).
	MCP MCPAdder
	// SettleLimit bounds how long Serve waits at the end for a cancelled
	// message to wind down; zero means 30 seconds.
	SettleLimit time.Duration
	// KeepAlive ticks re-send tool_running for every tool still running
	// (AionUi ends a turn after 15 s without a frame; the frame is
	// idempotent there). nil ticks every KeepAliveInterval.
	KeepAlive <-chan time.Time
}

// KeepAliveInterval is how often tool_running is re-sent while a tool
// runs, well inside AionUi's 15 s of silence.
const KeepAliveInterval = 10 * time.Second

// Serve speaks the json-stream protocol until in ends or ctx is cancelled:
// ready first, then one event per line on out for the commands read from
// in. Nothing else is written to out.
//
// When in ends, Serve cancels the message in flight, waits for it to wind
// down (its stream_end is written), and returns nil; it returns an error
// only when reading or writing failed. After ctx is cancelled a read of in
// may still be blocked; close in to end it.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Host) error {
	if h.Session == nil || h.Approvals == nil {
		return errors.New("aionrs.Serve: Host.Session and Host.Approvals are required")
	}
	s := newServer(h, out)
	s.sub = h.Session.Follow()
	defer s.sub.Stop()
	if err := s.write(line(readyFrame{Type: "ready", Version: s.version(), SessionID: h.SessionID, Capabilities: s.capabilities()})); err != nil {
		return fmt.Errorf("write json-stream output: %w", err)
	}
	written := make(chan struct{})
	go s.translate(written)
	ticks := h.KeepAlive
	if ticks == nil {
		t := time.NewTicker(KeepAliveInterval)
		defer t.Stop()
		ticks = t.C
	}
	kept := make(chan struct{})
	go func() {
		defer close(kept)
		s.keepAlive(ticks)
	}()

	readErr := jsonl.ReadUntil(ctx, s.ctx, func() error { return s.readLoop(in) })
	s.cancel()
	<-kept
	s.mu.Lock()
	if s.turn != nil {
		s.turn.stopped = true // ended by the host going away, not by a failure
	}
	s.mu.Unlock()
	s.sess.Abort()
	limit := h.SettleLimit
	if limit <= 0 {
		limit = 30 * time.Second
	}
	wctx, stop := context.WithTimeout(context.Background(), limit)
	settleErr := s.sess.Wait(wctx)
	stop()
	s.sub.Mark(markEnd{})
	<-written
	if err := jsonl.Served("json-stream", readErr, s.writeErr); err != nil {
		return err
	}
	if settleErr != nil {
		return fmt.Errorf("the cancelled message did not wind down within %s", limit)
	}
	return nil
}

// server is one Serve call's state. The reader goroutine handles commands;
// the translate goroutine turns events into frames and is the only writer
// of out. mu guards what both touch.
type server struct {
	host       Host
	sess       *agent.Session
	sub        *agent.Subscription
	out        io.Writer
	log        io.Writer
	categories map[string]core.ApprovalCategory
	maxFrame   int

	// ctx ends when serving ends (input over, output broken).
	ctx    context.Context
	cancel context.CancelFunc
	// writeErr is set by the translate goroutine, read after it ends.
	writeErr error

	mu sync.Mutex
	// turn is the message in flight, nil when idle.
	turn *turn
	// started: a message was accepted, so init_history no longer counts.
	started bool
	history []string
	// questions maps open approval questions to their calls.
	questions map[string]*call
	// pendingConfig is a set_config that waits for the message in flight.
	pendingConfig *configChange
}

// turn is one accepted message until its stream_end.
type turn struct {
	msgID string
	// open: stream_start is written; events before it belong to no turn.
	open bool
	// stopped: the host sent stop (or max turns ended it); calls that end
	// with an error are reported cancelled, and the final error is not.
	stopped bool
	calls   map[string]*call
	usage   core.Usage
	rounds  int
}

// verdict is what the host (or the adapter on its behalf) answered.
type verdict uint8

const (
	undecided verdict = iota
	approved
	denied
	unanswered // the question closed without an answer (stop, timeout)
)

// call is one tool call of the turn.
type call struct {
	id, name string
	category core.ApprovalCategory
	args     []byte
	// question is the open approval question, "" when none is open.
	question string
	options  []core.Option
	verdict  verdict
	reason   string // the deny reason the host gave
	running  bool   // tool_running was written
}

func newServer(h Host, out io.Writer) *server {
	s := &server{host: h, sess: h.Session, out: out, log: h.Log, maxFrame: h.MaxFrameBytes,
		categories: map[string]core.ApprovalCategory{}, questions: map[string]*call{}}
	if s.log == nil {
		s.log = io.Discard
	}
	if s.maxFrame <= 0 {
		s.maxFrame = MaxFrameBytes
	}
	for _, t := range h.Tools {
		s.categories[t.Spec().Name] = t.Category()
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	// A resumed conversation already has its history.
	for _, m := range h.Session.Messages() {
		if m.MessageRole() == core.RoleUser {
			s.started = true
			break
		}
	}
	return s
}

func (s *server) version() string {
	if s.host.Version != "" {
		return s.host.Version
	}
	return ProtocolVersion
}

func (s *server) capabilities() capabilities {
	// aionrs's own modes and cairn's plan mode: cairn's auto (the start
	// of --mode rpc) is not one of them.
	modes := []approval.Mode{approval.ModeDefault, approval.ModeAutoEdit, approval.ModePlan, approval.ModeYolo}
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	model := s.sess.State().Model
	return capabilities{ToolApproval: true, Thinking: true, ImageInput: model.SupportsImages(), MCP: s.host.MCP != nil,
		Modes: names, CurrentMode: string(s.host.Approvals.Mode()), CurrentModel: model.ID,
		Effort: true, EffortLevels: []string{"low", "medium", "high"}, Rewind: s.rewindState()}
}

func (s *server) category(tool string) core.ApprovalCategory {
	if c, ok := s.categories[tool]; ok {
		return c
	}
	if t := s.sess.Tool(tool); t != nil {
		return t.Category() // a tool that came later (an MCP server's)
	}
	return core.CategoryExec
}

// send writes a frame of the adapter's own, in order with the events.
func (s *server) send(b []byte) { s.sub.Mark(markLine{line: b}) }

// sendError writes a protocol_error.
func (s *server) sendError(msgID, message string) {
	s.send(errorLine(msgID, codeProtocol, message, false))
}

// readLoop reads and handles commands until the input ends.
func (s *server) readLoop(in io.Reader) error {
	lr := jsonl.NewReader(in, s.maxFrame)
	for {
		b, tooLong, err := lr.Next()
		if err != nil {
			return err
		}
		if s.ctx.Err() != nil {
			return nil
		}
		if tooLong {
			s.sendError("", fmt.Sprintf("Invalid command: the line is longer than %d bytes and was skipped", s.maxFrame))
			continue
		}
		if len(b) == 0 {
			continue // blank lines separate nothing
		}
		c, perr := decodeCommand(b)
		if perr != nil {
			s.sendError(perr.msgID, perr.msg)
			continue
		}
		s.handle(c)
	}
}

func (s *server) handle(c command) {
	switch c.Type {
	case cmdMessage:
		s.onMessage(c)
	case cmdStop:
		s.onStop()
	case cmdToolApprove:
		s.onApprove(c)
	case cmdToolDeny:
		s.onDeny(c)
	case cmdInitHistory:
		s.onInitHistory(c)
	case cmdSetMode:
		s.onSetMode(c)
	case cmdSetConfig:
		s.onSetConfig(c)
	case cmdPing:
		s.send(line(pongFrame{Type: "pong"}))
	case cmdAddMCP:
		s.onAddMCPServer(c)
	case cmdRewind:
		s.onRewind(c)
	}
}
