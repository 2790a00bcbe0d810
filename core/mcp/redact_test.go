package mcp

import (
	"errors"
	"strings"
	"testing"
)

func TestRedactURLs(t *testing.T) {
	for in, want := range map[string]string{
		`Post "http://127.0.0.1:1/s/SECRETPATH/mcp?api_key=SECRETKEY": dial tcp: refused`: `Post "http://127.0.0.1:1/…": dial tcp: refused`,
		`connect https://mcp.example.com/ failed`:                                         `connect https://mcp.example.com/ failed`,
		`no url here`:                           `no url here`,
		`two: http://a/x?k=1 and https://b:8/y`: `two: http://a/… and https://b:8/…`,
	} {
		if got := redactURLs(in); got != want {
			t.Errorf("redactURLs(%q) = %q, want %q", in, got, want)
		}
	}
	if s := modelError(errors.New(`Get "https://h/p?token=abc"`)); strings.Contains(s, "abc") {
		t.Errorf("modelError kept the secret: %s", s)
	}
}

// FuzzRedactURLs: what redactURLs returns never holds a URL's path or
// query, and text without "://" is left alone.
func FuzzRedactURLs(f *testing.F) {
	f.Add(`Post "http://127.0.0.1:1/s/SECRET?k=v": x`)
	f.Add("a://b/c d://e")
	f.Fuzz(func(t *testing.T, s string) {
		got := redactURLs(s)
		if !strings.Contains(s, "://") && got != s {
			t.Fatalf("changed text without a URL: %q -> %q", s, got)
		}
		for _, m := range urlPattern().FindAllStringSubmatch(got, -1) {
			if m[3] != "" && m[3] != "/" && m[3] != "/…" {
				t.Fatalf("kept %q in %q", m[3], got)
			}
		}
	})
}
