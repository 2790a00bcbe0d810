package catalog

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/provider"
)

// recordingDoer answers every request with one recorded stream and keeps
// the requests, so a request to a real host name is seen and never sent.
type recordingDoer struct {
	mu   sync.Mutex
	reqs []*http.Request
	body []byte
}

func (d *recordingDoer) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	d.mu.Lock()
	d.reqs = append(d.reqs, r)
	d.mu.Unlock()
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream")
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(d.body)), Request: r}, nil
}

// TestCopilotRequestsAsPi: a Copilot model is reached at the API its
// token's proxy-ep names (an enterprise's when the login was to one and
// the token names none), with Copilot's editor headers and the
// per-request ones, and on the Messages API with the token as a Bearer
// token (never as x-api-key). The stream is Anthropic's, recorded.
func TestCopilotRequestsAsPi(t *testing.T) {
	// A recorded Anthropic stream (see providertest's testdata README).
	sse, err := os.ReadFile("../providertest/testdata/providers/anthropic/text.0.sse")
	if err != nil {
		t.Fatal(err)
	}
	c, err := load(t, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("github-copilot", "claude-sonnet-4.6")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, token, enterprise, host, initiator, vision string
		msgs                                             []core.Message
	}{
		{"proxy-ep", "tid=1;exp=9;proxy-ep=proxy.business.githubcopilot.com;x", "", "api.business.githubcopilot.com", "user", "",
			[]core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("hi")}}}},
		{"enterprise", "ghu_plain", "https://ghe.example.com/", "copilot-api.ghe.example.com", "agent", "true",
			[]core.Message{&core.UserMessage{Content: []core.Content{core.ImageBlock("aGk=", "image/png")}},
				&core.ToolResultMessage{ToolCallID: "t", Content: []core.Content{core.TextBlock("ok")}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doer := &recordingDoer{body: sse}
			p, err := c.Open(m, provider.Options{Client: doer})
			if err != nil {
				t.Fatal(err)
			}
			p = newCopilot(p.(*copilot).inner, m.API, pihome.Credential{Type: "oauth", EnterpriseURL: tc.enterprise})
			if _, err := p.Stream(context.Background(), &provider.Request{Model: m, APIKey: tc.token, Messages: tc.msgs}, nil); err != nil {
				t.Fatal(err)
			}
			r := doer.reqs[0]
			if r.URL.Host != tc.host || r.URL.Path != "/v1/messages" {
				t.Errorf("sent to %s", r.URL)
			}
			h := r.Header
			for k, v := range map[string]string{"Authorization": "Bearer " + tc.token, "X-Api-Key": "", "Copilot-Integration-Id": "vscode-chat",
				"Editor-Version": "vscode/1.107.0", "User-Agent": "GitHubCopilotChat/0.35.0", "X-Initiator": tc.initiator,
				"Openai-Intent": "conversation-edits", "Copilot-Vision-Request": tc.vision} {
				if got := h.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestNewProvidersAreBuiltIn: pi users' provider names resolve, with pi's
// default models first and the keys pi reads.
func TestNewProvidersAreBuiltIn(t *testing.T) {
	c, err := load(t, "", map[string]string{"AI_GATEWAY_API_KEY": "vk", "COPILOT_GITHUB_TOKEN": "gk"})
	if err != nil {
		t.Fatal(err)
	}
	for prov, first := range map[string]string{"openai-codex": "gpt-5.5", "github-copilot": "gpt-5.4", "vercel-ai-gateway": "zai/glm-5.1"} {
		ms := c.byProvider(prov)
		if len(ms) == 0 || ms[0].ID != first {
			t.Errorf("%s: first model %v, want %s", prov, ms, first)
		}
	}
	v, _ := c.Find("vercel-ai-gateway", "zai/glm-5.1")
	if cr, err := c.Credentials(v); err != nil || cr.APIKey != "vk" || v.BaseURL != "https://ai-gateway.vercel.sh" || v.API != APIAnthropic {
		t.Errorf("vercel: %+v %+v %v", v, cr, err)
	}
	g, _ := c.Find("github-copilot", "gpt-5.4")
	if cr, err := c.Credentials(g); err != nil || cr.APIKey != "gk" {
		t.Errorf("copilot key from COPILOT_GITHUB_TOKEN: %+v %v", cr, err)
	}
	x, _ := c.Find("openai-codex", "gpt-5.5")
	if _, err := c.Credentials(x); err == nil || !bytes.Contains([]byte(err.Error()), []byte("cairn login openai-codex")) {
		t.Errorf("codex without a login: %v", err)
	}
}

// TestCopilotLoginOffersItsModels: a Copilot login's availableModelIds
// decide which Copilot models are offered, as pi's filterModels does; a
// key from COPILOT_GITHUB_TOKEN offers them all.
func TestCopilotLoginOffersItsModels(t *testing.T) {
	pi := t.TempDir()
	if err := os.WriteFile(pihome.AuthFile(pi), []byte(`{"github-copilot": {"type": "oauth", "access": "tid=1", "refresh": "gho", "expires": 4102444500000, "availableModelIds": ["gpt-5.4", "claude-sonnet-4.6"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	count := func(c *Catalog) (ids []string) {
		for _, m := range c.Available() {
			if m.Provider == copilotProvider {
				ids = append(ids, m.ID)
			}
		}
		return ids
	}
	c, err := Load(Options{PiDir: pi, Getenv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if got := count(c); len(got) != 2 || got[0] != "gpt-5.4" || got[1] != "claude-sonnet-4.6" {
		t.Errorf("offered %v, want the login's two", got)
	}
	c, _ = load(t, "", map[string]string{"COPILOT_GITHUB_TOKEN": "gk"})
	if got := count(c); len(got) != 8 {
		t.Errorf("with a token from the environment: %v, want all 8", got)
	}
}
