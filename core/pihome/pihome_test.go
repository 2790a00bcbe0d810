package pihome

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestDirAndSessionsFollowPi(t *testing.T) {
	for _, c := range []struct {
		vars          map[string]string
		setting       string
		dir, sessions string
		flat          bool
	}{
		{map[string]string{"HOME": "/h"}, "", "/h/.pi/agent", "/h/.pi/agent/sessions", false},
		{map[string]string{"HOME": "/h", EnvDir: "~/pi"}, "", "/h/pi", "/h/pi/sessions", false},
		{map[string]string{"HOME": "/h", EnvDir: "/x"}, "~/s", "/x", "/h/s", true},
		{map[string]string{"HOME": "/h", EnvSessionDir: "/ss"}, "/ignored", "/h/.pi/agent", "/ss", true},
		{map[string]string{}, "", "", "", false},
	} {
		dir := Dir(env(c.vars))
		root, flat := SessionsRoot(env(c.vars), dir, c.setting)
		if dir != c.dir || root != c.sessions || flat != c.flat {
			t.Errorf("%v, sessionDir %q: dir %q, sessions %q flat %v; want %q, %q %v", c.vars, c.setting, dir, root, flat, c.dir, c.sessions, c.flat)
		}
	}
}

func TestReadAuthAsPi(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "auth.json"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if a, err := ReadAuth(dir); err != nil || a != nil {
		t.Fatalf("no file: %v, %v", a, err)
	}
	write("\ufeff" + `{"openai": {"type": "api_key", "key": "$K", "env": {"K": "v"}},
	  "anthropic": {"type": "oauth", "access": "sk-ant-oat01-x", "refresh": "r", "expires": 2000}}`)
	a, err := ReadAuth(dir)
	if err != nil || a["openai"].Key != "$K" || a["openai"].Env["K"] != "v" || a["anthropic"].Access != "sk-ant-oat01-x" {
		t.Fatalf("auth = %+v, %v", a, err)
	}
	if a["anthropic"].NeedsRefresh(time.UnixMilli(1999).Add(-RefreshMargin)) || !a["anthropic"].NeedsRefresh(time.UnixMilli(2000).Add(-RefreshMargin)) {
		t.Error("an OAuth token is usable until, not at, its expiry")
	}
	for _, bad := range []string{`[]`, `{"x": 1}`, `{"x": {"type": "oauth", "access": "a"}}`, `{"x": {"type": "magic"}}`, `{`} {
		write(bad)
		if _, err := ReadAuth(dir); err == nil {
			t.Errorf("%s was accepted; pi refuses it", bad)
		}
	}
}

func FuzzParseAuth(f *testing.F) {
	f.Add([]byte(`{"a": {"type": "api_key", "key": "k"}}`))
	f.Add([]byte(`{"a": {"type": "oauth", "access": "x", "refresh": "y", "expires": 1}}`))
	f.Add([]byte(`{"a": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		creds, err := parseAuth("auth.json", data)
		if err != nil {
			return
		}
		for name, c := range creds {
			if c.Type != "api_key" && c.Type != "oauth" {
				t.Fatalf("%s: accepted type %q", name, c.Type)
			}
		}
	})
}
