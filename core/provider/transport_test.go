package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const testKey = "sk-test-SECRET-0123456789"

var fixedNow = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// decodeTestErr parses an Anthropic-style error envelope.
func decodeTestErr(status int, _ http.Header, body []byte) *provider.Error {
	var env struct {
		Error struct {
			Type       string `json:"type"`
			Message    string `json:"message"`
			RetryAfter string `json:"retry_after"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return nil
	}
	e := &provider.Error{Code: env.Error.Type, Message: env.Error.Message}
	if env.Error.Type == "overloaded_error" {
		e.Retryable = true
	}
	if d, err := time.ParseDuration(env.Error.RetryAfter); err == nil {
		e.RetryAfter = d
	}
	return e
}

func errBody(typ, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
	return b
}

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// harness records the waits Send asks for instead of sleeping.
type harness struct {
	t      *testing.T
	srv    *providertest.Server
	url    string
	opts   provider.Options
	mu     sync.Mutex
	waits  []time.Duration
	builds int
}

func newHarness(t *testing.T, responses ...providertest.Response) *harness {
	h := &harness{t: t}
	h.srv = providertest.NewServer(t, responses...)
	h.url = h.srv.URL + "/v1/messages"
	h.opts = provider.Options{
		Client: h.srv.Client(),
		// Send retries only when asked; these tests exercise its retries.
		Retry: provider.RetryPolicy{MaxRetries: 2},
		Now:   func() time.Time { return fixedNow },
		Sleep: func(ctx context.Context, d time.Duration) error {
			h.mu.Lock()
			h.waits = append(h.waits, d)
			h.mu.Unlock()
			return ctx.Err()
		},
	}
	return h
}

func (h *harness) newRequest(ctx context.Context) (*http.Request, error) {
	h.builds++
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, strings.NewReader(`{"stream":true}`))
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-key", testKey)
	return req, nil
}

func (h *harness) send(ctx context.Context) (*http.Response, error) {
	return provider.Send(ctx, h.opts, "testprov", testKey, h.newRequest, decodeTestErr)
}

// mustSucceed checks that Send returned the scripted body.
func (h *harness) mustSucceed(resp *http.Response, err error, body string) {
	h.t.Helper()
	if err != nil {
		h.t.Fatalf("Send: %v", err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil || string(got) != body {
		h.t.Fatalf("body %q, %v; want %q", got, err, body)
	}
}

func (h *harness) requests(want int) {
	h.t.Helper()
	reqs := h.srv.Requests()
	if len(reqs) != want {
		h.t.Fatalf("%d requests, want %d", len(reqs), want)
	}
	for i, r := range reqs {
		if string(r.Body) != `{"stream":true}` || r.Header.Get("x-api-key") != testKey || r.Method != http.MethodPost {
			h.t.Errorf("request %d: %s %q %q", i, r.Method, r.Body, r.Header.Get("x-api-key"))
		}
	}
}

func (h *harness) wantWaits(want ...time.Duration) {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if fmt.Sprint(h.waits) != fmt.Sprint(want) {
		h.t.Errorf("waits %v, want %v", h.waits, want)
	}
}

func asProviderError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	if strings.Contains(err.Error(), testKey) || strings.Contains(pe.Message, testKey) {
		t.Errorf("API key leaked into the error: %q", err.Error())
	}
	return pe
}

var ok200 = providertest.SSEBody("data: ok\n\n")

func TestSendSuccessFirstTry(t *testing.T) {
	h := newHarness(t, ok200)
	resp, err := h.send(context.Background())
	h.mustSucceed(resp, err, "data: ok\n\n")
	h.requests(1)
	h.wantWaits()
}

func TestSendRetryAfter(t *testing.T) {
	tests := []struct {
		name string
		h    http.Header
		wait time.Duration
	}{
		{"seconds", header("Retry-After", "2"), 2 * time.Second},
		{"milliseconds", header("Retry-After-Ms", "1500"), 1500 * time.Millisecond},
		{"milliseconds beat seconds", header("Retry-After-Ms", "300", "Retry-After", "9"), 300 * time.Millisecond},
		{"http date", header("Retry-After", fixedNow.Add(7*time.Second).Format(http.TimeFormat)), 7 * time.Second},
		{"exactly MaxDelay", header("Retry-After", "60"), 60 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t,
				providertest.Response{Status: 429, Header: tt.h, Body: errBody("rate_limit_error", "slow down")},
				ok200)
			resp, err := h.send(context.Background())
			h.mustSucceed(resp, err, "data: ok\n\n")
			h.requests(2)
			h.wantWaits(tt.wait)
			if h.builds != 2 {
				t.Errorf("newRequest called %d times, want 2 (a fresh request per attempt)", h.builds)
			}
		})
	}
}

func TestSendRetryAfterFromDecoder(t *testing.T) {
	// A RetryAfter the error body gives (Gemini's RetryInfo) is honoured when
	// there is no header.
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"type": "rate_limit_error", "message": "quota", "retry_after": "3s"}})
	h := newHarness(t, providertest.Response{Status: 429, Body: body}, ok200)
	resp, err := h.send(context.Background())
	h.mustSucceed(resp, err, "data: ok\n\n")
	h.wantWaits(3 * time.Second)
}

func TestSendServerErrorThenSuccess(t *testing.T) {
	for _, status := range []int{500, 502, 503, 529, 408} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			h := newHarness(t, providertest.Response{Status: status, Body: errBody("api_error", "oops")}, ok200)
			h.opts.Retry.BaseDelay = 100 * time.Millisecond
			resp, err := h.send(context.Background())
			h.mustSucceed(resp, err, "data: ok\n\n")
			h.requests(2)
			if len(h.waits) != 1 || h.waits[0] < 75*time.Millisecond || h.waits[0] > 125*time.Millisecond {
				t.Errorf("waits %v, want one of 100ms ± 25%%", h.waits)
			}
		})
	}
}

func TestSendBackoffGrowsAndGivesUp(t *testing.T) {
	resp503 := providertest.Response{Status: 503, Body: errBody("api_error", "down")}
	h := newHarness(t, resp503, resp503, resp503)
	h.opts.Retry.BaseDelay = 100 * time.Millisecond
	type call struct {
		attempt int
		wait    time.Duration
		status  int
	}
	var calls []call
	h.opts.Retry.OnRetry = func(attempt int, wait time.Duration, err *provider.Error) {
		calls = append(calls, call{attempt, wait, err.Status})
	}
	_, err := h.send(context.Background())
	pe := asProviderError(t, err)
	if pe.Status != 503 || !pe.Retryable || pe.Message != "down" || pe.Code != "api_error" || pe.Provider != "testprov" {
		t.Errorf("error %+v", pe)
	}
	h.requests(3) // the default policy: two retries
	if len(calls) != 2 || calls[0].attempt != 1 || calls[1].attempt != 2 || calls[0].status != 503 {
		t.Fatalf("OnRetry calls %+v", calls)
	}
	if calls[0].wait != h.waits[0] || calls[1].wait != h.waits[1] {
		t.Errorf("OnRetry waits %+v differ from slept %v", calls, h.waits)
	}
	if w := h.waits[0]; w < 75*time.Millisecond || w > 125*time.Millisecond {
		t.Errorf("first backoff %v", w)
	}
	if w := h.waits[1]; w < 150*time.Millisecond || w > 250*time.Millisecond {
		t.Errorf("second backoff %v", w)
	}
}

func TestSendBackoffCappedByMaxDelay(t *testing.T) {
	resp500 := providertest.Response{Status: 500}
	h := newHarness(t, resp500, resp500, resp500, resp500, ok200)
	h.opts.Retry = provider.RetryPolicy{MaxRetries: 4, BaseDelay: time.Second, MaxDelay: 2 * time.Second}
	resp, err := h.send(context.Background())
	h.mustSucceed(resp, err, "data: ok\n\n")
	if len(h.waits) != 4 {
		t.Fatalf("waits %v", h.waits)
	}
	for _, w := range h.waits[2:] {
		// Capped at MaxDelay, plus at most the 25% jitter.
		if w < 1500*time.Millisecond || w > 2500*time.Millisecond {
			t.Errorf("capped backoff %v out of range", w)
		}
	}
}

func TestSendClientErrorNotRetried(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 413, 422} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			h := newHarness(t, providertest.Response{Status: status, Body: errBody("invalid_request_error", "bad field")})
			_, err := h.send(context.Background())
			pe := asProviderError(t, err)
			if pe.Retryable || pe.Status != status || pe.Message != "bad field" || pe.Code != "invalid_request_error" {
				t.Errorf("error %+v", pe)
			}
			if pe.Hint != provider.StatusHint(status, "") {
				t.Errorf("hint %q", pe.Hint)
			}
			h.requests(1)
			h.wantWaits()
		})
	}
}

func TestSendDecoderCanMakeRetryable(t *testing.T) {
	// Any status but 400, which is never retried (TestSendNeverRetriesA400).
	h := newHarness(t, providertest.Response{Status: 422, Body: errBody("overloaded_error", "busy")}, ok200)
	resp, err := h.send(context.Background())
	h.mustSucceed(resp, err, "data: ok\n\n")
	h.requests(2)
}

func TestSendWithoutDecoder(t *testing.T) {
	h := newHarness(t, providertest.Response{Status: 503, Body: []byte("<html>bad gateway</html>")})
	h.opts.Retry.MaxRetries = -1
	_, err := provider.Send(context.Background(), h.opts, "testprov", testKey, h.newRequest, nil)
	pe := asProviderError(t, err)
	if pe.Message != "Service Unavailable" || pe.Status != 503 || !pe.Retryable || pe.Hint == "" {
		t.Errorf("error %+v", pe)
	}
	// An unparseable body with a decoder behaves the same.
	h2 := newHarness(t, providertest.Response{Status: 404, Body: []byte("not json")})
	_, err = h2.send(context.Background())
	if pe := asProviderError(t, err); pe.Message != "Not Found" || pe.Retryable {
		t.Errorf("error %+v", pe)
	}
}

func TestSendRetryAfterBeyondMaxDelayNotRetried(t *testing.T) {
	h := newHarness(t, providertest.Response{Status: 429, Header: header("Retry-After", "120"), Body: errBody("rate_limit_error", "later")})
	_, err := h.send(context.Background())
	pe := asProviderError(t, err)
	if pe.RetryAfter != 120*time.Second || !pe.Retryable || pe.Status != 429 {
		t.Errorf("error %+v", pe)
	}
	h.requests(1)
	h.wantWaits()

	h2 := newHarness(t, providertest.Response{Status: 429, Header: header("Retry-After", "5")})
	h2.opts.Retry.MaxDelay = 4 * time.Second
	_, err = h2.send(context.Background())
	asProviderError(t, err)
	h2.requests(1)
}

func TestSendMaxRetries(t *testing.T) {
	resp500 := providertest.Response{Status: 500}
	for _, tt := range []struct {
		max, requests int
	}{{-1, 1}, {1, 2}, {3, 4}} {
		t.Run(fmt.Sprint(tt.max), func(t *testing.T) {
			var script []providertest.Response
			for range tt.requests {
				script = append(script, resp500)
			}
			h := newHarness(t, script...)
			h.opts.Retry.MaxRetries = tt.max
			called := 0
			h.opts.Retry.OnRetry = func(int, time.Duration, *provider.Error) { called++ }
			_, err := h.send(context.Background())
			if pe := asProviderError(t, err); pe.Status != 500 || !pe.Retryable {
				t.Errorf("error %+v", pe)
			}
			h.requests(tt.requests)
			if called != tt.requests-1 || len(h.waits) != tt.requests-1 {
				t.Errorf("OnRetry called %d times, %d waits; want %d", called, len(h.waits), tt.requests-1)
			}
		})
	}
}

// closedAddr returns an address nothing listens on.
func closedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A refused connection to this machine is a local server that is not
// running: it fails at once, with no retry, and names the URL (without the
// key some gateways take in the query).
func TestSendConnectionRefused(t *testing.T) {
	h := newHarness(t)
	addr := closedAddr(t)
	h.url = "http://" + addr + "/v1/messages?key=" + testKey
	h.opts.Client = nil // the package's default client
	retries := 0
	h.opts.Retry.OnRetry = func(int, time.Duration, *provider.Error) { retries++ }
	_, err := h.send(context.Background())
	pe := asProviderError(t, err)
	want := "nothing is listening at http://" + addr + "/v1/messages — is the server running?"
	if pe.Retryable || pe.Message != want {
		t.Errorf("error %+v, want a permanent %q", pe, want)
	}
	if strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "?.") {
		t.Errorf("error %q", err)
	}
	if retries != 0 || len(h.waits) != 0 || h.builds != 1 {
		t.Errorf("retries %d, waits %v, builds %d; want one attempt", retries, h.waits, h.builds)
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) {
		t.Error("the network error is not reachable with errors.As")
	}
}

// refusingDoer fails every request as a refused connection would.
type refusingDoer struct{}

func (refusingDoer) Do(req *http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// A remote server refusing connections may be restarting behind a load
// balancer: that stays a retryable network failure.
func TestSendRemoteConnectionRefusedIsRetryable(t *testing.T) {
	h := newHarness(t)
	h.url = "https://api.example.com/v1/messages"
	h.opts.Client = refusingDoer{}
	_, err := h.send(context.Background())
	pe := asProviderError(t, err)
	if !pe.Retryable || !strings.HasPrefix(pe.Message, "connection failed") || h.builds != 3 {
		t.Errorf("error %+v after %d attempts", pe, h.builds)
	}
}

func TestSendCancelDuringSleep(t *testing.T) {
	h := newHarness(t, providertest.Response{Status: 429, Header: header("Retry-After", "30")})
	h.opts.Sleep = nil // the real, cancellable sleep
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.opts.Retry.OnRetry = func(int, time.Duration, *provider.Error) { cancel() }
	start := time.Now()
	_, err := h.send(ctx)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Send took %v after cancel", d)
	}
	pe := asProviderError(t, err)
	if pe.Retryable || pe.Message != "request was aborted" || !errors.Is(err, context.Canceled) {
		t.Errorf("error %+v", pe)
	}
	h.requests(1)
}

func TestSendCancelWhileWaitingForFirstByte(t *testing.T) {
	h := newHarness(t, providertest.Response{Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-h.srv.Arrived
		cancel()
	}()
	_, err := h.send(ctx)
	pe := asProviderError(t, err)
	if pe.Retryable || !errors.Is(err, context.Canceled) {
		t.Errorf("error %+v", pe)
	}
	h.requests(1)
	h.wantWaits()
}

func TestSendAlreadyCancelled(t *testing.T) {
	h := newHarness(t)
	h.url = "http://" + closedAddr(t) + "/"
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := h.send(ctx)
	if pe := asProviderError(t, err); pe.Retryable || !errors.Is(err, context.Canceled) {
		t.Errorf("error %+v", pe)
	}
	h.wantWaits()
}

func TestSendRedactsEchoedKey(t *testing.T) {
	h := newHarness(t, providertest.Response{Status: 401, Body: errBody("authentication_error", "invalid x-api-key: "+testKey)})
	_, err := h.send(context.Background())
	pe := asProviderError(t, err)
	if pe.Message != "invalid x-api-key: [redacted]" {
		t.Errorf("message %q", pe.Message)
	}
	if pe.Hint == "" || pe.Retryable {
		t.Errorf("error %+v", pe)
	}
}

func TestSendNewRequestError(t *testing.T) {
	h := newHarness(t)
	sentinel := errors.New("bad base URL")
	newRequest := func(context.Context) (*http.Request, error) {
		return nil, fmt.Errorf("build request for https://api.example/?key=%s: %w", testKey, sentinel)
	}
	_, err := provider.Send(context.Background(), h.opts, "testprov", testKey, newRequest, decodeTestErr)
	pe := asProviderError(t, err)
	if pe.Retryable || pe.Provider != "testprov" || !strings.Contains(pe.Message, "[redacted]") {
		t.Errorf("error %+v", pe)
	}
	if !errors.Is(err, sentinel) {
		t.Error("newRequest's error is not wrapped")
	}
	h.requests(0)
}

func TestStreamError(t *testing.T) {
	live := context.Background()
	e := provider.StreamError(live, "p", io.ErrUnexpectedEOF)
	if !e.Retryable || e.Message != "stream interrupted: unexpected EOF" || !errors.Is(e, io.ErrUnexpectedEOF) {
		t.Errorf("dropped stream: %+v", e)
	}
	e = provider.StreamError(live, "p", fmt.Errorf("read event stream: %w", provider.ErrSSEEventTooLong))
	if e.Retryable || !errors.Is(e, provider.ErrSSEEventTooLong) {
		t.Errorf("oversized event: %+v", e)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	e = provider.StreamError(cancelled, "p", io.ErrUnexpectedEOF)
	if e.Retryable || e.Message != "request was aborted" {
		t.Errorf("cancelled: %+v", e)
	}
}

// A body that dies mid-stream reaches the decoder as an error, and
// StreamError calls it a retryable interruption.
func TestDroppedStreamIsRetryable(t *testing.T) {
	h := newHarness(t, providertest.Response{Status: 200, Header: header("Content-Type", "text/event-stream"), Body: []byte("data: one\n\ndata: tw"), Drop: true})
	resp, err := h.send(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	d := provider.NewSSEDecoder(resp.Body)
	ev, err := d.Next()
	if err != nil || string(ev.Data) != "one" {
		t.Fatalf("first event %q, %v", ev.Data, err)
	}
	_, err = d.Next()
	if err == nil || err == io.EOF {
		t.Fatalf("dropped connection gave %v", err)
	}
	if e := provider.StreamError(context.Background(), "testprov", err); !e.Retryable || e.Status != 0 {
		t.Errorf("stream error %+v", e)
	}
}

func TestFail(t *testing.T) {
	model := core.Model{ID: "m", Provider: "testprov"}
	live := context.Background()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	b := provider.NewBuilder(&model, nil)
	b.Append(b.BeginText(), "so far")
	in := &provider.Error{Provider: "testprov", Message: "stream interrupted: EOF", Retryable: true}
	msg, err := provider.Fail(live, b, in)
	if msg.StopReason != core.StopError || err != in || msg.ErrorMessage != in.Error() || msg.Text() != "so far" {
		t.Errorf("live failure: %+v, %v", msg, err)
	}

	// Cancelled: a network-ish error becomes an abort.
	b = provider.NewBuilder(&model, nil)
	msg, err = provider.Fail(cancelled, b, in)
	pe := asProviderError(t, err)
	if msg.StopReason != core.StopAborted || pe.Retryable || !errors.Is(err, context.Canceled) || pe.Provider != "testprov" || msg.ErrorMessage != err.Error() {
		t.Errorf("cancelled retryable: %+v, %+v", msg, pe)
	}

	// Cancelled, but the provider had already refused the request for a
	// reason of its own: keep that reason.
	b = provider.NewBuilder(&model, nil)
	refused := &provider.Error{Provider: "testprov", Status: 400, Message: "bad"}
	msg, err = provider.Fail(cancelled, b, refused)
	if msg.StopReason != core.StopAborted || err != refused {
		t.Errorf("cancelled non-retryable: %+v, %v", msg, err)
	}

	// A plain error under a cancelled context is an abort too.
	b = provider.NewBuilder(&model, nil)
	msg, err = provider.Fail(cancelled, b, errors.New("read: use of closed connection"))
	if msg.StopReason != core.StopAborted || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled plain: %+v, %v", msg, err)
	}
}

func TestSendBelievesXShouldRetry(t *testing.T) {
	for _, tc := range []struct {
		status int
		header string
		calls  int
	}{
		{500, "false", 1},
		{403, "true", 2},
		{400, "true", 1}, // never a 400: the request is at fault
	} {
		h := http.Header{}
		h.Set("X-Should-Retry", tc.header)
		srv := providertest.NewServer(t,
			providertest.Response{Status: tc.status, Header: h, Body: []byte(`{}`)},
			providertest.Response{Status: 200, Body: []byte(`ok`)})
		opts := provider.Options{Retry: provider.RetryPolicy{MaxRetries: 2}, Sleep: func(context.Context, time.Duration) error { return nil }}
		resp, _ := provider.Send(context.Background(), opts, "anthropic", "", func(ctx context.Context) (*http.Request, error) {
			return http.NewRequestWithContext(ctx, "POST", srv.URL, nil)
		}, nil)
		if resp != nil {
			resp.Body.Close()
		}
		if got := len(srv.Requests()); got != tc.calls {
			t.Errorf("status %d with x-should-retry %s: %d requests, want %d", tc.status, tc.header, got, tc.calls)
		}
	}
}

// TestSendNeverRetriesA400 checks pi's rule: a 400 is the request's fault,
// so it is not sent again, whatever the body or headers say.
func TestSendNeverRetriesA400(t *testing.T) {
	h := newHarness(t,
		providertest.Response{Status: 400, Header: header("X-Should-Retry", "true"), Body: errBody("overloaded_error", "busy, try again")},
		ok200)
	_, err := h.send(context.Background())
	pe := asProviderError(t, err)
	if pe.Retryable || pe.Status != 400 {
		t.Fatalf("error %+v: a 400 must not be retryable", pe)
	}
	h.requests(1)
	h.wantWaits()
}

// A successful answer that is a web page (a captive portal, a base URL
// naming a website) is not the API: Send fails at once, without retrying
// the same page, saying it was HTML, quoting the page's title and what to
// check.
func TestSendHTMLPageIsNotTheAPI(t *testing.T) {
	page := providertest.Response{Status: 200, Header: header("Content-Type", "text/html; charset=utf-8"),
		Body: []byte("<!doctype html><html><head><title>\n  Hotel   Wi-Fi &amp; Login\x1b[2J </title></head><body>sign in</body></html>")}
	h := newHarness(t, page, page, page)
	_, err := h.send(context.Background())
	pe := asProviderError(t, err)
	if pe.Retryable {
		t.Error("a web page is retryable")
	}
	h.requests(1)
	h.wantWaits()
	msg := err.Error()
	for _, want := range []string{"web page", "text/html", "not the API", `"Hotel Wi-Fi & Login\\x1b[2J"`, "base URL", "captive portal"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	// An event stream or JSON is the API's, whatever it holds.
	h = newHarness(t, providertest.Response{Status: 200, Header: header("Content-Type", "application/json"), Body: []byte(`{"ok":true}`)})
	resp, err := h.send(context.Background())
	h.mustSucceed(resp, err, `{"ok":true}`)
}

// FuzzPageTitle: no page makes pageTitle panic, and the title it returns
// is one escaped line of at most maxTitle characters.
func FuzzPageTitle(f *testing.F) {
	for _, s := range []string{"<title>x</title>", "<TITLE a=b>Portal</TITLE>", "<title>", "<html><title>\x00\n</title>", "<svg><title>in svg</title></svg>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		title := provider.PageTitle(page)
		if strings.ContainsAny(title, "\n\x1b\x00") || utf8.RuneCountInString(title) > provider.MaxTitle+200 {
			t.Fatalf("title %q", title)
		}
	})
}
