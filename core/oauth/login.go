package oauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Notice is what a login shows the person while it runs.
type Notice struct {
	// Kind is "auth_url" (open URL in a browser), "device_code" (enter
	// Code at URL) or "progress" (Text says what is happening).
	Kind string
	URL  string
	Code string
	Text string
}

// Interaction is how a login talks to the person.
type Interaction struct {
	// Notify shows a notice; it must not block.
	Notify func(Notice)
	// Prompt asks for one line of text (a pasted redirect URL or code);
	// nil means the person cannot type one, and only the browser's
	// callback completes a browser login. It returns when ctx ends.
	Prompt func(ctx context.Context, message string) (string, error)
}

func (in Interaction) notify(n Notice) {
	if in.Notify != nil {
		in.Notify(n)
	}
}

// Login methods, by the names pi offers.
const (
	MethodBrowser = "browser"     // PKCE with a local callback
	MethodDevice  = "device_code" // a code entered on another device
)

// LoginOptions choose how a login runs.
type LoginOptions struct {
	// Method is MethodBrowser or MethodDevice; "" is the provider's
	// default (the browser, or the device code where that is all there is).
	Method string
	// Enterprise is a GitHub Enterprise URL or domain for github-copilot;
	// "" is github.com.
	Enterprise string
}

// LoginMethods lists the methods each provider's login offers, its
// default first.
var LoginMethods = map[string][]string{
	"anthropic":      {MethodBrowser},
	"openai-codex":   {MethodBrowser, MethodDevice},
	"github-copilot": {MethodDevice},
}

// LoginName is how pi names each login.
var LoginName = map[string]string{
	"anthropic":      "Anthropic (Claude Pro/Max)",
	"openai-codex":   "OpenAI (ChatGPT Plus/Pro)",
	"github-copilot": "GitHub Copilot",
}

// Login runs provider's login as pi 0.87.1 runs it and returns the
// auth.json entry to store. Every wait ends with ctx, and the device-code
// flows with the code's own expiry.
func (c *Client) Login(ctx context.Context, provider string, opts LoginOptions, in Interaction) (json.RawMessage, error) {
	methods, ok := LoginMethods[provider]
	if !ok {
		return nil, fmt.Errorf("cairn has no login for provider %q; logins: anthropic, openai-codex, github-copilot", provider)
	}
	method := opts.Method
	if method == "" {
		method = methods[0]
	}
	supported := false
	for _, m := range methods {
		supported = supported || m == method
	}
	if !supported {
		return nil, fmt.Errorf("the %s login has no %q method; it offers %s", provider, method, strings.Join(methods, ", "))
	}
	switch {
	case provider == "anthropic":
		return c.loginAnthropic(ctx, in)
	case provider == "openai-codex" && method == MethodDevice:
		return c.loginCodexDevice(ctx, in)
	case provider == "openai-codex":
		return c.loginCodexBrowser(ctx, in)
	default:
		return c.loginCopilot(ctx, opts.Enterprise, in)
	}
}

// pkce returns a code verifier and its S256 challenge.
func pkce() (verifier, challenge string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// callbackResult is what the browser brought back.
type callbackResult struct {
	code, state string
}

// callbackServer listens where the authorize request said the browser
// will come back to, and hands over the first valid answer.
type callbackServer struct {
	srv  *http.Server
	got  chan callbackResult
	addr string
}

// listenCallback starts the local callback server for path on port (of
// the host PI_OAUTH_CALLBACK_HOST names, else 127.0.0.1, as pi). check
// validates the answer's state. A port taken by another program is not
// an error: the person can still paste the redirect URL, as in pi.
func (c *Client) listenCallback(port int, path string, check func(state string) bool) *callbackServer {
	if c.CallbackPort != 0 {
		port = c.CallbackPort
	}
	host := c.CallbackHost
	if host == "" {
		host = "127.0.0.1"
	}
	cs := &callbackServer{got: make(chan callbackResult, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case q.Get("error") != "":
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, page("Login did not complete: "+q.Get("error")))
		case q.Get("code") == "" || !check(q.Get("state")):
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, page("Missing code or state mismatch."))
		default:
			fmt.Fprint(w, page("Login completed. You can close this window and return to cairn."))
			select {
			case cs.got <- callbackResult{code: q.Get("code"), state: q.Get("state")}:
			default:
			}
		}
	})
	ln, err := net.Listen("tcp", net.JoinHostPort(host, fmt.Sprint(port)))
	if err != nil {
		return cs
	}
	cs.addr = ln.Addr().String()
	cs.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = cs.srv.Serve(ln) }()
	return cs
}

func (cs *callbackServer) close() {
	if cs.srv != nil {
		_ = cs.srv.Close()
	}
}

func page(text string) string {
	return "<!doctype html><meta charset=utf-8><title>cairn</title><p>" + strings.NewReplacer("<", "&lt;", "&", "&amp;").Replace(text) + "</p>"
}

// waitForCode waits for the browser's callback or a pasted redirect URL
// or code (parsed as pi parses it), whichever comes first.
func waitForCode(ctx context.Context, cs *callbackServer, in Interaction, placeholder string) (callbackResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pasted := make(chan callbackResult, 1)
	failed := make(chan error, 1)
	if in.Prompt != nil {
		go func() {
			line, err := in.Prompt(ctx, "Complete login in your browser, or paste the authorization code / redirect URL ("+placeholder+") here:")
			if err != nil {
				failed <- err
				return
			}
			pasted <- parseAuthorizationInput(line)
		}()
	}
	select {
	case r := <-cs.got:
		return r, nil
	case r := <-pasted:
		if r.code == "" {
			return r, errors.New("no authorization code was given")
		}
		return r, nil
	case err := <-failed:
		return callbackResult{}, err
	case <-ctx.Done():
		return callbackResult{}, fmt.Errorf("login cancelled: %w", ctx.Err())
	}
}

// parseAuthorizationInput reads a pasted redirect URL, "code#state",
// a query string or a bare code, as pi does.
func parseAuthorizationInput(input string) callbackResult {
	v := strings.TrimSpace(input)
	if v == "" {
		return callbackResult{}
	}
	if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
		return callbackResult{code: u.Query().Get("code"), state: u.Query().Get("state")}
	}
	if code, state, ok := strings.Cut(v, "#"); ok {
		return callbackResult{code: code, state: state}
	}
	if strings.Contains(v, "code=") {
		q, _ := url.ParseQuery(v)
		return callbackResult{code: q.Get("code"), state: q.Get("state")}
	}
	return callbackResult{code: v}
}
