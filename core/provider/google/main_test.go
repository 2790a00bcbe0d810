package google

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testKey looks like a real Gemini key so redaction is tested on something
// realistic.
const testKey = "AIzaSyTEST-key-0123456789abcdefghij"

// fixedNow makes invented tool call ids stable in golden files.
var fixedNow = func() time.Time { return time.UnixMilli(1700000000000) }

// testOptions never sleeps for real and records how long it was asked to.
func testOptions(slept *[]time.Duration) provider.Options {
	return provider.Options{
		Now: fixedNow,
		Sleep: func(_ context.Context, d time.Duration) error {
			if slept != nil {
				*slept = append(*slept, d)
			}
			return nil
		},
		Retry: provider.RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond},
	}
}

func testModel(baseURL, id string) core.Model {
	return core.Model{
		ID: id, Name: id, API: API, Provider: "google", BaseURL: baseURL,
		Reasoning: true, Input: []string{"text", "image"},
		Cost:          core.Price{Input: 1.25, Output: 10, CacheRead: 0.31},
		ContextWindow: 1048576, MaxTokens: 65536,
	}
}

func userText(s string) *core.UserMessage {
	return &core.UserMessage{Content: []core.Content{core.TextBlock(s)}}
}

// run streams one request against srv and returns the message, the error and
// the transcript.
func run(t testing.TB, srv *providertest.Server, model string, msgs []core.Message, tools []core.ToolSpec, mut func(*provider.Request)) (*core.AssistantMessage, error, *providertest.Transcript) {
	t.Helper()
	req := &provider.Request{
		Model:    testModel(srv.URL, model),
		System:   "You are a helpful assistant",
		Messages: msgs,
		Tools:    tools,
		APIKey:   testKey,
	}
	if mut != nil {
		mut(req)
	}
	tr := &providertest.Transcript{}
	msg, err := New(testOptions(nil)).Stream(context.Background(), req, tr.Emit)
	if msg == nil {
		t.Fatal("Stream returned a nil message")
	}
	return msg, err, tr
}

// cassette is the part of a recorded go-vcr cassette the tests read: each
// interaction's request URL and JSON body. The request bodies are one-line
// literal blocks, so a line scan is enough and no YAML library is needed.
type cassette struct {
	urls   []string
	bodies []map[string]any
}

func loadCassette(t testing.TB, rel string) cassette {
	t.Helper()
	lines := strings.Split(string(providertest.Fixture(t, rel)), "\n")
	var c cassette
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "body: |" && i+1 < len(lines):
			var body map[string]any
			if err := json.Unmarshal([]byte(strings.TrimSpace(lines[i+1])), &body); err != nil {
				t.Fatalf("%s: request body %d: %v", rel, len(c.bodies), err)
			}
			c.bodies = append(c.bodies, body)
		case strings.HasPrefix(trimmed, "url: "):
			c.urls = append(c.urls, strings.TrimPrefix(trimmed, "url: "))
		}
	}
	return c
}

// modelOf returns the model id in a cassette's first request URL.
func (c cassette) modelOf(t testing.TB) string {
	t.Helper()
	if len(c.urls) == 0 {
		t.Fatal("cassette has no request url")
	}
	u := c.urls[0]
	i := strings.Index(u, "/models/")
	j := strings.Index(u, ":streamGenerateContent")
	if i < 0 || j < i {
		t.Fatalf("unexpected cassette url %s", u)
	}
	return u[i+len("/models/") : j]
}

// fixtureStems lists the gemini fixtures' streams: name -> cassette path.
func fixtureStreams(t testing.TB) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(providertest.FixtureDir(t), "gemini", "*.sse"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("no gemini fixtures found in %s: %v", providertest.FixtureDir(t), err)
	}
	var out []string
	for _, m := range matches {
		out = append(out, filepath.Base(m))
	}
	return out
}

func decodeJSON(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, b)
	}
	return v
}

// path walks decoded JSON by keys and indexes ("contents", 0, "parts").
func path(v any, steps ...any) any {
	for _, s := range steps {
		switch k := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
