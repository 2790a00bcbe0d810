package provider

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Default time limits. A model may think for minutes without sending a
// byte: a reasoning model that does not stream its reasoning is silent
// until it has finished (before the first byte on some APIs, after an
// opening event on others), and a local server on a CPU may spend minutes
// on a long prompt. A limit that cuts such an answer off wastes it and the
// retries repeat the cost, so the limits are long: they end hangs, they do
// not hurry slow answers. models.json raises or lowers them per provider.
const (
	// DefaultConnectTimeout bounds opening a TCP connection; a reachable
	// server accepts in well under a second.
	DefaultConnectTimeout = 30 * time.Second
	// DefaultFirstByteTimeout bounds the wait from sending a request to
	// the first byte of the response body.
	DefaultFirstByteTimeout = 5 * time.Minute
	// DefaultIdleTimeout bounds the silence between two reads of a
	// response body once it has started.
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultTotalTimeout bounds one attempt from sending the request to
	// the end of its answer, so a server that dribbles a byte now and then
	// (never silent long enough for the idle limit) is still cut. Twenty
	// minutes is about 60,000 tokens at 50 a second, more than nearly any
	// agent turn writes even with long thinking; a model asked for its full
	// 128,000-token output, or a slow local server, raises it in models.json.
	DefaultTotalTimeout = 20 * time.Minute
)

// ErrTimeout is the cause (errors.Is) of every *Error a time limit ends.
var ErrTimeout = errors.New("provider time limit exceeded")

// Timeouts end requests that stop making progress, so a provider that never
// answers fails the turn (and lets the agent retry it) instead of hanging
// it until someone aborts. Zero fields mean the defaults; a negative field
// disables that limit.
type Timeouts struct {
	// Connect bounds dialing the server. It applies to the package's own
	// HTTP client only: a caller that brings its own Client sets its own.
	Connect time.Duration
	// FirstByte bounds the wait for the response headers and the first
	// byte of the body.
	FirstByte time.Duration
	// Idle bounds the wait between reads of the body once it has started.
	Idle time.Duration
	// Total bounds one attempt as a whole, from sending the request to the
	// end of the body, however steadily bytes arrive.
	Total time.Duration
}

func (t Timeouts) withDefaults() Timeouts {
	if t.Connect == 0 {
		t.Connect = DefaultConnectTimeout
	}
	if t.FirstByte == 0 {
		t.FirstByte = DefaultFirstByteTimeout
	}
	if t.Idle == 0 {
		t.Idle = DefaultIdleTimeout
	}
	if t.Total == 0 {
		t.Total = DefaultTotalTimeout
	}
	return t
}

// Timer is a pending call made by Options.AfterFunc; Stop cancels it and
// reports whether it did so before the call began. *time.Timer is one.
type Timer interface {
	Stop() bool
}

func realAfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// TimeoutHint tells the person how to raise the limits.
const TimeoutHint = "If the model is just slow, raise the provider's timeouts (\"timeouts\": {\"firstByte\": \"15m\", \"idle\": \"15m\"} in models.json)"

// TotalTimeoutHint tells the person how to raise the limit on a whole answer.
const TotalTimeoutHint = "If the answer is just long, raise the provider's total limit (\"timeouts\": {\"total\": \"1h\"} in models.json, or \"off\")"

// watchdog enforces one attempt's limits: when a timer fires it cancels the
// attempt, and the request or the body read that was waiting fails; expired
// then turns that failure into a clear error.
type watchdog struct {
	provider  string
	limits    Timeouts
	afterFunc func(time.Duration, func()) Timer
	cancel    func()

	mu      sync.Mutex
	timer   Timer  // the first-byte or idle limit, restarted by progress
	total   Timer  // the limit on the whole attempt, never restarted
	started bool   // the first body byte has arrived
	fired   string // which limit ended the attempt, "" while none has
	stopped bool
}

// start begins the watch of an attempt that is about to send its request.
func (w *watchdog) start() {
	if d := w.limits.Total; d > 0 {
		w.mu.Lock()
		w.total = w.afterFunc(d, func() { w.expire("total") })
		w.mu.Unlock()
	}
	w.arm()
}

// expire ends the attempt because the named limit passed, unless it is
// already over.
func (w *watchdog) expire(kind string) {
	w.mu.Lock()
	if w.stopped || w.fired != "" {
		w.mu.Unlock()
		return
	}
	w.fired = kind
	w.mu.Unlock()
	w.cancel()
}

// arm starts the limit for the wait ahead, replacing the previous one.
func (w *watchdog) arm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if w.fired != "" || w.stopped {
		return
	}
	d, kind := w.limits.FirstByte, "first-byte"
	if w.started {
		d, kind = w.limits.Idle, "idle"
	}
	if d <= 0 {
		return
	}
	w.timer = w.afterFunc(d, func() { w.expire(kind) })
}

// progress notes that body bytes arrived and restarts the clock.
func (w *watchdog) progress() {
	w.mu.Lock()
	w.started = true
	w.mu.Unlock()
	w.arm()
}

// stop ends the watch; the attempt is over.
func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	for _, t := range []*Timer{&w.timer, &w.total} {
		if *t != nil {
			(*t).Stop()
			*t = nil
		}
	}
}

// expired returns the error for the limit that ended the attempt, or nil
// when none did.
func (w *watchdog) expired() *Error {
	w.mu.Lock()
	kind := w.fired
	w.mu.Unlock()
	switch kind {
	case "first-byte":
		return &Error{Provider: w.provider, Retryable: true, Err: ErrTimeout, Hint: TimeoutHint,
			Message: fmt.Sprintf("no response within %s (first-byte timeout)", w.limits.FirstByte)}
	case "idle":
		return &Error{Provider: w.provider, Retryable: true, Err: ErrTimeout, Hint: TimeoutHint,
			Message: fmt.Sprintf("the answer stalled: nothing received for %s (idle timeout)", w.limits.Idle)}
	case "total":
		return &Error{Provider: w.provider, Retryable: true, Err: ErrTimeout, Hint: TotalTimeoutHint,
			Message: fmt.Sprintf("the answer was not finished within %s (total timeout)", w.limits.Total)}
	}
	return nil
}

// watchedBody is a response body under a watchdog. Every provider reads its
// stream through it, so one place enforces the limits for all of them.
type watchedBody struct {
	rc io.ReadCloser
	w  *watchdog
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.progress()
	}
	if err != nil && err != io.EOF {
		if perr := b.w.expired(); perr != nil {
			return n, perr
		}
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.w.stop()
	b.w.cancel()
	return b.rc.Close()
}

// clients holds the package's HTTP clients by connect timeout, so options
// with the same limit share one connection pool.
var clients sync.Map // time.Duration -> *http.Client

// clientFor returns the package's client dialing with the given timeout; it
// has no overall timeout, since an answer may stream for many minutes.
func clientFor(connect time.Duration) *http.Client {
	if connect == DefaultConnectTimeout {
		return defaultClient
	}
	if c, ok := clients.Load(connect); ok {
		return c.(*http.Client)
	}
	c, _ := clients.LoadOrStore(connect, newClient(connect))
	return c.(*http.Client)
}

func newClient(connect time.Duration) *http.Client {
	if connect < 0 {
		connect = 0 // net.Dialer: no limit
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          16,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   15 * time.Second,
			ExpectContinueTimeout: time.Second,
		},
	}
}
