package openairesp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

const (
	fixtureDir = "openai-responses"
	testKey    = "sk-test-secret-key-0123456789"
)

// testModel is gpt-5 as the fixtures were recorded against it.
func testModel(baseURL string) core.Model {
	return core.Model{
		ID:        "gpt-5",
		Name:      "GPT-5",
		API:       "openai-responses",
		Provider:  "openai",
		BaseURL:   baseURL,
		Reasoning: true,
		Input:     []string{"text", "image"},
		Cost:      core.Price{Input: 1.25, Output: 10, CacheRead: 0.125},
		MaxTokens: 4000,
	}
}

// sleepRecorder records retry waits instead of sleeping. Stream calls Sleep
// on the test's goroutine, so no lock is needed.
type sleepRecorder struct{ waits []time.Duration }

func (s *sleepRecorder) options() provider.Options {
	return provider.Options{Retry: provider.RetryPolicy{MaxRetries: 2}, Sleep: func(ctx context.Context, d time.Duration) error {
		s.waits = append(s.waits, d)
		return ctx.Err()
	}}
}

// cassetteBodies returns the request bodies of a cassette's interactions,
// in order. The cassettes write each body as one single-quoted YAML scalar,
// so a line scan is enough and no YAML library is needed.
func cassetteBodies(t *testing.T, name string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(string(providertest.Fixture(t, fixtureDir+"/"+name+".cassette.yaml")), "\n") {
		const prefix = "    body: '"
		if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, "'") {
			continue
		}
		s := strings.TrimSuffix(strings.TrimPrefix(line, prefix), "'")
		out = append(out, strings.ReplaceAll(s, "''", "'"))
	}
	if len(out) == 0 {
		t.Fatalf("no request bodies in %s", name)
	}
	return out
}

// decodeJSON parses JSON into generic values for comparison.
func decodeJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}

func toJSON(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// memDoer answers every request with body, in memory, for fuzzing and
// benchmarks where a real server would only add noise.
type memDoer struct{ body []byte }

func (m memDoer) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(m.body)), Request: r}, nil
}

func validStop(r core.StopReason) bool {
	switch r {
	case core.StopEnd, core.StopLength, core.StopToolUse, core.StopError, core.StopAborted:
		return true
	}
	return false
}
