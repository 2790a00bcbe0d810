package webui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"

	"github.com/cairn-dev/cairn/core/jsonl"
)

// pipe carries frames between the page's WebSocket and cairn's stream
// until either side ends, then closes both and returns once its
// goroutines have. The page's messages are checked (text, one JSON value,
// at most MaxInFrame) and written as compact lines; cairn's lines go
// through a bounded queue, so a page that reads slowly never holds up
// cairn's writes: when the queue is full the page is disconnected.
func pipe(ctx context.Context, conn *websocket.Conn, stream io.ReadWriteCloser, cfg Config) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		once   sync.Once
		code   = websocket.StatusNormalClosure
		reason = ""
	)
	end := func(c websocket.StatusCode, why string) {
		once.Do(func() { code, reason = c, why })
		cancel()
	}
	conn.SetReadLimit(int64(cfg.MaxInFrame))
	q := newQueue(cfg.QueueFrames, cfg.QueueBytes)

	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		// A cancelled context would drop the connection without a close
		// frame: the read ends when the connection is closed below.
		end(toCairn(context.Background(), conn, stream))
	}()
	go func() {
		defer wg.Done()
		end(fromCairn(stream, q, cfg.MaxOutFrame))
	}()
	go func() {
		defer wg.Done()
		end(toPage(ctx, conn, q, cfg))
	}()
	<-ctx.Done()
	// Settle why it ended (once.Do returns only after the first call has
	// set it): the parent's end is cairn stopping.
	once.Do(func() { code, reason = websocket.StatusGoingAway, "cairn is stopping" })
	// Closing the stream ends a read or write of it in progress, at once:
	// cairn never waits on the page's close handshake (up to seconds with
	// a page that does not read), nor the page on the stream's Close.
	streamClosed := make(chan struct{})
	go func() {
		defer close(streamClosed)
		_ = stream.Close()
	}()
	_ = conn.Close(code, closeReason(reason))
	<-streamClosed
	wg.Wait()
}

// toCairn writes each of the page's messages to the stream as one line.
func toCairn(ctx context.Context, conn *websocket.Conn, stream io.Writer) (websocket.StatusCode, string) {
	var line bytes.Buffer
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				return websocket.StatusMessageTooBig, "a frame from the page is larger than cairn accepts"
			}
			// The page closed, or the connection ended.
			return websocket.StatusNormalClosure, ""
		}
		if typ != websocket.MessageText {
			return websocket.StatusUnsupportedData, "the page must send each JSON-RPC frame as one text message"
		}
		line.Reset()
		if err := compactFrame(&line, data); err != nil {
			return websocket.StatusInvalidFramePayloadData, "a message from the page is not one JSON value"
		}
		line.WriteByte('\n')
		if _, err := stream.Write(line.Bytes()); err != nil {
			return websocket.StatusGoingAway, "cairn closed the session stream"
		}
	}
}

// compactFrame writes msg, which must be exactly one JSON value, to buf
// without insignificant white space: the line it becomes then holds no
// newline, so one message can never be read as two frames.
func compactFrame(buf *bytes.Buffer, msg []byte) error {
	if !json.Valid(msg) {
		return errors.New("not one JSON value")
	}
	return json.Compact(buf, msg)
}

// fromCairn reads the stream's lines into q until the stream ends.
func fromCairn(stream io.Reader, q *queue, max int) (websocket.StatusCode, string) {
	r := jsonl.NewReader(stream, max).SkipBlank()
	for {
		line, tooLong, err := r.Next()
		if err != nil {
			return websocket.StatusGoingAway, "cairn closed the session stream"
		}
		if tooLong {
			return websocket.StatusMessageTooBig, "a frame from cairn is larger than the page accepts"
		}
		if !q.push(bytes.Clone(line)) {
			return websocket.StatusTryAgainLater, "the page fell behind cairn; reconnect to catch up"
		}
	}
}

// toPage sends the queued frames to the page, each within WriteLimit.
func toPage(ctx context.Context, conn *websocket.Conn, q *queue, cfg Config) (websocket.StatusCode, string) {
	for {
		frame, ok := q.pop(ctx)
		if !ok {
			// Whatever ended the connection said why first, unless it was
			// the Handler closing.
			return websocket.StatusGoingAway, "cairn is stopping"
		}
		// Not ctx: its end would drop the connection without a close
		// frame; the write still ends within WriteLimit.
		wctx, cancel := context.WithTimeout(context.Background(), cfg.WriteLimit)
		err := conn.Write(wctx, websocket.MessageText, frame)
		cancel()
		if err != nil {
			return websocket.StatusPolicyViolation, "the page did not take a frame in time"
		}
	}
}

// queue holds the frames waiting for the page, at most frames of them
// and bytes in all; push never blocks.
type queue struct {
	ch    chan []byte
	bytes atomic.Int64
	max   int64
}

func newQueue(frames, bytes int) *queue {
	return &queue{ch: make(chan []byte, frames), max: int64(bytes)}
}

// push adds a frame, or reports false when the queue is full.
func (q *queue) push(frame []byte) bool {
	n := int64(len(frame))
	if q.bytes.Add(n) > q.max {
		q.bytes.Add(-n)
		return false
	}
	select {
	case q.ch <- frame:
		return true
	default:
		q.bytes.Add(-n)
		return false
	}
}

// pop takes the oldest frame, waiting for one until ctx ends.
func (q *queue) pop(ctx context.Context) ([]byte, bool) {
	select {
	case f := <-q.ch:
		q.bytes.Add(-int64(len(f)))
		return f, true
	case <-ctx.Done():
		return nil, false
	}
}
