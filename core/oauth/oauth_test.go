package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/oauth/oauthtest"
	"github.com/cairn-dev/cairn/core/pihome"
)

var clock = time.UnixMilli(1_700_000_000_000)

func client(f *oauthtest.Fake) *Client {
	return &Client{Origin: f.URL, Now: func() time.Time { return clock }}
}

// TestRefreshAsPi: each provider's refresh sends pi's request (endpoint,
// client id, body encoding, headers) and yields the entry pi would write,
// members in pi's order, with pi's expiry margins.
func TestRefreshAsPi(t *testing.T) {
	for _, c := range []struct {
		provider string
		cred     pihome.Credential
		method   string
		path     string
		body     string
		headers  map[string]string
		entry    string
	}{
		{
			provider: "anthropic",
			cred:     pihome.Credential{Type: "oauth", Access: "old", Refresh: "r-old", Expires: 1},
			method:   "POST", path: "/v1/oauth/token",
			body:    `{"grant_type":"refresh_token","client_id":"9d1c250a-e61b-44d9-88ed-5944d1962f5e","refresh_token":"r-old"}`,
			headers: map[string]string{"Content-Type": "application/json", "Accept": "application/json"},
			entry:   `{"type":"oauth","refresh":"new-refresh","access":"new-access","expires":1700003300000}`,
		},
		{
			provider: "openai-codex",
			cred:     pihome.Credential{Type: "oauth", Access: "old", Refresh: "r-old", Expires: 1, AccountID: "acct-0"},
			method:   "POST", path: "/oauth/token",
			body:    "grant_type=refresh_token&refresh_token=r-old&client_id=app_EMoamEEZ73f0CkXaXp7hrann",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
			entry:   `{"type":"oauth","access":"` + oauthtest.CodexJWT("acct-1") + `","refresh":"new-refresh","expires":1700003600000,"accountId":"acct-1"}`,
		},
		{
			provider: "github-copilot",
			cred:     pihome.Credential{Type: "oauth", Access: "old", Refresh: "gho_github", Expires: 1},
			method:   "GET", path: "/copilot_internal/v2/token",
			headers: map[string]string{"Authorization": "Bearer gho_github", "Accept": "application/json",
				"User-Agent": "GitHubCopilotChat/0.35.0", "Editor-Version": "vscode/1.107.0",
				"Editor-Plugin-Version": "copilot-chat/0.35.0", "Copilot-Integration-Id": "vscode-chat"},
			entry: `{"type":"oauth","refresh":"gho_github","access":"tid=1;exp=1;proxy-ep=proxy.individual.githubcopilot.com;new-access","expires":4102444500000,"availableModelIds":["gpt-4.1"]}`,
		},
	} {
		t.Run(c.provider, func(t *testing.T) {
			f := oauthtest.New(t)
			entry, cred, err := client(f).Refresh(context.Background(), c.provider, c.cred)
			if err != nil {
				t.Fatal(err)
			}
			if string(entry) != c.entry {
				t.Errorf("entry\n%s\nwant\n%s", entry, c.entry)
			}
			if cred.Access == "" || cred.Access == "old" || cred.Type != "oauth" {
				t.Errorf("credential %+v", cred)
			}
			reqs := f.Requests()
			if len(reqs) == 0 {
				t.Fatal("no request")
			}
			r := reqs[0]
			if r.Method != c.method || r.Path != c.path || r.Body != c.body {
				t.Errorf("request %s %s %q, want %s %s %q", r.Method, r.Path, r.Body, c.method, c.path, c.body)
			}
			for k, v := range c.headers {
				if got := r.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestCopilotModelsRequest: the models list is read from the API the new
// token names, with Copilot's headers and API version.
func TestCopilotModelsRequest(t *testing.T) {
	f := oauthtest.New(t)
	if _, _, err := client(f).Refresh(context.Background(), "github-copilot", pihome.Credential{Type: "oauth", Refresh: "gho"}); err != nil {
		t.Fatal(err)
	}
	reqs := f.Requests()
	if len(reqs) != 2 || reqs[1].Path != "/models" {
		t.Fatalf("requests %+v", reqs)
	}
	h := reqs[1].Header
	if !strings.HasPrefix(h.Get("Authorization"), "Bearer tid=1;") || h.Get("X-GitHub-Api-Version") != "2026-06-01" || h.Get("Copilot-Integration-Id") != "vscode-chat" {
		t.Errorf("models request headers %v", h)
	}
}

// TestRefreshFailureNamesNoToken: a refused refresh says who refused and
// why, without the tokens even when the endpoint echoes them.
func TestRefreshFailureNamesNoToken(t *testing.T) {
	f := oauthtest.New(t)
	f.Status = 400
	_, _, err := client(f).Refresh(context.Background(), "anthropic", pihome.Credential{Type: "oauth", Access: "sk-ant-oat-secret", Refresh: "sk-ant-ort-secret"})
	if err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Fatalf("a token in the error: %v", err)
	}
	if got := scrub(errString("echo sk-ant-ort-secret"), "sk-ant-ort-secret"); strings.Contains(got.Error(), "secret") {
		t.Fatalf("scrub kept a token: %v", got)
	}
	if _, _, err := client(f).Refresh(context.Background(), "radius", pihome.Credential{Type: "oauth", Refresh: "r"}); err == nil {
		t.Fatal("a provider cairn cannot refresh was refreshed")
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestRefreshIsBounded: a token endpoint that never answers is given up on
// when the caller's context ends.
func TestRefreshIsBounded(t *testing.T) {
	stall := make(chan struct{})
	defer close(stall)
	f := oauthtest.New(t)
	f.Config.Handler = blockUntil(stall)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, _, err := client(f).Refresh(ctx, "openai-codex", pihome.Credential{Type: "oauth", Refresh: "r"})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a stalled endpoint gave a token")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the refresh did not end with its context")
	}
}

func TestFromEnvOnlyLoopback(t *testing.T) {
	for origin, ok := range map[string]bool{"": true, "http://127.0.0.1:9": true, "http://localhost:9": true, "http://[::1]:9": true,
		"https://evil.example": false, "http://10.0.0.1:9": false, "http://127.0.0.1:9/path": false, "ftp://127.0.0.1": false} {
		_, err := FromEnv(func(string) string { return origin })
		if (err == nil) != ok {
			t.Errorf("%q: err = %v", origin, err)
		}
	}
}

func TestCopilotBaseURL(t *testing.T) {
	for _, c := range []struct{ token, ent, want string }{
		{"tid=1;proxy-ep=proxy.business.githubcopilot.com;x", "", "https://api.business.githubcopilot.com"},
		{"plain", "ghe.example.com", "https://copilot-api.ghe.example.com"},
		{"plain", "", "https://api.individual.githubcopilot.com"},
	} {
		if got := CopilotBaseURL(c.token, c.ent); got != c.want {
			t.Errorf("CopilotBaseURL(%q, %q) = %q, want %q", c.token, c.ent, got, c.want)
		}
	}
	if NormalizeDomain("https://ghe.example.com/x") != "ghe.example.com" || NormalizeDomain(" ghe.example.com ") != "ghe.example.com" || NormalizeDomain("") != "" {
		t.Error("NormalizeDomain")
	}
}

func FuzzCodexAccountID(f *testing.F) {
	f.Add(oauthtest.CodexJWT("acct"))
	f.Add("a.b.c")
	f.Add("")
	f.Fuzz(func(t *testing.T, token string) {
		_ = CodexAccountID(token)
	})
}

func FuzzErrorCode(f *testing.F) {
	f.Add([]byte(`{"error": "invalid_grant", "error_description": "x"}`))
	f.Add([]byte(`{"error": {"code": "c", "message": "m"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if s := errorCode(data); len(s) > 200+len("…") {
			t.Fatalf("error code of %d bytes", len(s))
		}
	})
}

func TestFormBodyEncodesAsURLSearchParams(t *testing.T) {
	got := string(formBody("a", "x y&z", "b", "é"))
	if v, err := url.ParseQuery(got); err != nil || v.Get("a") != "x y&z" || v.Get("b") != "é" {
		t.Errorf("formBody = %q", got)
	}
	var m map[string]string
	if json.Unmarshal(jsonBody(pihome.Member{Name: "k", Value: "<v>"}), &m) != nil || m["k"] != "<v>" {
		t.Error("jsonBody")
	}
}

func blockUntil(stop <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	})
}

func FuzzCopilotBaseURL(f *testing.F) {
	f.Add("tid=1;proxy-ep=proxy.x.githubcopilot.com;", "")
	f.Add("proxy-ep=;", "ghe.example.com")
	f.Fuzz(func(t *testing.T, token, enterprise string) {
		if u := CopilotBaseURL(token, enterprise); !strings.HasPrefix(u, "https://") {
			t.Fatalf("CopilotBaseURL = %q", u)
		}
	})
}
