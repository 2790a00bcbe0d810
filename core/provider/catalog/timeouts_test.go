package catalog

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// stoppedTimer is a provider.Timer that has nothing left to stop.
type stoppedTimer struct{}

func (stoppedTimer) Stop() bool { return false }

// A provider's "timeouts" in models.json become the limits of the requests
// opened for its models.
func TestModelsFileTimeouts(t *testing.T) {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer srv.Close()
	defer close(done)
	c, err := load(t, `{"providers": {"slow": {
	  "baseUrl": "`+srv.URL+`/v1", "api": "openai-completions",
	  "timeouts": {"firstByte": "10m", "idle": "off", "total": "45m"},
	  "models": [{"id": "big"}]}}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("slow", "big")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var started []time.Duration
	opts := provider.Options{AfterFunc: func(d time.Duration, f func()) provider.Timer {
		mu.Lock()
		started = append(started, d)
		mu.Unlock()
		if d == 10*time.Minute {
			go f() // expire at once: the server never answers
		}
		return stoppedTimer{}
	}}
	p, err := c.Open(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Stream(context.Background(), &provider.Request{Model: m, Messages: []core.Message{&core.UserMessage{Content: []core.Content{{Type: "text", Text: "hi"}}}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no response within 10m0s (first-byte timeout)") {
		t.Fatalf("err = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(started) != 2 || started[0] != 45*time.Minute || started[1] != 10*time.Minute {
		t.Errorf("timers started %v, want [45m 10m] (total, first byte; idle off)", started)
	}
}

func TestModelsFileBadTimeout(t *testing.T) {
	_, err := load(t, `{"providers": {"slow": {"baseUrl": "http://localhost:1/v1", "api": "openai-completions",
	  "timeouts": {"idle": "5 minutes"}, "models": [{"id": "big"}]}}}`, nil)
	if err == nil || !strings.Contains(err.Error(), `provider "slow": timeouts.idle is "5 minutes"`) {
		t.Fatalf("err = %v", err)
	}
	_, err = load(t, `{"providers": {"slow": {"baseUrl": "http://localhost:1/v1", "api": "openai-completions",
	  "timeouts": {"total": "-1m"}, "models": [{"id": "big"}]}}}`, nil)
	if err == nil || !strings.Contains(err.Error(), `provider "slow": timeouts.total is "-1m"`) {
		t.Fatalf("err = %v", err)
	}
}
