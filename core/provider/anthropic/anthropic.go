// Package anthropic speaks the Anthropic Messages API ("anthropic-messages"):
// it turns a provider.Request into a streaming POST /v1/messages, with prompt
// caching and extended thinking, and turns the server-sent events back into
// cairn's normalized event sequence. Any server that implements the same wire
// format (proxies, gateways, compatible vendors) works through it too.
package anthropic

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// API is the wire format name models use to select this package.
const API = "anthropic-messages"

// DefaultBaseURL is where requests go when a model names no base URL.
const DefaultBaseURL = "https://api.anthropic.com"

// apiVersion pins the Messages API revision whose event shapes we decode.
const apiVersion = "2023-06-01"

// betaFeatures are opted into on every request, as pi does: fine-grained
// tool streaming sends large tool arguments (whole files) as they are
// generated instead of in one late burst, and interleaved thinking lets
// budget-thinking models reason between tool calls.
const betaFeatures = "fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14"

// oauthBeta is required before the API accepts a subscription (OAuth)
// token as a Bearer credential.
const oauthBeta = "oauth-2025-04-20"

// keyEnv names the variable a person should check when the key is refused.
// Compatible third-party endpoints take their keys from elsewhere, so it is
// only named for the anthropic provider itself.
func keyEnv(providerName string) string {
	if providerName == "anthropic" {
		return "ANTHROPIC_API_KEY"
	}
	return ""
}

// Provider streams requests to an Anthropic Messages API endpoint. It holds
// no per-request state, so one value serves concurrent calls.
type Provider struct {
	opts provider.Options
}

// New returns a Provider that sends its HTTP requests as opts says.
func New(opts provider.Options) *Provider {
	return &Provider{opts: opts}
}

var _ provider.Provider = (*Provider)(nil)

// Stream implements provider.Provider. It sends one streaming Messages
// request and drives a Builder from the events; see the package
// provider's Provider contract for what it returns.
func (p *Provider) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	name := provider.ServiceName(&req.Model, "anthropic")
	r := provider.JSONRequest{
		Provider:   name,
		URL:        endpoint(req.Model.BaseURL),
		Body:       buildRequest(req),
		APIHeaders: apiHeaders,
		Decode:     errorDecoder(name),
	}
	return provider.StreamJSON(ctx, p.opts, req, emit, r, func(b *provider.Builder, body io.Reader) (*core.AssistantMessage, error) {
		return readStream(ctx, body, b, name, req.APIKey)
	})
}

// endpoint returns the Messages URL for a base URL given with or without
// its /v1 suffix (both spellings appear in models.json files).
func endpoint(baseURL string) string {
	base := provider.BaseURL(baseURL, DefaultBaseURL)
	if strings.HasSuffix(base, "/v1") {
		return base + "/messages"
	}
	return base + "/v1/messages"
}

// isOAuthToken reports whether key is a Claude subscription token, which
// the API takes as a Bearer token rather than as x-api-key.
func isOAuthToken(key string) bool {
	return strings.Contains(key, "sk-ant-oat")
}

// apiHeaders writes the protocol version, the beta features and the key:
// an API key as x-api-key, a subscription token as a Bearer token, which
// also needs the OAuth beta.
func apiHeaders(h http.Header, key string) {
	h.Set("Anthropic-Version", apiVersion)
	beta := betaFeatures
	if key != "" {
		if isOAuthToken(key) {
			h.Set("Authorization", "Bearer "+key)
			beta = oauthBeta + "," + beta
		} else {
			h.Set("X-Api-Key", key)
		}
	}
	h.Set("Anthropic-Beta", beta)
}

// errorEnvelope is the JSON body of a failed request and the payload of an
// in-stream error event.
type errorEnvelope struct {
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// errorDecoder returns the parser for a non-2xx answer. Send fills in the
// provider name and status, redacts the key and adds Retry-After.
func errorDecoder(name string) provider.ErrorDecoder {
	return func(status int, header http.Header, body []byte) *provider.Error {
		return decodeError(name, status, header, body)
	}
}

func decodeError(name string, status int, header http.Header, body []byte) *provider.Error {
	e := &provider.Error{}
	var env errorEnvelope
	if json.Unmarshal(body, &env) == nil && (env.Error.Type != "" || env.Error.Message != "") {
		e.Code = env.Error.Type
		e.Message = env.Error.Message
		e.Retryable = retryableType(env.Error.Type)
	} else if text := strings.TrimSpace(string(body)); text != "" && len(text) <= 512 {
		// A proxy's plain-text answer says more than the bare status.
		e.Message = text
	}
	if strings.EqualFold(header.Get("X-Should-Retry"), "true") {
		e.Retryable = true
	}
	e.Hint = provider.StatusHint(status, keyEnv(name))
	return e
}

// retryableType reports whether an Anthropic error type is worth retrying:
// overload, rate limits and the server's own failures are; a bad request,
// auth or billing problem will fail the same way again.
func retryableType(t string) bool {
	switch t {
	case "overloaded_error", "rate_limit_error", "api_error", "timeout_error":
		return true
	}
	return false
}

// typeStatus maps an in-stream error type to the HTTP status the API uses
// for it, so the person gets the same hint either way.
func typeStatus(t string) int {
	switch t {
	case "overloaded_error":
		return 529
	case "rate_limit_error":
		return http.StatusTooManyRequests
	case "api_error":
		return http.StatusInternalServerError
	case "timeout_error":
		return http.StatusGatewayTimeout
	case "authentication_error":
		return http.StatusUnauthorized
	case "permission_error":
		return http.StatusForbidden
	case "not_found_error":
		return http.StatusNotFound
	case "request_too_large":
		return http.StatusRequestEntityTooLarge
	}
	return 0
}
