// Package oauth speaks the OAuth token endpoints of the subscriptions pi
// users log in to (Anthropic's Claude Pro/Max, OpenAI's ChatGPT for Codex,
// GitHub Copilot), as pi 0.87.1 (its pi-ai package) does: the same
// endpoints, client ids, request bodies and expiry margins, so that a token
// pi stored is refreshed by cairn exactly as pi would refresh it, and the
// entry written back is the one pi would write.
//
// Every request is bounded: a refresh by RefreshTimeout as a whole, and
// each request by the limit pi gives it. Tokens never appear in errors.
package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/pihome"
)

// EnvTestOrigin names the variable that points every OAuth request (token,
// device-code and Copilot endpoints) at a local fake server, keeping each
// request's path: for tests only. Only a loopback origin
// ("http://127.0.0.1:PORT", "http://localhost:PORT") is accepted, so a
// token can never be sent elsewhere through it.
const EnvTestOrigin = "CAIRN_OAUTH_TEST_ORIGIN"

// RefreshTimeout bounds one refresh, every request in it included (pi-ai's
// DEFAULT_OAUTH_REFRESH_TIMEOUT_MS).
const RefreshTimeout = 15 * time.Second

// maxResponse bounds the body read from a token endpoint.
const maxResponse = 1 << 20

// Client makes OAuth requests. The zero value reaches the real services.
type Client struct {
	// HTTP sends the requests; nil means http.DefaultClient. Each request
	// is bounded by its context.
	HTTP *http.Client
	// Origin, when set, replaces the scheme and host of every URL (see
	// EnvTestOrigin).
	Origin string
	// Now is the clock expiries are computed from; nil means time.Now.
	Now func() time.Time
	// CallbackHost and CallbackPort, when set, replace where a browser
	// login's local callback listens (127.0.0.1 and the provider's port);
	// the redirect URL sent to the service stays pi's. CallbackHost is
	// PI_OAUTH_CALLBACK_HOST in FromEnv, as in pi.
	CallbackHost string
	CallbackPort int
	// pollFloor is the shortest wait between two polls of a device-code
	// login; 0 means pi's one second. Tests shorten it.
	pollFloor time.Duration
}

// FromEnv returns a Client for the real services, or for the fake named by
// EnvTestOrigin when it is set. An origin that is not loopback is an error.
func FromEnv(getenv func(string) string) (*Client, error) {
	origin := getenv(EnvTestOrigin)
	if origin == "" {
		return &Client{CallbackHost: getenv("PI_OAUTH_CALLBACK_HOST")}, nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("%s=%q: expected an origin such as http://127.0.0.1:8080", EnvTestOrigin, origin)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%s=%q: only a loopback origin is accepted (it is for tests)", EnvTestOrigin, origin)
	}
	return &Client{Origin: u.Scheme + "://" + u.Host, CallbackHost: getenv("PI_OAUTH_CALLBACK_HOST")}, nil
}

// Supports reports whether cairn can refresh provider's tokens.
func Supports(provider string) bool {
	_, ok := refreshers[provider]
	return ok
}

// refreshers are the refresh flows, by pi's provider id.
var refreshers = map[string]func(*Client, context.Context, pihome.Credential) (json.RawMessage, error){
	"anthropic":      (*Client).refreshAnthropic,
	"openai-codex":   (*Client).refreshCodex,
	"github-copilot": (*Client).refreshCopilot,
}

// Refresh exchanges cred's refresh token for a new access token, as pi
// does for provider, within RefreshTimeout. It returns the new entry as pi
// writes it to auth.json (its members in pi's order) and as read back.
func (c *Client) Refresh(ctx context.Context, provider string, cred pihome.Credential) (json.RawMessage, pihome.Credential, error) {
	f, ok := refreshers[provider]
	if !ok {
		return nil, pihome.Credential{}, fmt.Errorf("cairn cannot refresh the OAuth tokens of provider %s", provider)
	}
	if cred.Refresh == "" {
		return nil, pihome.Credential{}, fmt.Errorf("the OAuth entry of provider %s has no refresh token", provider)
	}
	ctx, cancel := context.WithTimeout(ctx, RefreshTimeout)
	defer cancel()
	entry, err := f(c, ctx, cred)
	if err != nil {
		return nil, pihome.Credential{}, scrub(err, cred.Access, cred.Refresh)
	}
	out, err := pihome.ParseCredential(entry)
	if err != nil {
		return nil, pihome.Credential{}, fmt.Errorf("the refreshed credential of %s: %w", provider, err)
	}
	return entry, out, nil
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// url applies Origin to raw.
func (c *Client) url(raw string) string {
	if c.Origin == "" {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	o, _ := url.Parse(c.Origin)
	u.Scheme, u.Host = o.Scheme, o.Host
	return u.String()
}

// request describes one HTTP exchange with an OAuth or Copilot endpoint.
type request struct {
	method, url string
	header      map[string]string
	body        []byte
	timeout     time.Duration // 0: only the context's
}

// do sends r and decodes a 2xx JSON answer into out. Any other status is
// an error naming the endpoint, the status and the answer's error code,
// never its whole body.
func (c *Client) do(ctx context.Context, r request, out any) error {
	if r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.timeout)
		defer cancel()
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	target := c.url(r.url)
	req, err := http.NewRequestWithContext(ctx, r.method, target, body)
	if err != nil {
		return err
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // its URL is named below
		}
		return fmt.Errorf("%s %s: %w", r.method, endpointName(r.url), err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.method, endpointName(r.url), err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &StatusError{Endpoint: endpointName(r.url), Status: resp.StatusCode, Code: errorCode(data)}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the JSON expected: %w", r.method, endpointName(r.url), err)
	}
	return nil
}

// StatusError is an OAuth endpoint's answer with an error status.
type StatusError struct {
	Endpoint string
	Status   int
	// Code is the answer's error code and description when it gave them
	// (OAuth's "error" and "error_description"), shortened.
	Code string
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("%s answered %d %s", e.Endpoint, e.Status, http.StatusText(e.Status))
	if e.Code != "" {
		msg += ": " + e.Code
	}
	return msg
}

// endpointName is raw without its query.
func endpointName(raw string) string {
	if i := strings.IndexByte(raw, '?'); i >= 0 {
		return raw[:i]
	}
	return raw
}

// errorCode reads OAuth's error members (or an {"error": {"code",
// "message"}} object) from an error answer.
func errorCode(data []byte) string {
	var body struct {
		Error       json.RawMessage `json:"error"`
		Description string          `json:"error_description"`
	}
	if json.Unmarshal(data, &body) != nil {
		return ""
	}
	var code string
	if json.Unmarshal(body.Error, &code) != nil {
		var obj struct{ Code, Message string }
		_ = json.Unmarshal(body.Error, &obj)
		code, body.Description = obj.Code, obj.Message
	}
	out := strings.TrimSpace(code + " " + body.Description)
	if len(out) > 200 {
		out = out[:200] + "…"
	}
	return out
}

// scrub replaces every secret in err's text, in case an endpoint echoed
// one back.
func scrub(err error, secrets ...string) error {
	msg := err.Error()
	clean := msg
	for _, s := range secrets {
		if len(s) >= 4 {
			clean = strings.ReplaceAll(clean, s, "[token]")
		}
	}
	if clean == msg {
		return err
	}
	return errors.New(clean)
}

// formBody encodes values as application/x-www-form-urlencoded in the
// order given, as URLSearchParams does.
func formBody(pairs ...string) []byte {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(pairs[i]))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(pairs[i+1]))
	}
	return []byte(b.String())
}

// jsonBody encodes members in the order given, as JSON.stringify does.
func jsonBody(members ...pihome.Member) []byte {
	b, err := pihome.MarshalOrdered(members...)
	if err != nil {
		panic(err) // only strings are passed
	}
	return b
}
