package pi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/jsonl"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/settings"
)

// Models is the model catalog as the server needs it; *catalog.Catalog
// satisfies it.
type Models interface {
	// Available lists the models that can be used (their provider has
	// credentials), in the order get_available_models reports them.
	Available() []core.Model
	// Find resolves a provider and model id, for switch_session restoring
	// the model a session last used.
	Find(provider, id string) (core.Model, error)
}

// SlashCommand is one entry of get_commands: an extension command, a prompt
// template or a skill (named "skill:<name>").
type SlashCommand struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Source      string `json:"source"`             // "extension", "prompt", "skill" or "mcp"
	Location    string `json:"location,omitempty"` // "user", "project" or "path"
	Path        string `json:"path,omitempty"`
}

// Host is everything Serve drives and consults. Only Session is required.
type Host struct {
	// Session is the conversation the commands act on.
	Session *agent.Session
	// Models lists and finds models; nil means only the current model.
	Models Models
	// Settings receives the setters' changes: for this process only, or
	// written to the global settings file when the command carries
	// "persist":true. Nil means setters change only the running session.
	Settings *settings.Store
	// Bash runs the bash command; nil means ExecBash in the process's
	// working directory.
	Bash BashRunner
	// Approvals is the approval gate set_approval_mode switches; nil means
	// the command answers with an error.
	Approvals ApprovalModeSetter
	// Commands lists the slash commands for get_commands; nil means none.
	Commands func() []SlashCommand
	// Prompts are the prompt templates: get_commands lists them, and a
	// prompt, steer or follow_up whose message starts with a template's
	// /name sends the template's text instead.
	Prompts prompts.Templates
	// MCP reports the MCP servers for get_mcp_servers; nil means none
	// are configured.
	MCP func() []mcp.Status
	// MCPPrompts offers the MCP servers' prompts: get_commands lists them
	// (source "mcp"), and a prompt, steer or follow_up message starting
	// with /mcp__<server>__<prompt> sends the prompt the server returns.
	// Nil means none.
	MCPPrompts *mcp.Manager
	// ExportHTML writes the session file as an HTML page for export_html:
	// to out (relative to the working directory; "" means a default name
	// there), naming model when the file names none, and returns the
	// page's absolute path. core/export.Session is one; this package does
	// not link it itself, so that rpc mode can be built without the
	// highlighter (see cmd/cairn). Nil means export_html answers an error.
	ExportHTML func(ctx context.Context, file, out, model string) (string, error)
	// MaxFrameBytes overrides MaxFrameBytes (for tests).
	MaxFrameBytes int
	// Compat073 writes pi 0.73.1's event shapes from the start, for hosts
	// written for it (`--rpc-compat 0.73`); the default is pi 0.87's.
	Compat073 bool
}

// ApprovalModeSetter reports and switches the approval mode;
// *approval.Gate is one.
type ApprovalModeSetter interface {
	Mode() approval.Mode
	SetMode(approval.Mode)
}

// Serve speaks pi's rpc protocol (`--mode rpc`) until in ends or ctx is
// cancelled: one JSON command per line on in; responses, events and
// extension UI requests, one JSON object per line, on out. Nothing else is
// written to out.
//
// Commands are read in order and answered concurrently where they take
// time: abort, abort_bash, get_state and extension UI responses are
// answered while a prompt, a bash command or a compaction runs. Every
// command gets exactly one response, which echoes its id; a response comes
// after the events the command caused (a prompt's acceptance before its
// agent_start). See the package documentation for where cairn deliberately
// differs from pi.
//
// When in ends (or ctx is cancelled), Serve aborts what is still running,
// waits for it to wind down, writes the last events and responses, and
// returns nil; it returns an error only when reading or writing failed.
// After cancellation a read of in may still be blocked; close in to end it.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Host) error {
	if h.Session == nil {
		return errors.New("pi.Serve: Host.Session is required")
	}
	s := newServer(h)
	s.sub = h.Session.Follow()
	defer s.sub.Stop()
	w := newWriter(s, out)
	if h.Compat073 {
		s.filter.wire = wire{full: true, v073: true}
		w.filter = s.filter
	}
	w.onEvent = s.observe
	w.afterEvent = s.written
	written := make(chan struct{})
	go w.run(s.sub.Events(), written)

	readErr := jsonl.ReadUntil(ctx, s.ctx, func() error { return s.readLoop(in) })
	s.shutdown()
	s.sub.Mark(mark{srv: s, kind: markEnd})
	<-written
	return jsonl.Served("rpc", readErr, w.err)
}

// server is one Serve call's state.
type server struct {
	host      Host
	sess      *agent.Session
	sub       *agent.Subscription
	models    Models
	bash      BashRunner
	questions *questions
	maxFrame  int

	// ctx ends at shutdown; slow commands run under it.
	ctx    context.Context
	cancel context.CancelFunc
	// work counts the slow commands running on their own goroutines.
	work sync.WaitGroup
	// promptMu makes accepting a prompt (hold, Prompt, release) atomic.
	promptMu sync.Mutex
	// retry is the wait before an automatic retry, as written.
	retry retryWait

	mu         sync.Mutex
	closed     bool
	bashRuns   map[int]context.CancelFunc
	nextBash   int
	compacting *compaction // the manual compaction running
	filter     eventFilter // the latest set_event_filter, merged
	// abortsRead and abortsDone count the abort commands read and
	// dispatched; expanding stops the MCP prompt being expanded, which an
	// abort read meanwhile cancels (see readLoop).
	abortsRead, abortsDone int
	expanding              context.CancelFunc
}

func newServer(h Host) *server {
	s := &server{host: h, sess: h.Session, models: h.Models, bash: h.Bash, questions: newQuestions(), maxFrame: h.MaxFrameBytes}
	if s.bash == nil {
		s.bash = &ExecBash{Compat073: h.Compat073}
	}
	if s.maxFrame <= 0 {
		s.maxFrame = MaxFrameBytes
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.bashRuns = map[int]context.CancelFunc{}
	return s
}

// readItem is one frame read, or the error that ended the input.
type readItem struct {
	frame   []byte
	tooLong bool
	err     error
}

// readLoop reads frames and dispatches them, in order, until the input
// ends. Frames are read on a goroutine of their own, one ahead of the
// dispatch, so that an abort read while a prompt's MCP prompt is being
// asked for (which may wait for a server to start) stops that wait at
// once; the abort itself is dispatched in its turn.
func (s *server) readLoop(in io.Reader) error {
	items := make(chan readItem)
	go func() {
		fr := jsonl.NewReader(in, s.maxFrame).KeepPrefix(idPrefixBytes)
		for {
			frame, tooLong, err := fr.Next()
			it := readItem{frame: bytes.Clone(frame), tooLong: tooLong, err: err}
			if err == nil && !tooLong && isAbort(frame) {
				s.mu.Lock()
				s.abortsRead++
				if s.expanding != nil {
					s.expanding()
				}
				s.mu.Unlock()
			}
			select {
			case items <- it:
			case <-s.ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for {
		var it readItem
		select {
		case it = <-items:
		case <-s.ctx.Done():
			return nil
		}
		frame, tooLong, err := it.frame, it.tooLong, it.err
		if err != nil {
			return err
		}
		if s.ctx.Err() != nil {
			return nil
		}
		if tooLong {
			s.reply(response{id: recoverID(frame), command: "parse",
				err: fmt.Sprintf("%v: the line is longer than %d bytes; send large images in smaller pieces or as files", errParse, s.maxFrame)})
			continue
		}
		s.dispatchFrame(frame)
	}
}

// isAbort reports whether a frame is an abort command.
func isAbort(frame []byte) bool {
	if !bytes.Contains(frame, []byte(`"abort"`)) {
		return false
	}
	var c struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(frame, &c) == nil && c.Type == "abort"
}

// shutdown aborts what is running and waits for it to end.
func (s *server) shutdown() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.sess.Abort()
	s.work.Wait()
	_ = s.sess.Wait(context.Background())
}

// send writes a frame of the server's own in order with the events.
func (s *server) send(line []byte) {
	s.sub.Mark(mark{srv: s, kind: markLine, line: line})
}

// sendEvent writes an event frame the session does not publish itself.
func (s *server) sendEvent(eventType string, frame any) {
	line, err := marshal(frame)
	if err != nil {
		return
	}
	s.sub.Mark(mark{srv: s, kind: markLine, line: line, event: eventType})
}

// reply writes a response in order with the events; a streamed payload
// is encoded by the writer as it writes it.
func (s *server) reply(r response) {
	f := r.frame()
	if f.Body == nil {
		s.send(f.Head)
		return
	}
	s.sub.Mark(mark{srv: s, kind: markLine, line: f.Head, body: f.Body, tail: f.Tail})
}

// writeFailed stops serving: nobody reads the output any more.
func (s *server) writeFailed(error) { s.cancel() }

// observe follows the session's events on the writer's goroutine: it
// tracks retry waits for abort_retry and the open questions.
func (s *server) observe(e core.Event) {
	switch e := e.(type) {
	case core.Question:
		s.questions.opened(e)
	case core.QuestionClosed:
		s.questions.closed(e.ID)
	case core.AutoRetryStart:
		s.retry.started()
	}
}

// written follows the session's events on the writer's goroutine once each
// is written, and returns a frame to write right after it: abort_retry's
// response after the end of the wait it cancelled.
func (s *server) written(e core.Event) []byte {
	switch e.(type) {
	case core.AgentStart, core.AutoRetryEnd, core.Settled:
		return s.retry.ended()
	}
	return nil
}

// retryWait tracks the wait before an automatic retry as the writer writes
// it, from auto_retry_start to the retry's agent_start or the wait's
// auto_retry_end, and holds the response of an abort_retry that cancelled
// it until that end is written.
type retryWait struct {
	mu      sync.Mutex
	waiting bool
	answer  []byte
}

func (r *retryWait) started() {
	r.mu.Lock()
	r.waiting = true
	r.mu.Unlock()
}

// answerAfterWait keeps answer for the end of the wait and reports true
// when a wait is on; otherwise it reports false and keeps nothing.
func (r *retryWait) answerAfterWait(answer []byte) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.waiting || r.answer != nil {
		return false
	}
	r.answer = answer
	return true
}

// ended marks the wait over and returns the answer kept for its end.
func (r *retryWait) ended() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waiting = false
	a := r.answer
	r.answer = nil
	return a
}

// goSlow runs a command that takes time on its own goroutine, so that the
// commands after it (abort among them) are read and answered meanwhile.
func (s *server) goSlow(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		// Shutting down after a cancellation: the command is dropped.
		return
	}
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		f()
	}()
}
