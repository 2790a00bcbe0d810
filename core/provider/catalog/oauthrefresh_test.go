package catalog

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/oauth/oauthtest"
	"github.com/cairn-dev/cairn/core/pihome"
)

// TestExpiringOAuthTokenIsRefreshedAsPi: a token of pi's auth.json that
// expires within five minutes is refreshed once (however many requests
// want it at the same time), written back in pi's format with the other
// entries kept, and used; a token refreshed meanwhile by another process
// (pi) is read from the file rather than refreshed again.
func TestExpiringOAuthTokenIsRefreshedAsPi(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_000)
	pi := t.TempDir()
	path := pihome.AuthFile(pi)
	soon := now.Add(4 * time.Minute).UnixMilli()
	before := `{
  "openai": {
    "type": "api_key",
    "key": "sk-o"
  },
  "anthropic": {
    "type": "oauth",
    "access": "sk-ant-oat01-old",
    "refresh": "sk-ant-ort01-old",
    "expires": ` + itoa(soon) + `
  }
}`
	if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	f := oauthtest.New(t)
	f.Access, f.Refresh = "sk-ant-oat01-new", "sk-ant-ort01-new"
	c, err := Load(Options{PiDir: pi, Getenv: env(nil), Now: func() time.Time { return now }, OAuth: &oauth.Client{Origin: f.URL, Now: func() time.Time { return now }}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("anthropic", "claude-opus-4-6")
	if err != nil {
		t.Fatal(err)
	}
	if !c.HasKey(m) {
		t.Fatal("a refreshable token does not count as a key")
	}
	var wg sync.WaitGroup
	keys := make([]string, 4)
	errs := make([]error, 4)
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cr, err := c.Credentials(m)
			keys[i], errs[i] = cr.APIKey, err
		}()
	}
	wg.Wait()
	for i := range keys {
		if errs[i] != nil || keys[i] != "sk-ant-oat01-new" {
			t.Fatalf("credentials %d: %q, %v", i, keys[i], errs[i])
		}
	}
	if n := len(f.Requests()); n != 1 {
		t.Errorf("%d refresh requests, want 1", n)
	}
	want := `{
  "openai": {
    "type": "api_key",
    "key": "sk-o"
  },
  "anthropic": {
    "type": "oauth",
    "refresh": "sk-ant-ort01-new",
    "access": "sk-ant-oat01-new",
    "expires": ` + itoa(now.UnixMilli()+3600_000-300_000) + `
  }
}`
	if data, _ := os.ReadFile(path); string(data) != want {
		t.Errorf("auth.json =\n%s\nwant\n%s", data, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}

	// Another process refreshes first: the file's token is used as it is.
	c2, err := Load(Options{PiDir: pi, Getenv: env(nil), Now: func() time.Time { return now }, OAuth: &oauth.Client{Origin: f.URL}})
	if err != nil {
		t.Fatal(err)
	}
	c2.auth["anthropic"] = pihome.Credential{Type: "oauth", Access: "stale", Refresh: "x", Expires: soon}
	if cr, err := c2.Credentials(m); err != nil || cr.APIKey != "sk-ant-oat01-new" {
		t.Fatalf("after another process's refresh: %q, %v", cr.APIKey, err)
	}
	if n := len(f.Requests()); n != 1 {
		t.Errorf("a token another process refreshed was refreshed again (%d requests)", n)
	}
}

// TestOAuthRefreshErrorsSayWhatToDo: an entry gone from the file (logged
// out) and a provider cairn cannot refresh each get an error naming the
// provider and the way out, without a token.
func TestOAuthRefreshErrorsSayWhatToDo(t *testing.T) {
	pi := t.TempDir()
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(pi, "auth.json"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"anthropic": {"type": "oauth", "access": "sk-ant-oat01-secret", "refresh": "r-secret", "expires": 1}}`)
	f := oauthtest.New(t)
	c, err := Load(Options{PiDir: pi, Getenv: env(nil), OAuth: &oauth.Client{Origin: f.URL}})
	if err != nil {
		t.Fatal(err)
	}
	write(`{}`)
	m, _ := c.Find("anthropic", "claude-opus-4-6")
	_, err = c.Credentials(m)
	if err == nil || !strings.Contains(err.Error(), "logged out") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("logged out meanwhile: %v", err)
	}
	if len(f.Requests()) != 0 {
		t.Error("a refresh was tried for an entry no longer in the file")
	}
	write(`{"xai": {"type": "oauth", "access": "a-secret", "refresh": "r-secret", "expires": 1}}`)
	c, _ = Load(Options{PiDir: pi, Getenv: env(nil), OAuth: &oauth.Client{Origin: f.URL}})
	x, err := c.Find("xai", "grok-4-fast-non-reasoning")
	if err != nil {
		t.Fatal(err)
	}
	if c.HasKey(x) {
		t.Error("an expired token cairn cannot refresh counts as a key")
	}
	if _, err := c.Credentials(x); err == nil || !strings.Contains(err.Error(), "cannot refresh") || !strings.Contains(err.Error(), "/login") {
		t.Fatalf("a provider cairn cannot refresh: %v", err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestCairnsLoginsWinAndRefreshInPlace: an entry of cairn's own auth.json
// (from `cairn login`) wins over pi's for the same provider, and its
// refresh is written to cairn's file, leaving pi's alone.
func TestCairnsLoginsWinAndRefreshInPlace(t *testing.T) {
	own, pi := t.TempDir(), t.TempDir()
	piAuth := `{"anthropic": {"type": "oauth", "access": "sk-ant-oat01-pi", "refresh": "r-pi", "expires": 1}}`
	if err := os.WriteFile(pihome.AuthFile(pi), []byte(piAuth), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pihome.AuthFile(own), []byte(`{"anthropic": {"type": "oauth", "access": "sk-ant-oat01-own", "refresh": "r-own", "expires": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f := oauthtest.New(t)
	c, err := Load(Options{Dir: own, PiDir: pi, Getenv: env(nil), OAuth: &oauth.Client{Origin: f.URL}})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := c.Find("anthropic", "claude-opus-4-6")
	cr, err := c.Credentials(m)
	if err != nil || cr.APIKey != "new-access" || !strings.Contains(cr.Source, "cairn's auth.json") {
		t.Fatalf("credentials %q from %q: %v", cr.APIKey, cr.Source, err)
	}
	if reqs := f.Requests(); len(reqs) != 1 || !strings.Contains(reqs[0].Body, `"refresh_token":"r-own"`) {
		t.Errorf("refresh requests %+v", reqs)
	}
	if data, _ := os.ReadFile(pihome.AuthFile(pi)); string(data) != piAuth {
		t.Errorf("pi's auth.json was changed: %s", data)
	}
	if data, _ := os.ReadFile(pihome.AuthFile(own)); !strings.Contains(string(data), `"access": "new-access"`) {
		t.Errorf("cairn's auth.json: %s", data)
	}
}
