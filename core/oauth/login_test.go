package oauth

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/oauth/oauthtest"
	"github.com/cairn-dev/cairn/core/pihome"
)

// freePort returns a port nothing listens on now.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// browser plays the person's browser: given the authorize URL a login
// shows, it "logs in" and is redirected to the local callback with a code
// and the state it was given.
func browser(t *testing.T, port int, path string, code string) func(Notice) {
	return func(n Notice) {
		if n.Kind != "auth_url" {
			return
		}
		u, err := url.Parse(n.URL)
		if err != nil {
			t.Errorf("auth url %q: %v", n.URL, err)
			return
		}
		state := u.Query().Get("state")
		go func() {
			resp, err := http.Get("http://127.0.0.1:" + itoa(port) + path + "?code=" + code + "&state=" + url.QueryEscape(state))
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestBrowserLoginsAsPi: the Anthropic and Codex browser logins show pi's
// authorize URL (client, redirect, PKCE S256 challenge, scopes), take the
// code from the local callback, exchange it as pi does, and give pi's
// entry.
func TestBrowserLoginsAsPi(t *testing.T) {
	for _, c := range []struct {
		provider, path, tokenPath, redirect, wantBody string
		entryPrefix                                   string
	}{
		{"anthropic", "/callback", "/v1/oauth/token", "http://localhost:53692/callback", `"grant_type":"authorization_code","client_id":"9d1c250a-e61b-44d9-88ed-5944d1962f5e","code":"the-code"`,
			`{"type":"oauth","refresh":"new-refresh","access":"new-access","expires":`},
		{"openai-codex", "/auth/callback", "/oauth/token", "http://localhost:1455/auth/callback", "grant_type=authorization_code&client_id=app_EMoamEEZ73f0CkXaXp7hrann&code=the-code&code_verifier=",
			`{"type":"oauth","access":"` + oauthtest.CodexJWT("acct-1") + `","refresh":"new-refresh","expires":`},
	} {
		t.Run(c.provider, func(t *testing.T) {
			f := oauthtest.New(t)
			port := freePort(t)
			cl := &Client{Origin: f.URL, CallbackPort: port}
			var authURL string
			show := browser(t, port, c.path, "the-code")
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			entry, err := cl.Login(ctx, c.provider, LoginOptions{}, Interaction{Notify: func(n Notice) {
				if n.Kind == "auth_url" {
					authURL = n.URL
				}
				show(n)
			}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(entry), c.entryPrefix) {
				t.Errorf("entry %s", entry)
			}
			if _, err := pihome.ParseCredential(entry); err != nil {
				t.Errorf("pi would refuse the entry: %v", err)
			}
			u, _ := url.Parse(authURL)
			q := u.Query()
			if q.Get("redirect_uri") != c.redirect || q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 || q.Get("state") == "" {
				t.Errorf("authorize URL %s", authURL)
			}
			var exchange *oauthtest.Request
			for _, r := range f.Requests() {
				if r.Path == c.tokenPath {
					exchange = &r
				}
			}
			if exchange == nil || !strings.Contains(exchange.Body, c.wantBody) || !strings.Contains(exchange.Body, "localhost") {
				t.Fatalf("exchange %+v", exchange)
			}
		})
	}
}

// TestPastedRedirectCompletesLogin: with the browser on another machine,
// the redirect URL pasted in completes the login; one from another login
// (another state) is refused.
func TestPastedRedirectCompletesLogin(t *testing.T) {
	f := oauthtest.New(t)
	cl := &Client{Origin: f.URL, CallbackPort: freePort(t)}
	var state string
	in := Interaction{
		Notify: func(n Notice) {
			if n.Kind == "auth_url" {
				u, _ := url.Parse(n.URL)
				state = u.Query().Get("state")
			}
		},
		Prompt: func(ctx context.Context, _ string) (string, error) {
			return "http://localhost:53692/callback?code=pasted&state=" + url.QueryEscape(state), nil
		},
	}
	if _, err := cl.Login(context.Background(), "anthropic", LoginOptions{}, in); err != nil {
		t.Fatal(err)
	}
	in.Prompt = func(context.Context, string) (string, error) { return "pasted#someone-elses-state", nil }
	if _, err := cl.Login(context.Background(), "anthropic", LoginOptions{}, in); err == nil || !strings.Contains(err.Error(), "state") {
		t.Fatalf("a foreign state: %v", err)
	}
}

// TestDeviceCodeLoginsAsPi: the Codex and Copilot device-code logins show
// the code to enter, poll until the person has entered it (answered "not
// yet" first), and give pi's entry.
func TestDeviceCodeLoginsAsPi(t *testing.T) {
	for _, c := range []struct{ provider, code, url, prefix string }{
		{"openai-codex", "ABCD-1234", "https://auth.openai.com/codex/device", `{"type":"oauth","access":"`},
		{"github-copilot", "WXYZ-9876", "https://github.com/login/device", `{"type":"oauth","refresh":"gho_login","access":"tid=1;`},
	} {
		t.Run(c.provider, func(t *testing.T) {
			f := oauthtest.New(t)
			f.Pending = 1
			cl := &Client{Origin: f.URL, pollFloor: time.Millisecond}
			var shown Notice
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			entry, err := cl.Login(ctx, c.provider, LoginOptions{Method: MethodDevice}, Interaction{Notify: func(n Notice) {
				if n.Kind == "device_code" {
					shown = n
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			if shown.Code != c.code || shown.URL != c.url {
				t.Errorf("shown %+v", shown)
			}
			if !strings.HasPrefix(string(entry), c.prefix) {
				t.Errorf("entry %s", entry)
			}
			polls := 0
			for _, r := range f.Requests() {
				if r.Path == "/api/accounts/deviceauth/token" || r.Path == "/login/oauth/access_token" {
					polls++
				}
			}
			if polls != 2 {
				t.Errorf("%d polls, want 2 (one pending)", polls)
			}
		})
	}
}

// TestLoginEndsWithItsContext: a login nobody completes ends when its
// context does, and a method a provider lacks is refused.
func TestLoginEndsWithItsContext(t *testing.T) {
	f := oauthtest.New(t)
	cl := &Client{Origin: f.URL, CallbackPort: freePort(t)}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := cl.Login(ctx, "anthropic", LoginOptions{}, Interaction{}); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("err = %v", err)
	}
	if _, err := cl.Login(context.Background(), "github-copilot", LoginOptions{Method: MethodBrowser}, Interaction{}); err == nil {
		t.Fatal("a browser login for Copilot")
	}
	if _, err := cl.Login(context.Background(), "radius", LoginOptions{}, Interaction{}); err == nil {
		t.Fatal("a login for an unknown provider")
	}
}

func FuzzParseAuthorizationInput(f *testing.F) {
	for _, s := range []string{"http://localhost:1/cb?code=a&state=b", "a#b", "code=a&state=b", "plain", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = parseAuthorizationInput(s)
	})
}
