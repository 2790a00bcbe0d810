package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
)

// BraveEndpoint is the Brave Search API's web search address.
const BraveEndpoint = "https://api.search.brave.com/res/v1/web/search"

// maxSearchBytes bounds a search API's answer.
const maxSearchBytes = 2 << 20

// Search is the web_search tool, speaking the Brave Search API's format:
// GET Endpoint?q=...&count=N with the key in X-Subscription-Token, and
// results read from web.results[] (title, url, description). It sends the
// API key and nothing else of cairn's.
type Search struct {
	// Endpoint is the API's address; empty means BraveEndpoint.
	Endpoint string
	// KeyEnv names the variable holding the API key; empty means
	// BRAVE_API_KEY.
	KeyEnv string
	// Getenv reads the environment.
	Getenv func(string) string
	// Allowed, when set, refuses what the sandbox's network does not
	// allow (see SandboxAllows).
	Allowed func(*url.URL) error
	// Client is the HTTP client; nil means a plain one.
	Client *http.Client
}

var searchSpec = core.ToolSpec{
	Name:        "web_search",
	Description: "Search the web and return the top results (title, URL, snippet). Fetch a result's page with web_fetch.",
	Parameters: json.RawMessage(`{"type":"object","required":["query"],"properties":{"query":{"type":"string","description":"What to search for"},` +
		`"count":{"type":"number","description":"How many results (1 to 20, default 8)"}},"additionalProperties":false}`),
}

// Spec describes the tool.
func (*Search) Spec() core.ToolSpec { return searchSpec }

// Category is network.
func (*Search) Category() core.ApprovalCategory { return core.CategoryNetwork }

// Kind is fetch.
func (*Search) Kind() core.ToolKind { return core.KindFetch }

// braveAnswer is the part of the Brave Search API's answer web_search
// reads.
type braveAnswer struct {
	Web struct {
		Results []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
		} `json:"results"`
	} `json:"web"`
}

// Execute runs the search.
func (s *Search) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var args struct {
		Query string  `json:"query"`
		Count float64 `json:"count"`
	}
	if err := json.Unmarshal(call.Arguments, &args); err != nil || strings.TrimSpace(args.Query) == "" {
		return core.ErrorResult("web_search needs a query."), nil
	}
	count := int(args.Count)
	if count <= 0 {
		count = 8
	}
	count = min(count, 20)
	keyEnv := s.KeyEnv
	if keyEnv == "" {
		keyEnv = "BRAVE_API_KEY"
	}
	key := ""
	if s.Getenv != nil {
		key = s.Getenv(keyEnv)
	}
	if key == "" {
		return core.ErrorResult(fmt.Sprintf("web_search has no API key: set %s (web.search.apiKeyEnv in settings names another variable).", keyEnv)), nil
	}
	endpoint := s.Endpoint
	if endpoint == "" {
		endpoint = BraveEndpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return core.ErrorResult(fmt.Sprintf("web.search.endpoint %q is not an http(s) URL.", endpoint)), nil
	}
	if s.Allowed != nil {
		if err := s.Allowed(u); err != nil {
			return core.ErrorResult(err.Error()), nil
		}
	}
	q := u.Query()
	q.Set("q", args.Query)
	q.Set("count", strconv.Itoa(count))
	u.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return core.ErrorResult("web_search: " + err.Error()), nil
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", key)
	client := s.Client
	if client == nil {
		client = plainClient()
	}
	c := *client
	c.Jar = nil
	// The key goes to the endpoint only, never where it redirects.
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		return core.ErrorResult(fmt.Sprintf("web_search: %v", err)), nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxSearchBytes))
	if resp.StatusCode != http.StatusOK {
		return core.ErrorResult(fmt.Sprintf("web_search: the search API answered %s: %s", resp.Status,
			escape.Visible(strings.TrimSpace(string(body[:min(len(body), 300)]))))), nil
	}
	var a braveAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return core.ErrorResult("web_search: the search API's answer is not Brave Search JSON: " + err.Error()), nil
	}
	if len(a.Web.Results) == 0 {
		return core.TextResult("No results for " + args.Query + "."), nil
	}
	var b strings.Builder
	for i, r := range a.Web.Results {
		if i == count {
			break
		}
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, escape.Visible(r.Title), escape.Visible(r.URL))
		if d := strings.TrimSpace(r.Description); d != "" {
			fmt.Fprintf(&b, "   %s\n", escape.Visible(d))
		}
	}
	return core.TextResult(strings.TrimRight(b.String(), "\n")), nil
}
