package provider_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/provider"
)

// fakeTimer is a timer the test fires by hand, so time limits are tested
// without waiting for them.
type fakeTimer struct {
	d       time.Duration
	f       func()
	mu      sync.Mutex
	stopped bool
}

func (t *fakeTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// fire runs the timer's function unless it was stopped, and reports whether
// it ran.
func (t *fakeTimer) fire() bool {
	if !t.Stop() {
		return false
	}
	t.f()
	return true
}

// fakeClock hands each timer Send starts to the test.
type fakeClock struct{ armed chan *fakeTimer }

func newFakeClock() *fakeClock { return &fakeClock{armed: make(chan *fakeTimer, 100)} }

func (c *fakeClock) AfterFunc(d time.Duration, f func()) provider.Timer {
	t := &fakeTimer{d: d, f: f}
	c.armed <- t
	return t
}

// fireNext fires the next live timer of duration d, skipping those already
// replaced by a later one.
func (c *fakeClock) fireNext(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case tm := <-c.armed:
			if tm.d == d && tm.fire() {
				return
			}
		case <-deadline:
			t.Fatalf("no %s timer was started", d)
		}
	}
}

// hangingServer answers with head (nothing when empty), then never again
// until the test ends or the client goes away.
func hangingServer(t *testing.T, head string) *httptest.Server {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if head != "" {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, head)
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

func sendTo(ctx context.Context, opts provider.Options, url string) (*http.Response, error) {
	return provider.Send(ctx, opts, "testprov", "", func(ctx context.Context) (*http.Request, error) {
		return http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	}, nil)
}

// A server that never answers is ended by the first-byte limit with a
// retryable error that says which limit and how long it was.
func TestSendFirstByteTimeout(t *testing.T) {
	srv := hangingServer(t, "")
	clock := newFakeClock()
	opts := provider.Options{Client: srv.Client(), AfterFunc: clock.AfterFunc, Timeouts: provider.Timeouts{FirstByte: 2 * time.Minute}}
	errc := make(chan error, 1)
	go func() {
		resp, err := sendTo(context.Background(), opts, srv.URL)
		if resp != nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	clock.fireNext(t, 2*time.Minute)
	err := <-errc
	pe := asProviderError(t, err)
	if !pe.Retryable || !errors.Is(err, provider.ErrTimeout) || pe.Message != "no response within 2m0s (first-byte timeout)" {
		t.Errorf("error %+v", pe)
	}
	if !strings.Contains(err.Error(), "testprov: ") || !strings.Contains(err.Error(), "models.json") {
		t.Errorf("error %q does not name the provider and the setting", err)
	}
}

// The first-byte limit covers the body too: headers alone are not an answer.
func TestSendFirstByteTimeoutAfterHeaders(t *testing.T) {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer srv.Close()
	defer close(done)
	clock := newFakeClock()
	opts := provider.Options{Client: srv.Client(), AfterFunc: clock.AfterFunc}
	resp, err := sendTo(context.Background(), opts, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	readc := make(chan error, 1)
	go func() { _, err := io.ReadAll(resp.Body); readc <- err }()
	clock.fireNext(t, provider.DefaultFirstByteTimeout)
	pe := asProviderError(t, <-readc)
	if !pe.Retryable || !strings.Contains(pe.Message, "first-byte timeout") {
		t.Errorf("error %+v", pe)
	}
}

// A stream that stops mid-answer is ended by the idle limit, and the
// stream error keeps the limit's message.
func TestSendIdleTimeoutMidStream(t *testing.T) {
	srv := hangingServer(t, "data: {\"partial\":true}\n\n")
	clock := newFakeClock()
	opts := provider.Options{Client: srv.Client(), AfterFunc: clock.AfterFunc, Timeouts: provider.Timeouts{Idle: 90 * time.Second}}
	resp, err := sendTo(context.Background(), opts, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	type result struct {
		data []byte
		err  error
	}
	readc := make(chan result, 1)
	go func() { b, err := io.ReadAll(resp.Body); readc <- result{b, err} }()
	clock.fireNext(t, 90*time.Second)
	r := <-readc
	if string(r.data) != "data: {\"partial\":true}\n\n" {
		t.Errorf("read %q before the stall", r.data)
	}
	se := provider.StreamError(context.Background(), "testprov", r.err)
	if !se.Retryable || !errors.Is(se, provider.ErrTimeout) || se.Message != "the answer stalled: nothing received for 1m30s (idle timeout)" {
		t.Errorf("stream error %+v", se)
	}
}

// Limits that never fire cost nothing: a normal answer reads to the end and
// its timers are stopped.
func TestSendTimersStopAfterAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	clock := newFakeClock()
	resp, err := sendTo(context.Background(), provider.Options{Client: srv.Client(), AfterFunc: clock.AfterFunc}, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != "ok" {
		t.Fatalf("read %q, %v", b, err)
	}
	close(clock.armed)
	for tm := range clock.armed {
		if tm.fire() {
			t.Errorf("a %s timer was still running after Close", tm.d)
		}
	}
}

// A server that sends a byte now and then is never silent long enough for
// the idle limit; the total limit still ends the attempt, with a retryable
// error that names the limit and says how to raise it.
func TestSendTotalTimeoutCutsADribble(t *testing.T) {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-done:
				return
			case <-tick.C:
				io.WriteString(w, ":")
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer srv.Close()
	defer close(done)
	opts := provider.Options{Client: srv.Client(), Timeouts: provider.Timeouts{Total: 300 * time.Millisecond}}
	type result struct {
		n   int
		err error
	}
	readc := make(chan result, 1)
	go func() {
		resp, err := sendTo(context.Background(), opts, srv.URL)
		if err != nil {
			readc <- result{0, err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		readc <- result{len(b), err}
	}()
	var r result
	select {
	case r = <-readc:
	case <-time.After(10 * time.Second):
		t.Fatal("a dribbling answer was not cut by a 300ms total limit")
	}
	if r.n == 0 {
		t.Fatalf("nothing was read before the error %v: the server did not dribble", r.err)
	}
	se := provider.StreamError(context.Background(), "testprov", r.err)
	if !se.Retryable || !errors.Is(se, provider.ErrTimeout) || se.Message != "the answer was not finished within 300ms (total timeout)" {
		t.Errorf("stream error %+v", se)
	}
	if !strings.Contains(se.Error(), `"total"`) || !strings.Contains(se.Error(), "models.json") {
		t.Errorf("error %q does not say how to raise the limit", se)
	}
}

// The total limit starts with the request, not with the first byte: a
// server that never answers is cut by it when the first-byte limit is off.
func TestSendTotalTimeoutBeforeFirstByte(t *testing.T) {
	srv := hangingServer(t, "")
	clock := newFakeClock()
	opts := provider.Options{Client: srv.Client(), AfterFunc: clock.AfterFunc, Timeouts: provider.Timeouts{FirstByte: -1, Total: time.Hour}}
	errc := make(chan error, 1)
	go func() {
		resp, err := sendTo(context.Background(), opts, srv.URL)
		if resp != nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	clock.fireNext(t, time.Hour)
	pe := asProviderError(t, <-errc)
	if !pe.Retryable || pe.Message != "the answer was not finished within 1h0m0s (total timeout)" {
		t.Errorf("error %+v", pe)
	}
}
