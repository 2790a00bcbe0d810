package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/cairn-dev/cairn/core/jsonl"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// conn is one JSON-RPC 2.0 peer over an extension's stdin and stdout:
// cairn's requests wait for their responses, the extension's requests and
// notifications go to serve. Its methods are safe for concurrent use.
type conn struct {
	w io.WriteCloser
	// serve answers the extension's request or notification; it runs on
	// the reading goroutine for notifications (in order) and on its own
	// goroutine for requests (which may wait for a person).
	serve func(m jsonrpc2.Message) (any, *jsonrpc2.Error)

	// trace, when set, sees every line: from the extension (in true) or
	// to it.
	trace func(in bool, line []byte)
	// dispatchSync serves requests on the reading goroutine (fuzzing).
	dispatchSync bool
	// inline, when set, says which requests are served on the reading
	// goroutine, in the order they came: those that never wait (a status
	// line, a widget), so that what an extension shows keeps its order.
	inline func(jsonrpc2.Message) bool

	wmu sync.Mutex

	mu      sync.Mutex
	next    int64
	pending map[string]chan jsonrpc2.Message
	// done is closed when reading ends; err says why.
	done chan struct{}
	err  error
}

func newConn(w io.WriteCloser, serve func(jsonrpc2.Message) (any, *jsonrpc2.Error)) *conn {
	return &conn{w: w, serve: serve, pending: map[string]chan jsonrpc2.Message{}, done: make(chan struct{})}
}

// errClosed is a call's error once the extension is gone.
var errClosed = errors.New("the extension is not running")

// read reads r until it ends or fails, then fails every call in flight
// with the reason. r is the guarded stdout.
func (c *conn) read(r io.Reader) {
	lines := jsonl.NewReader(r, MaxFrameBytes).SkipBlank()
	bad := 0
	var err error
	for {
		line, tooLong, rerr := lines.Next()
		if rerr != nil {
			err = rerr
			break
		}
		if tooLong {
			err = ErrFrameTooLong
			break
		}
		if c.trace != nil {
			c.trace(true, line)
		}
		m, _, derr := jsonrpc2.Decode(line)
		if derr != nil {
			if bad++; bad >= maxBadFrames {
				err = fmt.Errorf("wrote %d lines in a row that are not JSON-RPC messages (the last: %s)", bad, derr.Message)
				break
			}
			continue
		}
		if c.dispatch(m) {
			bad = 0
		} else if bad++; bad >= maxBadFrames {
			err = fmt.Errorf("sent %d messages in a row that cairn cannot use", bad)
			break
		}
	}
	if errors.Is(err, io.EOF) {
		err = io.EOF
	}
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	close(c.done)
}

// dispatch routes a message; it reports false for one cairn cannot use
// (a notification it refused, a response to no request).
func (c *conn) dispatch(m jsonrpc2.Message) bool {
	switch m.Kind {
	case jsonrpc2.Response:
		c.mu.Lock()
		ch := c.pending[string(m.ID)]
		delete(c.pending, string(m.ID))
		c.mu.Unlock()
		if ch == nil {
			return false
		}
		ch <- m
	case jsonrpc2.Notification:
		_, err := c.serve(m)
		return err == nil
	case jsonrpc2.Request:
		if c.dispatchSync || (c.inline != nil && c.inline(m)) {
			result, rerr := c.serve(m)
			c.respond(m.ID, result, rerr)
			break
		}
		go func() {
			result, rerr := c.serve(m)
			c.respond(m.ID, result, rerr)
		}()
	}
	return true
}

// readErr is why reading ended (io.EOF: the extension closed its stdout).
func (c *conn) readErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

type wireRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *jsonrpc2.Error `json:"error,omitempty"`
}

func (c *conn) write(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.trace != nil {
		c.trace(false, line)
	}
	_, err = c.w.Write(append(line, '\n'))
	return err
}

func (c *conn) respond(id json.RawMessage, result any, rerr *jsonrpc2.Error) {
	resp := wireResponse{JSONRPC: "2.0", ID: id, Error: rerr}
	if rerr == nil {
		if result == nil {
			result = struct{}{}
		}
		resp.Result = result
	}
	_ = c.write(resp)
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.write(wireRequest{JSONRPC: "2.0", Method: method, Params: params})
}

// call sends a request and waits for its response, the end of ctx (the
// extension is told to cancel) or the end of the extension. A response
// with an error is returned as a *jsonrpc2.Error.
func (c *conn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ch := make(chan jsonrpc2.Message, 1)
	c.mu.Lock()
	c.next++
	id := c.next
	key := strconv.FormatInt(id, 10)
	c.pending[key] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
	}
	select {
	case <-c.done:
		forget()
		return nil, errClosed
	default:
	}
	if err := c.write(wireRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params}); err != nil {
		forget()
		return nil, errClosed
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-ctx.Done():
		forget()
		_ = c.notify(MethodCancel, CancelParams{ID: json.RawMessage(key)})
		return nil, ctx.Err()
	case <-c.done:
		forget()
		return nil, errClosed
	}
}

// close closes the extension's stdin: the sign to stop.
func (c *conn) close() { _ = c.w.Close() }
