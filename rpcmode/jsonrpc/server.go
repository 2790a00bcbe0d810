package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// ProtocolVersion is the version of the spec this package speaks.
const ProtocolVersion = "1.0.0"

// Agent is one client's agent session and what the adapter needs to
// describe it.
type Agent struct {
	// Session is the client's conversation; required.
	Session *agent.Session
	// Tools are the session's tools, for the category, description and
	// risk of a call awaiting approval; nil describes calls by name only.
	Tools []core.Tool
	// Models lists the models initialize reports; nil reports the current
	// one only.
	Models []core.Model
	// Dir is the session's working directory, for previews of edits.
	Dir string
	// Close ends the session and flushes its file; nil calls
	// Session.Close.
	Close func()
}

// Config is what Serve needs.
type Config struct {
	// NewAgent builds the session of a client that connected; required.
	// It is called once per connection, possibly from several goroutines
	// at once.
	NewAgent func() (*Agent, error)
	// Version is cairn's version, for initialize.
	Version string
	// MaxMessageBytes overrides MaxMessageBytes (for tests).
	MaxMessageBytes int
	// MaxClients caps the connections served at once (default 64); a client
	// over the cap is told so and disconnected.
	MaxClients int
	// WriteTimeout is how long a write to a client may block before the
	// client is dropped (default 30 s).
	WriteTimeout time.Duration
	// Log receives warnings about clients (stderr); nil discards them.
	Log io.Writer
	// Now is the clock for durations; nil means time.Now.
	Now func() time.Time
}

func (c *Config) defaults() {
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = MaxMessageBytes
	}
	if c.MaxClients <= 0 {
		c.MaxClients = 64
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 30 * time.Second
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Serve accepts clients on l until ctx ends, serving each on a goroutine of
// its own with a session from cfg.NewAgent. When ctx ends it closes l,
// disconnects every client (cancelling its query, closing its session and
// flushing its file) and returns nil once all are done. It returns an
// error only when accepting failed for another reason.
func Serve(ctx context.Context, l net.Listener, cfg Config) error {
	if cfg.NewAgent == nil {
		return errors.New("jsonrpc.Serve: Config.NewAgent is required")
	}
	cfg.defaults()
	srv := &server{cfg: cfg, conns: map[*conn]struct{}{}}
	stop := context.AfterFunc(ctx, func() { _ = l.Close() })
	defer stop()
	var acceptErr error
	for {
		nc, err := l.Accept()
		if err != nil {
			if ctx.Err() == nil {
				acceptErr = fmt.Errorf("accept a client: %w", err)
			}
			break
		}
		srv.start(nc)
	}
	_ = l.Close()
	srv.closeAll()
	srv.wg.Wait()
	return acceptErr
}

// server tracks the connections of one Serve call.
type server struct {
	cfg Config
	wg  sync.WaitGroup

	mu     sync.Mutex
	closed bool
	conns  map[*conn]struct{}
}

// start serves nc on its own goroutine, or turns it away when the server
// is full or closing.
func (s *server) start(nc net.Conn) {
	s.mu.Lock()
	full := len(s.conns) >= s.cfg.MaxClients
	if s.closed || full {
		s.mu.Unlock()
		if full {
			_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = nc.Write(encodeLine(response{JSONRPC: "2.0", ID: nullID,
				Error: errorf(CodePermissionDenied, "cairn is already serving %d clients; try again when one has disconnected", s.cfg.MaxClients)}))
		}
		_ = nc.Close()
		return
	}
	c := newConn(nc, s.cfg)
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		c.serve()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()
}

// closeAll disconnects every client; each connection's goroutine then
// cleans up after itself.
func (s *server) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for c := range s.conns {
		c.hangUp()
	}
}
