package synaps

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/jsonl"
)

// busyMessage answers a prompt sent while another is in flight.
const busyMessage = "another prompt is in flight; abort first"

// DefaultSettleLimit bounds how long shutdown waits for a cancelled turn
// to end.
const DefaultSettleLimit = 30 * time.Second

// Models lists the models set_model and get_available_models offer;
// *catalog.Catalog is one.
type Models interface {
	// Available lists the models that can be used now.
	Available() []core.Model
}

// Host is what Serve drives. Only Session is required.
type Host struct {
	// Session is the conversation the commands act on.
	Session *agent.Session
	// Tools are the session's tools, as tools_list reports them.
	Tools []core.Tool
	// Models are the models on offer; nil offers only the current one.
	Models Models
	// MaxFrameBytes overrides MaxFrameBytes (for tests).
	MaxFrameBytes int
	// SettleLimit overrides DefaultSettleLimit.
	SettleLimit time.Duration
}

// Serve speaks synaps rpc until in ends, a shutdown command arrives or ctx
// is cancelled. It writes ready first, then answers commands read from in,
// one JSON object per line on out, and nothing else on out.
//
// On the way out a turn still running is aborted and its last frames are
// written before Serve returns. Serve returns nil then; an error only when
// reading or writing failed. After ctx is cancelled a read of in may still
// be blocked; closing in ends it.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Host) error {
	if h.Session == nil {
		return errors.New("synaps.Serve: Host.Session is required")
	}
	s := &server{host: h, sess: h.Session, maxFrame: h.MaxFrameBytes, settle: h.SettleLimit}
	if s.maxFrame <= 0 {
		s.maxFrame = MaxFrameBytes
	}
	if s.settle <= 0 {
		s.settle = DefaultSettleLimit
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	defer s.cancel()
	s.sub = h.Session.Follow()
	defer s.sub.Stop()

	written := make(chan error, 1)
	go s.writeLoop(out, written)
	st := s.sess.State()
	s.send(readyFrame(s.sess.Conversation().ID, st.Model.ID))

	readErr := jsonl.ReadUntil(ctx, s.ctx, func() error { return s.readLoop(in) })
	s.stop()
	s.sub.Mark(endMark{})
	return jsonl.Served("synaps", readErr, <-written)
}

// server is one Serve call's state. The reader goroutine dispatches
// commands; the writer goroutine owns the output and ends turns; mu
// guards what both touch.
type server struct {
	host     Host
	sess     *agent.Session
	sub      *agent.Subscription
	maxFrame int
	settle   time.Duration

	// ctx ends when serving stops; a compaction runs under it.
	ctx    context.Context
	cancel context.CancelFunc
	// work counts compactions running on their own goroutine.
	work sync.WaitGroup
	// dispatchMu is held while a command is served.
	dispatchMu sync.Mutex

	mu      sync.Mutex
	turn    *turn       // the prompt in flight, nil when idle
	compact *compaction // the compaction in flight
	// closing is set when serving stops: nothing new starts after it.
	closing bool
}

// turn is a prompt in flight, from its acceptance to its settling.
type turn struct {
	id      string
	command string // "prompt" or "follow_up"
	usage   core.Usage
	model   string
	// cancelled: an abort (or the end of input) asked the turn to stop;
	// aborts are the ids of the abort commands to answer after it.
	cancelled bool
	aborts    []string
	// lastStop is why the latest assistant message ended.
	lastStop core.StopReason
}

// compaction is a compact command in flight.
type compaction struct {
	cancel context.CancelFunc
	aborts []string
	// done is closed once the compaction has been answered.
	done chan struct{}
}

// lineMark is a frame of the server's own, written in order with the
// session's events.
type lineMark struct{ line []byte }

func (lineMark) EventType() string { return "synaps_line" }

// frameMark is a frame of the server's own written in pieces (a long
// answer), in order with the session's events.
type frameMark struct{ frame jsonl.Frame }

func (frameMark) EventType() string { return "synaps_frame" }

// endMark tells the writer that nothing follows.
type endMark struct{}

func (endMark) EventType() string { return "synaps_end" }

// send writes a frame after the events published so far.
func (s *server) send(line []byte) { s.sub.Mark(lineMark{line: line}) }

// readLoop reads and dispatches commands until the input ends or a
// shutdown arrives.
func (s *server) readLoop(in io.Reader) error {
	lr := jsonl.NewReader(in, s.maxFrame)
	for {
		line, tooLong, err := lr.Next()
		if err != nil {
			return err
		}
		if !s.serveLine(line, tooLong) {
			return nil
		}
	}
}

// serveLine answers one input line; false means stop reading. It runs
// under dispatchMu, so stop can wait for a command being served.
func (s *server) serveLine(line []byte, tooLong bool) bool {
	s.dispatchMu.Lock()
	defer s.dispatchMu.Unlock()
	if s.ctx.Err() != nil {
		return false
	}
	if tooLong {
		s.send(errorFrame(nil, fmt.Sprintf("frame refused: a line may hold at most %d bytes; send large content as an attachment path", s.maxFrame)))
		return true
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return true
	}
	c, err := decodeCommand(line)
	if err != nil {
		fe := &frameError{Msg: err.Error()}
		errors.As(err, &fe)
		var id *string
		if fe.HasID {
			id = &fe.ID
		}
		s.send(errorFrame(id, fe.Msg))
		return true
	}
	if c.Type == "shutdown" {
		return false
	}
	s.dispatch(c)
	return true
}

// stop aborts what is running and waits, within the settle limit, for it
// to end.
func (s *server) stop() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cancel()
	// A command being served finishes first, so that what it started is
	// stopped too.
	s.dispatchMu.Lock()
	s.dispatchMu.Unlock()
	s.mu.Lock()
	if s.turn != nil {
		s.turn.cancelled = true
	}
	s.mu.Unlock()
	s.sess.Abort()
	s.work.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), s.settle)
	defer cancel()
	_ = s.sess.Wait(ctx)
}

// writeFrame writes a frame in pieces; nothing else is written inside it.
// An answer cut short (a message that cannot be encoded) still ends as a
// valid line, and an error frame after it says so.
func (s *server) writeFrame(w *bufio.Writer, f jsonl.Frame) error {
	bodyErr, err := f.Write(w)
	if err == nil {
		err = w.WriteByte('\n')
	}
	if err == nil && bodyErr != nil {
		w.Write(errorFrame(nil, "internal error: the answer was cut short: "+bodyErr.Error()))
		err = w.WriteByte('\n')
	}
	return err
}

// writeLoop writes frames until the end mark. After a write error it
// keeps draining the events (so the session never blocks) and stops the
// server: nobody reads the output any more.
func (s *server) writeLoop(out io.Writer, done chan<- error) {
	w := bufio.NewWriterSize(out, 32<<10)
	var werr error
	events := s.sub.Events()
	for ev := range events {
		if _, ok := ev.(endMark); ok {
			break
		}
		if fm, ok := ev.(frameMark); ok && werr == nil {
			werr = s.writeFrame(w, fm.frame)
		}
		for _, line := range s.translate(ev) {
			if werr != nil {
				break
			}
			w.Write(line)
			if err := w.WriteByte('\n'); err != nil {
				werr = err
			}
		}
		if werr == nil && len(events) == 0 {
			werr = w.Flush()
		}
		if werr != nil {
			s.cancel()
		}
	}
	if werr == nil {
		werr = w.Flush()
	}
	done <- werr
}
