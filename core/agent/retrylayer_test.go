package agent

import (
	"context"
	"net/http"
	"strings"
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
