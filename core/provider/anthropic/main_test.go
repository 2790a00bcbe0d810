package anthropic

import (
	"context"
	"encoding/json"
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

// testKey looks like a real key so redaction is exercised.
const testKey = "sk-ant-api03-TESTKEY-0123456789abcdef"

// testModel is a reasoning Claude model served by srv.
func testModel(baseURL string) core.Model {
	return core.Model{
		ID:            "claude-sonnet-4-20250514",
		Name:          "Claude Sonnet 4",
		API:           API,
		Provider:      "anthropic",
		BaseURL:       baseURL,
		Reasoning:     true,
		Input:         []string{"text", "image"},
		Cost:          core.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		ContextWindow: 200000,
		MaxTokens:     64000,
	}
}

// testRequest is a one-message request to srv.
func testRequest(srv *providertest.Server) *provider.Request {
	return &provider.Request{
		Model:    testModel(srv.URL),
		System:   "You are a helpful assistant",
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}},
		APIKey:   testKey,
	}
}

// sleeps records the waits Send asks for instead of sleeping.
type sleeps struct{ waits []time.Duration }

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.waits = append(s.waits, d)
	return ctx.Err()
}

// newProvider returns a provider that talks to srv with its own client (so
// no idle connection outlives the test) and never really sleeps.
func newProvider(srv *providertest.Server, s *sleeps) *Provider {
	if s == nil {
		s = &sleeps{}
	}
	return New(provider.Options{Client: srv.Client(), Retry: provider.RetryPolicy{MaxRetries: 2}, Sleep: s.sleep})
}

// requestBody decodes the JSON body the server received.
func requestBody(t *testing.T, r providertest.Request) map[string]any {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return body
}

// stream runs one request and returns the message, the error and the
// transcript of events.
func stream(t *testing.T, p *Provider, req *provider.Request) (*core.AssistantMessage, error, *providertest.Transcript) {
	t.Helper()
	tr := &providertest.Transcript{}
	msg, err := p.Stream(context.Background(), req, tr.Emit)
	if msg == nil {
		t.Fatal("Stream returned a nil message")
	}
	return msg, err, tr
}
