package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/oauth/oauthtest"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// TestLoginThenUse: `cairn login anthropic` (the browser's code pasted,
// against a fake token endpoint) keeps the tokens in cairn's auth.json,
// private, in pi's format, shows no token, and the next run sends the
// subscription token to the model as pi does.
func TestLoginThenUse(t *testing.T) {
	f := oauthtest.New(t)
	f.Access, f.Refresh = "sk-ant-oat01-login-secret", "sk-ant-ort01-login-secret"
	dir := t.TempDir()
	vars := map[string]string{"CAIRN_DIR": dir, "CAIRN_OAUTH_TEST_ORIGIN": f.URL, "HOME": t.TempDir()}
	stdin := "the-code\n"
	r := invoke(t, vars, &stdin, "login", "anthropic")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if !strings.Contains(r.stderr, "/oauth/authorize?") || strings.Contains(r.stderr+r.stdout, "secret") {
		t.Errorf("stderr: %s", r.stderr)
	}
	path := filepath.Join(dir, "auth.json")
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "\"access\": \"sk-ant-oat01-login-secret\"") {
		t.Fatalf("auth.json: %s, %v", data, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("auth.json mode %v", st.Mode().Perm())
	}

	model := providertest.NewServer(t, providertest.SSE(t, "anthropic/text.0.sse"))
	if err := os.WriteFile(filepath.Join(dir, "models.json"), []byte(`{"providers": {"anthropic": {"baseUrl": "`+model.URL+`"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r = invoke(t, vars, nil, "--provider", "anthropic", "--model", "claude-opus-4-6", "--thinking", "off", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	reqs := model.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer sk-ant-oat01-login-secret" {
		t.Fatalf("requests %+v", reqs)
	}
}

// TestLoginDeviceCode: `cairn login github-copilot` shows the code to
// enter and keeps Copilot's entry.
func TestLoginDeviceCode(t *testing.T) {
	f := oauthtest.New(t)
	dir := t.TempDir()
	stdin := ""
	r := invoke(t, map[string]string{"CAIRN_DIR": dir, "CAIRN_OAUTH_TEST_ORIGIN": f.URL}, &stdin, "login", "github-copilot")
	if r.code != 0 || !strings.Contains(r.stderr, "enter the code WXYZ-9876") {
		t.Fatalf("%+v", r)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "auth.json")); !strings.Contains(string(data), `"github-copilot"`) || !strings.Contains(string(data), `"availableModelIds"`) {
		t.Errorf("auth.json: %s", data)
	}
}

func TestLoginUsageErrors(t *testing.T) {
	stdin := ""
	for _, args := range [][]string{{"login"}, {"login", "radius"}, {"login", "anthropic", "--device"}, {"login", "anthropic", "--enterprise", "x"},
		{"login", "anthropic", "--bogus"}, {"login", "anthropic", "openai-codex"}} {
		if r := invoke(t, map[string]string{"CAIRN_OAUTH_TEST_ORIGIN": "http://127.0.0.1:1"}, &stdin, args...); r.code != exitUsage || !strings.HasPrefix(r.stderr, "cairn: ") && !strings.HasPrefix(r.stderr, "usage: ") {
			t.Errorf("%v: %+v", args, r)
		}
	}
	if r := invoke(t, map[string]string{"CAIRN_OAUTH_TEST_ORIGIN": "https://evil.example"}, &stdin, "login", "anthropic"); r.code != exitUsage || !strings.Contains(r.stderr, "loopback") {
		t.Errorf("a non-loopback test origin: %+v", r)
	}
}

// TestExpiredPiLoginIsRefreshed: with only pi's home, an expired
// subscription token of pi's auth.json is refreshed (against the fake
// token endpoint), written back to pi's file, and sent to the model.
func TestExpiredPiLoginIsRefreshed(t *testing.T) {
	f := oauthtest.New(t)
	f.Access = "sk-ant-oat01-fresh"
	model := providertest.NewServer(t, providertest.SSE(t, "anthropic/text.0.sse"))
	home := t.TempDir()
	piDir := filepath.Join(home, ".pi", "agent")
	if err := os.MkdirAll(piDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"auth.json":   `{"anthropic": {"type": "oauth", "access": "sk-ant-oat01-stale", "refresh": "r", "expires": 1}}`,
		"models.json": `{"providers": {"anthropic": {"baseUrl": "` + model.URL + `"}}}`,
	} {
		if err := os.WriteFile(filepath.Join(piDir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{"HOME": home, "CAIRN_DIR": "", "CAIRN_OAUTH_TEST_ORIGIN": f.URL}
	r := invoke(t, vars, nil, "--provider", "anthropic", "--model", "claude-opus-4-6", "--thinking", "off", "--no-session", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if reqs := model.Requests(); len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer sk-ant-oat01-fresh" {
		t.Fatalf("model requests %+v", reqs)
	}
	if data, _ := os.ReadFile(filepath.Join(piDir, "auth.json")); !strings.Contains(string(data), `"access": "sk-ant-oat01-fresh"`) {
		t.Errorf("pi's auth.json: %s", data)
	}
}
