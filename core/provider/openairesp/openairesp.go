// Package openairesp speaks OpenAI's Responses API (POST {baseUrl}/responses
// with stream:true), pi's "openai-responses" wire format.
//
// A response is a list of output items, each opened and closed by the
// stream: reasoning items become thinking blocks, message items text blocks
// and function_call items tool calls. Requests are sent with store:false, so
// the server keeps nothing between turns; everything the next turn needs
// travels in the message instead. A reasoning item is kept whole (with its
// encrypted content) as the thinking block's signature, a message item's id
// as the text block's signature, and a call's two ids (call_id, which
// addresses the result, and the item id, which pairs the call with its
// reasoning) joined as "call_id|item_id" in the tool call id, as pi does.
package openairesp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// DefaultBaseURL is where requests go when a model names no base URL.
const DefaultBaseURL = "https://api.openai.com/v1"

// Provider streams answers from a Responses API server. It holds no
// per-request state and is safe for concurrent use.
type Provider struct {
	opts  provider.Options
	codex bool // ChatGPT's Codex backend (see NewCodex)
}

// New returns a provider that talks HTTP as opts say.
func New(opts provider.Options) *Provider {
	return &Provider{opts: opts}
}

var _ provider.Provider = (*Provider)(nil)

// Stream implements provider.Provider.
func (p *Provider) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	name := provider.ServiceName(&req.Model, "openai")
	r := provider.JSONRequest{
		Provider:   name,
		URL:        endpoint(req.Model.BaseURL),
		Body:       buildBody(req),
		APIHeaders: provider.BearerAuth,
		Decode:     errorDecoder(name),
	}
	if p.codex {
		var err error
		if r, err = codexRequest(req, r); err != nil {
			perr := &provider.Error{Provider: name, Message: err.Error()}
			return provider.NewBuilder(&req.Model, emit).Fail(core.StopError, perr), perr
		}
	}
	return provider.StreamJSON(ctx, p.opts, req, emit, r, func(b *provider.Builder, body io.Reader) (*core.AssistantMessage, error) {
		b.Start()
		reason, err := newDecoder(b, name, req.APIKey).run(ctx, body)
		if err != nil {
			return provider.Fail(ctx, b, err)
		}
		return b.Finish(reason), nil
	})
}

// endpoint returns the responses URL under baseURL.
func endpoint(baseURL string) string {
	return provider.BaseURL(baseURL, DefaultBaseURL) + "/responses"
}

// errorDecoder parses OpenAI's error envelope,
// {"error":{"message","type","param","code"}}, from a failed response.
func errorDecoder(providerName string) provider.ErrorDecoder {
	return func(status int, _ http.Header, body []byte) *provider.Error {
		var env struct {
			Error *apiError `json:"error"`
		}
		if err := json.Unmarshal(body, &env); err != nil || env.Error == nil {
			return &provider.Error{Message: bodySnippet(body), Hint: statusHint(status, providerName)}
		}
		code := string(env.Error.Code)
		if code == "" {
			code = env.Error.Type
		}
		hint := codeHint(code)
		if hint == "" {
			hint = statusHint(status, providerName)
		}
		return &provider.Error{Code: code, Message: env.Error.Message, Retryable: retryableCode(code), Hint: hint}
	}
}

// statusHint names OPENAI_API_KEY for OpenAI itself; other servers that
// speak this format keep their key elsewhere.
func statusHint(status int, providerName string) string {
	env := ""
	if providerName == "openai" {
		env = "OPENAI_API_KEY"
	}
	return provider.StatusHint(status, env)
}

// bodySnippet keeps a non-JSON error body (a proxy's HTML page, plain text)
// short enough to show.
func bodySnippet(body []byte) string {
	s := strings.TrimSpace(string(body))
	const max = 300
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return s
}
