package piext

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/anthropic"
	modelcat "github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/provider/openairesp"
)

// depsInstalled says whether the example's npm dependencies are
// installed in its directory (.ci/run installs them with `npm ci`); in CI
// they must be.
func depsInstalled(t *testing.T, name string) bool {
	t.Helper()
	dir := filepath.Join(examples, name)
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil {
		return true
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s has no node_modules: run `npm ci --prefix %s --ignore-scripts` (.ci/run does)", name, dir)
	}
	return false
}

// providerCatalog is a session's catalog, with env as its environment.
func providerCatalog(t testing.TB, env map[string]string) *modelcat.Catalog {
	t.Helper()
	cat, err := modelcat.Load(modelcat.Options{Dir: t.TempDir(), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// stream asks the catalog's provider of m for one answer to "hi".
func stream(t *testing.T, cat *modelcat.Catalog, m core.Model, apiKey string) (*core.AssistantMessage, []provider.Event, error) {
	t.Helper()
	p, err := cat.Open(m, provider.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var events []provider.Event
	req := &provider.Request{Model: m, System: "Be brief.", APIKey: apiKey,
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{{Type: core.ContentText, Text: "hi"}}}}}
	msg, err := p.Stream(ctx, req, func(e provider.Event) { events = append(events, e) })
	return msg, events, err
}

// custom-provider-gitlab-duo: its provider and models are in cairn's
// catalog (available once GITLAB_TOKEN is set, as its apiKey says), and a
// request to one of them runs its streamSimple, whose error comes back as
// the answer's.
func TestProviderGitLabDuo(t *testing.T) {
	cat := providerCatalog(t, map[string]string{"GITLAB_TOKEN": "glpat-test"})
	h := startHostFull(t, t.TempDir(), nil, nil, cat, "tui", "custom-provider-gitlab-duo")
	if st := h.member(t, "custom-provider-gitlab-duo"); st.Err != nil {
		t.Fatal(st.Err)
	}
	m, err := cat.Find("gitlab-duo", "claude-sonnet-4-6")
	if err != nil {
		t.Fatal(err)
	}
	if m.API != "gitlab-duo-api" || m.BaseURL != "https://cloud.gitlab.com" || !m.Reasoning || m.ContextWindow != 1000000 {
		t.Errorf("model %+v", m)
	}
	var duo []string
	for _, a := range cat.Available() {
		if a.Provider == "gitlab-duo" {
			duo = append(duo, a.ID)
		}
	}
	if len(duo) != 9 || !slices.Contains(duo, "gpt-5-codex") {
		t.Errorf("available gitlab-duo models %q", duo)
	}
	msg, _, err := stream(t, cat, m, "")
	if err == nil || msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "No GitLab access token. Run /login gitlab-duo or set GITLAB_TOKEN") {
		t.Errorf("without a token: %v %+v", err, msg)
	}

	// Without GITLAB_TOKEN its models are listed but not available.
	bare := providerCatalog(t, nil)
	startHostFull(t, t.TempDir(), nil, nil, bare, "print", "custom-provider-gitlab-duo")
	if _, err := bare.Find("gitlab-duo", "gpt-5-codex"); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(bare.Available(), func(m core.Model) bool { return m.Provider == "gitlab-duo" }) {
		t.Error("gitlab-duo available without GITLAB_TOKEN")
	}
}

// fakeGitLab is GitLab's direct-access endpoint and AI gateway's
// Anthropic proxy, as custom-provider-gitlab-duo reaches them.
func fakeGitLab(t *testing.T) (*httptest.Server, func() []*http.Request) {
	var mu sync.Mutex
	var seen []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Clone(context.Background()))
		mu.Unlock()
		switch r.URL.Path {
		case "/api/v4/ai/third_party_agents/direct_access":
			if r.Header.Get("Authorization") != "Bearer glpat-test" {
				http.Error(w, "no", http.StatusUnauthorized)
				return
			}
			fmt.Fprint(w, `{"token": "dat-1", "headers": {"x-gitlab-instance-id": "inst-7"}}`)
		case "/ai/v1/proxy/anthropic/v1/messages":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, anthropicSSE)
		case "/ai/v1/proxy/openai/v1/responses":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, responsesSSE)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []*http.Request {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// toFake sends every request to srv, whatever its host.
type toFake struct{ srv *httptest.Server }

func (f toFake) Do(r *http.Request) (*http.Response, error) {
	u, _ := url.Parse(f.srv.URL)
	r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
	return f.srv.Client().Do(r)
}

// gatewayCatalog is a catalog whose own providers reach srv.
type gatewayCatalog struct {
	*modelcat.Catalog
	srv *httptest.Server
}

func (g gatewayCatalog) ForAPI(api string) (provider.Provider, error) {
	switch api {
	case modelcat.APIAnthropic:
		return anthropic.New(provider.Options{Client: toFake{g.srv}}), nil
	case modelcat.APIOpenAIResponses:
		return openairesp.New(provider.Options{Client: toFake{g.srv}}), nil
	}
	return nil, fmt.Errorf("api %s", api)
}

// responsesSSE is a short answer in OpenAI's Responses stream format.
const responsesSSE = "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\"}}\n\n" +
	"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"content\":[],\"role\":\"assistant\"}}\n\n" +
	"event: response.content_part.added\ndata: {\"type\":\"response.content_part.added\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"annotations\":[],\"text\":\"\"}}\n\n" +
	"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"Codex\"}\n\n" +
	"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\" here\"}\n\n" +
	"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"Codex here\"}],\"role\":\"assistant\"}}\n\n" +
	"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"usage\":{\"input_tokens\":9,\"output_tokens\":2,\"total_tokens\":11}}}\n\n"

// custom-provider-gitlab-duo, driven against a fake GitLab: a request to
// one of its Claude models gets a direct-access token with the person's
// GitLab token, then streams from the AI gateway's Anthropic proxy through
// cairn's own Anthropic provider, with the token and GitLab's headers.
func driveGitLabDuo(t *testing.T) {
	srv, seen := fakeGitLab(t)
	preload, err := filepath.Abs("testdata/provider/fetch-to-fake.cjs")
	if err != nil {
		t.Fatal(err)
	}
	cat := providerCatalog(t, map[string]string{"GITLAB_TOKEN": "glpat-test"})
	env := map[string]string{"NODE_OPTIONS": "--require " + preload, "CAIRN_TEST_FAKE_URL": srv.URL}
	startHostFull(t, t.TempDir(), env, nil, gatewayCatalog{cat, srv}, "tui", "custom-provider-gitlab-duo")
	m, err := cat.Find("gitlab-duo", "claude-sonnet-4-5-20250929")
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cat.Credentials(m)
	if err != nil || creds.APIKey != "glpat-test" {
		t.Fatalf("credentials %+v %v", creds, err)
	}
	msg, events, err := stream(t, cat, m, creds.APIKey)
	if err != nil {
		t.Fatalf("stream: %v %+v", err, msg)
	}
	if msg.StopReason != core.StopEnd || len(msg.Content) != 1 || msg.Content[0].Text != "Hello there" || msg.Usage.Input != 12 {
		t.Errorf("message %+v", msg)
	}
	var deltas []string
	for _, e := range events {
		if e.Type == provider.EventTextDelta {
			deltas = append(deltas, e.Delta)
		}
	}
	if !slices.Equal(deltas, []string{"Hello", " there"}) {
		t.Errorf("deltas %q", deltas)
	}
	reqs := seen()
	if len(reqs) != 2 {
		t.Fatalf("requests %d", len(reqs))
	}
	proxy := reqs[1]
	if proxy.Header.Get("Authorization") != "Bearer dat-1" || proxy.Header.Get("X-Gitlab-Instance-Id") != "inst-7" || proxy.Header.Get("X-Api-Key") != "gitlab-duo" {
		t.Errorf("proxy request headers %v", proxy.Header)
	}

	// Its GPT models go through the gateway's OpenAI proxy (Responses),
	// with the direct-access token it keeps for 25 minutes.
	gpt, err := cat.Find("gitlab-duo", "gpt-5-codex")
	if err != nil {
		t.Fatal(err)
	}
	msg, _, err = stream(t, cat, gpt, creds.APIKey)
	if err != nil || msg.Text() != "Codex here" || msg.Usage.Input != 9 {
		t.Errorf("gpt-5-codex: %v %+v", err, msg)
	}
	reqs = seen()
	if len(reqs) != 3 || reqs[2].URL.Path != "/ai/v1/proxy/openai/v1/responses" || reqs[2].Header.Get("Authorization") != "Bearer dat-1" {
		t.Errorf("requests %d; the last %v %v", len(reqs), reqs[len(reqs)-1].URL, reqs[len(reqs)-1].Header)
	}
}

// anthropicSSE is a short answer in Anthropic's Messages stream format.
const anthropicSSE = `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":12,"output_tokens":3}}

event: message_stop
data: {"type":"message_stop"}

`

// custom-provider-anthropic (after npm install): its models are
// selectable as custom-anthropic/..., and an answer is streamed by its
// own streamSimple (the Anthropic SDK it depends on) from the server at
// the model's base URL, with the key of its apiKey, event by event.
func driveCustomProviderAnthropic(t *testing.T) {
	if !depsInstalled(t, "custom-provider-anthropic") {
		t.Skip("npm install has not been run in custom-provider-anthropic")
	}
	var gotKey, gotPath, gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotKey, gotPath = r.Header.Get("X-Api-Key"), r.URL.Path
		body := make([]byte, 64<<10)
		n, _ := r.Body.Read(body)
		gotBody = string(body[:n])
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, anthropicSSE)
	}))
	defer srv.Close()
	cat := providerCatalog(t, map[string]string{"CUSTOM_ANTHROPIC_API_KEY": "sk-ant-test"})
	startHostFull(t, t.TempDir(), nil, nil, cat, "tui", "custom-provider-anthropic")
	m, err := cat.Find("custom-anthropic", "claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Claude Sonnet 4.5 (Custom)" || m.API != "custom-anthropic-api" {
		t.Errorf("model %+v", m)
	}
	creds, err := cat.Credentials(m)
	if err != nil || creds.APIKey != "sk-ant-test" {
		t.Fatalf("credentials %+v %v", creds, err)
	}
	m.BaseURL = srv.URL
	msg, events, err := stream(t, cat, m, creds.APIKey)
	if err != nil {
		t.Fatalf("stream: %v %+v", err, msg)
	}
	if msg.StopReason != core.StopEnd || len(msg.Content) != 1 || msg.Content[0].Text != "Hello there" || msg.Usage.Output != 3 {
		t.Errorf("message %+v", msg)
	}
	var deltas []string
	for _, e := range events {
		if e.Type == provider.EventTextDelta {
			deltas = append(deltas, e.Delta)
		}
	}
	if !slices.Equal(deltas, []string{"Hello", " there"}) {
		t.Errorf("deltas %q", deltas)
	}
	if gotKey != "sk-ant-test" || gotPath != "/v1/messages" || !strings.Contains(gotBody, `"Be brief."`) || !strings.Contains(gotBody, `"hi"`) {
		t.Errorf("request: key %q path %q body %s", gotKey, gotPath, gotBody)
	}
}

// A provider's own stream: events arrive while it runs (its first
// fragment, with the system prompt and the key cairn resolved), an abort
// reaches the extension's signal and ends the answer as aborted at once,
// and unregisterProvider takes its models back.
func TestProviderStreamAbortsAndUnregisters(t *testing.T) {
	cat := providerCatalog(t, nil)
	ext, err := filepath.Abs("testdata/provider/slow-provider.ts")
	if err != nil {
		t.Fatal(err)
	}
	h := startHostFull(t, t.TempDir(), nil, nil, cat, "tui", ext)
	m, err := cat.Find("slow", "s1")
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cat.Credentials(m)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cat.Open(m, provider.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan string, 1)
	req := &provider.Request{Model: m, System: "sys", APIKey: creds.APIKey,
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{{Type: core.ContentText, Text: "hi"}}}}}
	done := make(chan *core.AssistantMessage, 1)
	go func() {
		msg, _ := p.Stream(ctx, req, func(e provider.Event) {
			if e.Type == provider.EventTextDelta {
				first <- e.Delta
			}
		})
		done <- msg
	}()
	select {
	case d := <-first:
		if d != "first (sys, slow-key)" {
			t.Errorf("first fragment %q", d)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no first fragment")
	}
	cancel()
	select {
	case msg := <-done:
		if msg.StopReason != core.StopAborted || msg.Content[0].Text != "first (sys, slow-key)" {
			t.Errorf("aborted message %+v", msg)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the stream did not end on abort")
	}
	h.host.waitFor(t, "the extension told of the abort", func([]core.Event, []string, []core.Question) bool {
		return h.host.name == "slow stream aborted"
	})
	h.input(t, "/unslow")
	deadline := time.After(20 * time.Second)
	for {
		changed := h.m.Changed()
		if _, err := cat.Find("slow", "s1"); err != nil {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("slow/s1 still in the catalog after unregisterProvider")
		}
	}
}
