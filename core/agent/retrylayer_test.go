package agent

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/openai"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// retryFixture runs prompts against an OpenAI-compatible test server with
// the provider's default options, as the front ends open providers, so the
// agent is the only layer that retries. waits records the retry delays.
func retryFixture(t *testing.T, retry RetrySettings, now time.Time, responses ...providertest.Response) (*fixture, *providertest.Server, *[]time.Duration) {
	t.Helper()
	srv := providertest.NewServer(t, responses...)
	prov := openai.New(provider.Options{})
	model := core.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 1000, MaxTokens: 100}
	waits := new([]time.Duration)
	f := newFixture(t, Config{
		Model: model,
		Open:  func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil },
		Retry: retry,
		Now:   func() time.Time { return now },
		Sleep: func(_ context.Context, d time.Duration) error { *waits = append(*waits, d); return nil },
	})
	return f, srv, waits
}

func countStarts(evs []core.Event) (starts int) {
	for _, e := range evs {
		if _, ok := e.(core.AutoRetryStart); ok {
			starts++
		}
	}
	return starts
}

// A provider that keeps failing gets MaxRetries+1 requests per prompt, each
// retry announced by one auto_retry_start: before, inner HTTP retries made
// it 12 requests, most of them invisible.
func TestPersistentFailureIsTriedMaxRetriesPlusOneTimes(t *testing.T) {
	busy := providertest.Response{Status: 503, Body: []byte(`{"error":{"message":"busy","type":"server_error"}}`)}
	f, srv, waits := retryFixture(t, DefaultRetry, time.Now(), busy, busy, busy, busy, busy, busy, busy, busy, busy, busy, busy, busy)
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	if n := len(srv.Requests()); n != DefaultRetry.MaxRetries+1 {
		t.Errorf("requests = %d, want %d", n, DefaultRetry.MaxRetries+1)
	}
	if n := countStarts(evs); n != DefaultRetry.MaxRetries {
		t.Errorf("auto_retry_start events = %d, want %d", n, DefaultRetry.MaxRetries)
	}
	if len(*waits) != DefaultRetry.MaxRetries {
		t.Errorf("waits = %v", *waits)
	}
	if s := evs[len(evs)-1].(core.Settled); !strings.Contains(s.Error, "busy") {
		t.Errorf("settled = %+v", s)
	}
}

// A Retry-After within MaxDelay is the wait, not the backoff's 2 s.
func TestRetryAfterWithinCapIsHonoured(t *testing.T) {
	limited := providertest.Response{Status: 429, Header: http.Header{"Retry-After": {"7"}}, Body: []byte(`{"error":{"message":"slow down","type":"rate_limit_exceeded"}}`)}
	f, srv, waits := retryFixture(t, DefaultRetry, time.Now(), limited, providertest.SSE(t, "openai-chat/text.0.sse"))
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	if len(*waits) != 1 || (*waits)[0] != 7*time.Second {
		t.Errorf("waits = %v, want [7s]", *waits)
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("requests = %d, want 2", len(srv.Requests()))
	}
	if s := evs[len(evs)-1].(core.Settled); s.Error != "" {
		t.Errorf("settled = %+v", s)
	}
}

// A Retry-After beyond MaxDelay is not retried at all (a 2 s retry would
// only be refused again), and the error says when to try again.
func TestRetryAfterBeyondCapIsNotRetried(t *testing.T) {
	now := time.Date(2026, 11, 25, 4, 50, 10, 0, time.UTC)
	limited := providertest.Response{Status: 429, Header: http.Header{"Retry-After": {"120"}}, Body: []byte(`{"error":{"message":"slow down","type":"rate_limit_exceeded"}}`)}
	f, srv, waits := retryFixture(t, DefaultRetry, now, limited, limited, limited, limited)
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	if len(srv.Requests()) != 1 || len(*waits) != 0 || countStarts(evs) != 0 {
		t.Errorf("requests = %d, waits = %v, retries = %d; want one request, no retry", len(srv.Requests()), *waits, countStarts(evs))
	}
	want := "the server asks to retry in 2m0s; try again after " + now.Add(2*time.Minute).Local().Format("15:04:05")
	if s := evs[len(evs)-1].(core.Settled); !strings.Contains(s.Error, want) || !strings.Contains(s.Error, "slow down") {
		t.Errorf("settled error %q, want it to contain %q", s.Error, want)
	}
}

// firingTimer is a provider.Timer whose function has already been started.
type firingTimer struct{}

func (firingTimer) Stop() bool { return false }

// idleTimer never fires on its own.
type idleTimer struct{}

func (idleTimer) Stop() bool { return true }

// expireAt returns an AfterFunc under which the limit of duration d expires
// at once and every other limit never does, so a test needs no real waits.
func expireAt(d time.Duration) func(time.Duration, func()) provider.Timer {
	return func(got time.Duration, f func()) provider.Timer {
		if got != d {
			return idleTimer{}
		}
		go f()
		return firingTimer{}
	}
}

// hangingTestServer answers with head (nothing when empty) and then hangs
// until the client goes away.
func hangingTestServer(t *testing.T, head string) (*httptest.Server, *atomic.Int32) {
	var requests atomic.Int32
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
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
	return srv, &requests
}

func timeoutFixture(t *testing.T, baseURL string, opts provider.Options) *fixture {
	prov := openai.New(opts)
	model := core.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: baseURL, ContextWindow: 1000, MaxTokens: 100}
	return newFixture(t, Config{
		Model: model,
		Open:  func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil },
		Retry: DefaultRetry,
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
}

// A provider that never answers no longer hangs the turn: the first-byte
// limit fails each attempt, the agent retries visibly, and the prompt
// settles with an error that names the limit.
func TestNeverAnsweringProviderTimesOutAndRetries(t *testing.T) {
	srv, _ := hangingTestServer(t, "")
	f := timeoutFixture(t, srv.URL+"/v1", provider.Options{AfterFunc: expireAt(provider.DefaultFirstByteTimeout)})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	if n := countStarts(evs); n != DefaultRetry.MaxRetries {
		t.Errorf("auto_retry_start events = %d, want %d", n, DefaultRetry.MaxRetries)
	}
	if s := evs[len(evs)-1].(core.Settled); !strings.Contains(s.Error, "no response within 5m0s (first-byte timeout)") {
		t.Errorf("settled = %+v", s)
	}
}

// A stream that stalls mid-answer is ended by the idle limit and retried.
func TestStalledStreamTimesOutAndRetries(t *testing.T) {
	chunk := `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}` + "\n\n"
	srv, requests := hangingTestServer(t, chunk)
	f := timeoutFixture(t, srv.URL+"/v1", provider.Options{Timeouts: provider.Timeouts{Idle: 3 * time.Minute}, AfterFunc: expireAt(3 * time.Minute)})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	if n := countStarts(evs); n != DefaultRetry.MaxRetries || requests.Load() != int32(DefaultRetry.MaxRetries+1) {
		t.Errorf("retries = %d, requests = %d", n, requests.Load())
	}
	if s := evs[len(evs)-1].(core.Settled); !strings.Contains(s.Error, "idle timeout") {
		t.Errorf("settled = %+v", s)
	}
}

// A local server that is not running fails the prompt at once: one
// attempt, no retry, and the error names the URL.
func TestRefusedLocalServerFailsFast(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	f := timeoutFixture(t, base, provider.Options{})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	if n := countStarts(evs); n != 0 {
		t.Errorf("auto_retry_start events = %d, want none", n)
	}
	want := "nothing is listening at " + base + "/chat/completions — is the server running?"
	if s := evs[len(evs)-1].(core.Settled); !strings.Contains(s.Error, want) {
		t.Errorf("settled error %q, want %q", s.Error, want)
	}
}
