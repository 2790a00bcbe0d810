// Package oauthtest is a fake of the OAuth and Copilot token endpoints
// cairn's oauth package speaks, following each service's documented
// format (RFC 6749 section 6 refresh grants for Anthropic and OpenAI, as
// pi-ai 0.87.1 sends them; the authorization-code exchanges of their
// browser logins; OpenAI's device-code login; GitHub's RFC 8628 device
// flow; GitHub's copilot_internal token and Copilot's /models list, as
// pi-ai reads them). It records what it received.
package oauthtest

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Request is one request the fake received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         string
}

// Fake is a running fake token server.
type Fake struct {
	*httptest.Server
	mu       sync.Mutex
	requests []Request
	// Status, when not 0, is the status every token request is answered
	// with (with an OAuth error body).
	Status int
	// Access, Refresh and ExpiresIn are what refreshes hand out (a Codex
	// access token is CodexJWT("acct-1"); a Copilot token is Access after
	// "tid=1;exp=1;proxy-ep=proxy.individual.githubcopilot.com;").
	Access, Refresh string
	ExpiresIn       int64
	// CopilotExpiresAt is the expires_at (seconds) of a Copilot token.
	CopilotExpiresAt int64
	// Pending is how many polls of a device-code login are answered
	// "not yet" before the login completes.
	Pending int
	polls   int
}

// New starts a fake; it is closed when the test ends.
func New(t testing.TB) *Fake {
	f := &Fake{Access: "new-access", Refresh: "new-refresh", ExpiresIn: 3600, CopilotExpiresAt: 4102444800}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// Requests returns what the fake has received.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// CodexJWT is an access token (an unsigned JWT) naming a ChatGPT account,
// as OpenAI's tokens carry it.
func CodexJWT(account string) string {
	enc := base64.RawURLEncoding.EncodeToString
	claims, _ := json.Marshal(map[string]any{"https://api.openai.com/auth": map[string]string{"chatgpt_account_id": account}})
	return enc([]byte(`{"alg":"none"}`)) + "." + enc(claims) + ".sig"
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: string(body)})
	status, access, refresh, expiresIn, copilotExp := f.Status, f.Access, f.Refresh, f.ExpiresIn, f.CopilotExpiresAt
	pending := false
	if r.URL.Path == "/api/accounts/deviceauth/token" || r.URL.Path == "/login/oauth/access_token" {
		f.polls++
		pending = f.polls <= f.Pending
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if status != 0 && r.URL.Path != "/models" {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"error": "invalid_grant", "error_description": "refresh token revoked"}`)
		return
	}
	switch {
	case r.URL.Path == "/v1/oauth/token": // Anthropic
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": access, "refresh_token": refresh, "expires_in": expiresIn, "token_type": "Bearer"})
	case r.URL.Path == "/oauth/token": // OpenAI
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": CodexJWT("acct-1"), "refresh_token": refresh, "expires_in": expiresIn, "id_token": "x"})
	case r.URL.Path == "/copilot_internal/v2/token":
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"token": "tid=1;exp=1;proxy-ep=proxy.individual.githubcopilot.com;" + access, "expires_at": copilotExp, "refresh_in": 1500})
	case r.URL.Path == "/models":
		_, _ = io.WriteString(w, `{"data": [
		  {"id": "gpt-4.1", "model_picker_enabled": true, "policy": {"state": "enabled"}, "capabilities": {"supports": {"tool_calls": true}}},
		  {"id": "claude-sonnet-4", "model_picker_enabled": true, "policy": {"state": "disabled"}},
		  {"id": "embed", "model_picker_enabled": true, "capabilities": {"supports": {"tool_calls": false}}},
		  {"id": "o3", "model_picker_enabled": false, "policy": {"state": "enabled"}}]}`)
	case r.URL.Path == "/api/accounts/deviceauth/usercode": // OpenAI's device code
		_, _ = io.WriteString(w, `{"device_auth_id": "dev-1", "user_code": "ABCD-1234", "interval": "1"}`)
	case r.URL.Path == "/api/accounts/deviceauth/token" && pending:
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `{"error": {"code": "deviceauth_authorization_pending"}}`)
	case r.URL.Path == "/api/accounts/deviceauth/token":
		_, _ = io.WriteString(w, `{"authorization_code": "dev-code", "code_verifier": "dev-verifier"}`)
	case r.URL.Path == "/login/device/code": // GitHub's device code (RFC 8628)
		_, _ = io.WriteString(w, `{"device_code": "gh-dev", "user_code": "WXYZ-9876", "verification_uri": "https://github.com/login/device", "interval": 1, "expires_in": 900}`)
	case r.URL.Path == "/login/oauth/access_token" && pending:
		_, _ = io.WriteString(w, `{"error": "authorization_pending", "error_description": "waiting"}`)
	case r.URL.Path == "/login/oauth/access_token":
		_, _ = io.WriteString(w, `{"access_token": "gho_login", "token_type": "bearer", "scope": "read:user"}`)
	default:
		http.NotFound(w, r)
	}
}
