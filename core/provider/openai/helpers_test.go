package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
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

const testKey = "sk-test-0123456789abcdef"

// openAIModel is gpt-4o-mini as the catalog would describe it.
func openAIModel(baseURL string) core.Model {
	return core.Model{
		ID: "gpt-4o-mini", Name: "GPT-4o mini", API: "openai-completions", Provider: "openai",
		BaseURL: baseURL, Input: []string{"text", "image"},
		Cost:          core.Price{Input: 0.15, Output: 0.6, CacheRead: 0.075},
		ContextWindow: 128000, MaxTokens: 16384,
	}
}

// fixtureModel returns the model each recorded fixture was captured from.
func fixtureModel(name, baseURL string) core.Model {
	m := core.Model{API: "openai-completions", BaseURL: baseURL, Input: []string{"text"}, MaxTokens: 4000}
	switch {
	case strings.HasPrefix(name, "openai-chat/"):
		return openAIModel(baseURL)
	case strings.Contains(name, "groq_"):
		m.Provider, m.ID = "groq", "moonshotai/kimi-k2-instruct-0905"
		m.Cost = core.Price{Input: 1, Output: 3}
	case strings.Contains(name, "llamacpp_"):
		m.Provider, m.ID, m.Reasoning = "llamacpp", "openai/gpt-oss-20b", true
	case strings.Contains(name, "ollama_"):
		m.Provider, m.ID, m.Reasoning = "ollama", "qwen3:8b", true
	case strings.Contains(name, "openrouter_"):
		m.Provider, m.ID, m.Reasoning = "openrouter", "anthropic/claude-haiku-4.5", true
		m.Cost = core.Price{Input: 1, Output: 5, CacheRead: 0.1, CacheWrite: 1.25}
	}
	return m
}

func userText(s string) *core.UserMessage {
	return &core.UserMessage{Content: []core.Content{core.TextBlock(s)}}
}

// noSleep records retry waits instead of sleeping.
type noSleep struct{ waits []time.Duration }

func (n *noSleep) sleep(ctx context.Context, d time.Duration) error {
	n.waits = append(n.waits, d)
	return ctx.Err()
}

// memClient answers every request with the same in-memory response, for the
// fuzz test and benchmarks where a real socket would dominate the cost.
type memClient struct {
	status int
	body   []byte
}

func (c *memClient) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return &http.Response{StatusCode: c.status, Header: h, Body: io.NopCloser(bytes.NewReader(c.body)), Request: req}, nil
}

// cassetteRequests returns the JSON request bodies recorded in a go-vcr
// cassette. The recorders write each body as one single-quoted YAML line,
// so no YAML library is needed to read them back.
func cassetteRequests(t *testing.T, rel string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(providertest.Fixture(t, rel)))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Text()
		const prefix = "    body: '"
		if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, "'") {
			continue
		}
		raw := strings.ReplaceAll(line[len(prefix):len(line)-1], "''", "'")
		var body map[string]any
		if err := json.Unmarshal([]byte(raw), &body); err != nil {
			t.Fatalf("%s: request body: %v", rel, err)
		}
		out = append(out, body)
	}
	return out
}

// sentBody decodes the JSON body the server received.
func sentBody(t *testing.T, r providertest.Request) map[string]any {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return body
}

// requestBody builds the wire body for req without sending it.
func requestBody(t *testing.T, req *provider.Request) map[string]any {
	t.Helper()
	c := resolveCompat(&req.Model)
	raw, err := json.Marshal(buildRequest(req, &c))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	return body
}

func messagesOf(t *testing.T, body map[string]any) []map[string]any {
	t.Helper()
	list, _ := body["messages"].([]any)
	out := make([]map[string]any, len(list))
	for i, m := range list {
		out[i], _ = m.(map[string]any)
	}
	return out
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func validStop(r core.StopReason) bool {
	switch r {
	case core.StopEnd, core.StopLength, core.StopToolUse, core.StopError, core.StopAborted:
		return true
	}
	return false
}
