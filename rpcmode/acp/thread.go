package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"reflect"
	"sync"

	"github.com/cairn-dev/cairn/core/mcp"
)

// thread is one open ACP session: a core session of its own (its bound),
// the writer that turns that session's events into updates, and its turn.
// Threads run side by side; each one's frames are in order with its own
// events, and frames of different threads interleave whole.
type thread struct {
	id string
	b  *bound
	// opened: Serve built b with Host.Open and closes it with the thread.
	opened bool
	// written closes when the writer has written the thread's last frame.
	written chan struct{}

	// Guarded by server.mu.
	prompting bool               // a session/prompt is unanswered
	promptID  json.RawMessage    // its request id
	cancelled bool               // session/cancel arrived for it
	expanding context.CancelFunc // stops the MCP prompt the prompt is expanding
	noticed   bool               // the host's StartNotice was told
	choices   map[string]choice  // how its approval questions were answered
}

// send writes a frame in order with the thread's events.
func (t *thread) send(frame any) {
	line, err := json.Marshal(frame)
	if err != nil {
		return
	}
	t.b.sub.Mark(markLine{line})
}

// output is the connection's stdout, shared by the threads' writers and
// the connection's own frames: each frame is written whole.
type output struct {
	mu     sync.Mutex
	w      *bufio.Writer
	err    error
	failed func() // called once when writing fails
}

// write buffers one frame line.
func (o *output) write(line []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.writeLocked(line)
}

func (o *output) writeLocked(line []byte) {
	if o.err != nil || line == nil {
		return
	}
	if _, err := o.w.Write(line); err != nil {
		o.fail(err)
		return
	}
	if err := o.w.WriteByte('\n'); err != nil {
		o.fail(err)
	}
}

// flush writes what is buffered.
func (o *output) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		if err := o.w.Flush(); err != nil {
			o.fail(err)
		}
	}
}

// frame writes one frame line and flushes it.
func (o *output) frame(line []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.writeLocked(line)
	if o.err == nil {
		if err := o.w.Flush(); err != nil {
			o.fail(err)
		}
	}
}

func (o *output) fail(err error) {
	o.err = err
	if o.failed != nil {
		o.failed()
	}
}

// failure is the error writing met, if any.
func (o *output) failure() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// lookup is the open thread with the id a request names.
func (s *server) lookup(id *string) (*thread, *rpcError) {
	if id == nil {
		return nil, errorf(CodeInvalidParams, `Invalid params: "sessionId" is required`)
	}
	s.mu.Lock()
	t := s.threads[*id]
	s.mu.Unlock()
	if t == nil {
		return nil, notFound(*id, "no open session "+*id+" (open it with session/load or session/resume)")
	}
	return t, nil
}

// bind finds a core session for a new thread in dir with the client's MCP
// servers: the host's own while no thread holds it and it fits, otherwise
// one the host opens. opened says which.
func (s *server) bind(dir string, servers []mcp.Server) (b *bound, opened bool, _ *rpcError) {
	s.mu.Lock()
	if sp := s.spare; sp != nil && sameDir(dir, sp.host.Cwd) && reflect.DeepEqual(servers, sp.servers) {
		s.spare = nil
		s.mu.Unlock()
		return sp, false, nil
	}
	s.mu.Unlock()
	if s.host.Open == nil {
		return nil, false, errorf(CodeInvalidRequest, "Invalid Request: this cairn holds one session at a time; close the open one first")
	}
	h, err := s.host.Open(dir, servers)
	if err != nil {
		return nil, false, errorf(CodeInternalError, "cannot start a session in %s: %v", dir, err)
	}
	b = newBound(h)
	b.servers = servers
	return b, true, nil
}

// release gives back a core session bind found that no thread took.
func (s *server) release(b *bound, opened bool) {
	if !opened {
		s.mu.Lock()
		s.spare = b
		s.mu.Unlock()
		return
	}
	b.sub.Stop()
	if b.host.Close != nil {
		b.host.Close()
	}
}

// attach opens a thread on b, named by its current conversation, and
// starts its writer.
func (s *server) attach(b *bound, opened bool) *thread {
	t := &thread{id: b.sess.Conversation().ID, b: b, opened: opened, written: make(chan struct{}), choices: map[string]choice{}}
	s.mu.Lock()
	caps := s.caps
	s.threads[t.id] = t
	live := s.live != nil
	s.mu.Unlock()
	if !live {
		// A live session's tools stay the owner's: an attached client's
		// files and terminals are never offered to them.
		useClient(t, s, caps)
	}
	w := &writer{srv: s, t: t, sess: b.sess, out: s.out, sessionID: t.id}
	go w.run(b.sub, t.written)
	return t
}

// detach ends a thread whose turn has settled: its last frames are
// written, and its core session is closed when Serve opened it. The
// host's own session is not used again while the host can open others
// (its caller closes it), so a new thread starts as fresh as any other;
// without Host.Open it is the only one there is.
func (s *server) detach(t *thread) {
	if s.live != nil {
		s.liveDetach(t)
		return
	}
	t.b.sub.Mark(markEnd{})
	<-t.written
	switch {
	case t.opened:
		s.release(t.b, true)
	case s.host.Open == nil:
		s.mu.Lock()
		if !s.stopping {
			s.spare = t.b
		}
		s.mu.Unlock()
	}
}

// closeSession handles session/close: the thread's turn is cancelled, it
// stops taking requests at once, and its session is closed once settled
// (at most settleLimit later); then the request is answered. Other
// requests are read meanwhile.
func (s *server) closeSession(m message) (any, *rpcError) {
	var p sessionParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	t, rerr := s.lookup(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	s.mu.Lock()
	delete(s.threads, t.id)
	s.closing.Add(1)
	live := s.live != nil
	s.mu.Unlock()
	if live {
		// Closing an attached session lets go of it; it goes on.
		go func() {
			defer s.closing.Done()
			s.liveDetach(t)
			s.reply(m.ID, struct{}{})
		}()
		return nil, nil
	}
	s.abortPrompt(t, nil)
	go func() {
		defer s.closing.Done()
		ctx, cancel := context.WithTimeout(context.Background(), settleLimit)
		defer cancel()
		_ = t.b.sess.Wait(ctx)
		s.detach(t)
		s.reply(m.ID, struct{}{})
	}()
	return nil, nil
}
