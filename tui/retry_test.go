package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// retryRig is a session whose model fails with a retryable 503 for the
// first fails requests, then answers; its retry delays wait for the test.
type retryRig struct {
	*rig
	now    time.Time
	events <-chan core.Event
	sleeps chan time.Duration
	wake   chan struct{}
}

const overloaded = "503 the server is overloaded"

func newRetryRig(t *testing.T, fails int) *retryRig {
	rr := &retryRig{now: testClock, sleeps: make(chan time.Duration, 1), wake: make(chan struct{})}
	rr.rig = newRig(t, rigOptions{
		retry: &agent.RetrySettings{Enabled: true, MaxRetries: 3, BaseDelay: 2 * time.Second, MaxDelay: time.Minute},
		sleep: func(ctx context.Context, d time.Duration) error {
			rr.sleeps <- d
			select {
			case <-rr.wake:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		},
	})
	rr.m.now = func() time.Time { return rr.now }
	for range fails {
		rr.fp.PushStep(func(*provider.Request) (faux.Response, error) {
			return faux.Response{}, &provider.Error{Provider: "test", Status: 503, Message: overloaded, Retryable: true}
		})
	}
	rr.fp.Push(faux.Response{Text: "recovered answer"})
	events, stop := rr.sess.Subscribe()
	t.Cleanup(stop)
	rr.events = events
	rr.typeText("go")
	rr.send(key("enter"))
	return rr
}

func (rr *retryRig) screen() string { return ansi.Strip(rr.m.render()) }

// waitRetry pumps events until a retry starts, then returns its delay.
func (rr *retryRig) waitRetry() time.Duration {
	rr.t.Helper()
	rr.pumpUntil(rr.events, func(e core.Event) bool { _, ok := e.(core.AutoRetryStart); return ok })
	select {
	case d := <-rr.sleeps:
		return d
	case <-time.After(10 * time.Second):
		rr.t.Fatal("the retry did not wait")
		return 0
	}
}

func isSettled(e core.Event) bool { _, ok := e.(core.Settled); return ok }

// TestRetryIsOneStatusLine fails twice with a 503, then answers: while it
// retries the status line counts down "retrying: attempt 1 of 3 in 2 s",
// and once it succeeds no error or retry paragraph is left.
func TestRetryIsOneStatusLine(t *testing.T) {
	rr := newRetryRig(t, 2)
	if d := rr.waitRetry(); d != 2*time.Second {
		t.Fatalf("first delay = %v", d)
	}
	if s := rr.screen(); !strings.Contains(s, "retrying: attempt 1 of 3 in 2 s") {
		t.Fatalf("no retry status:\n%s", s)
	}
	rr.now = rr.now.Add(1200 * time.Millisecond)
	if s := rr.screen(); !strings.Contains(s, "retrying: attempt 1 of 3 in 1 s") {
		t.Fatalf("the retry status does not count down:\n%s", s)
	}
	if s := rr.screen(); strings.Count(s, "503") != 1 {
		t.Fatalf("the error shows %d times while retrying, want once (in the status):\n%s", strings.Count(s, "503"), s)
	}
	rr.wake <- struct{}{}
	if d := rr.waitRetry(); d != 4*time.Second {
		t.Fatalf("second delay = %v", d)
	}
	if s := rr.screen(); !strings.Contains(s, "retrying: attempt 2 of 3 in 4 s") {
		t.Fatalf("no second retry status:\n%s", s)
	}
	rr.wake <- struct{}{}
	rr.pumpUntil(rr.events, isSettled)
	s := rr.screen()
	if !strings.Contains(s, "recovered answer") {
		t.Fatalf("no answer:\n%s", s)
	}
	for _, gone := range []string{"503", "retrying", "Error"} {
		if strings.Contains(s, gone) {
			t.Fatalf("%q is left on screen after the retry succeeded:\n%s", gone, s)
		}
	}
}

// TestRetryFinalFailureShowsOnce fails every attempt: the error is told
// once, with the retries spent.
func TestRetryFinalFailureShowsOnce(t *testing.T) {
	rr := newRetryRig(t, 4)
	for range 3 {
		rr.waitRetry()
		rr.wake <- struct{}{}
	}
	rr.pumpUntil(rr.events, isSettled)
	s := rr.screen()
	if n := strings.Count(s, overloaded); n != 1 {
		t.Fatalf("the error shows %d times, want once:\n%s", n, s)
	}
	if !strings.Contains(s, "Error after 3 retries: ") || strings.Contains(s, "retrying") {
		t.Fatalf("the final failure does not say the retries were spent:\n%s", s)
	}
}
