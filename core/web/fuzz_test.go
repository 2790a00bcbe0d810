package web

import (
	"net/url"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/approval"
)

// FuzzURLHost: the host a rule names is the URL's own host, lower-cased,
// and only for http(s) URLs; nothing panics.
func FuzzURLHost(f *testing.F) {
	for _, s := range []string{"https://Docs.Example.org/a", "http://127.0.0.1:8080/x", "file:///etc", "https://user:pw@h/", "http://[::1]:1/", "%zz", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		h := approval.URLHost(raw)
		if h == "" {
			return
		}
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || h != strings.ToLower(u.Host) || strings.ContainsAny(h, "/@") {
			t.Fatalf("URLHost(%q) = %q", raw, h)
		}
	})
}

// FuzzContentKind: a body with a NUL byte early is always binary;
// nothing panics.
func FuzzContentKind(f *testing.F) {
	for _, s := range []string{"text/html; charset=utf-8", "application/pdf", "", "text/plain;;", "application/ld+json"} {
		f.Add(s, []byte("<html>hi</html>"))
		f.Add(s, []byte{0, 1, 2})
	}
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		_, binary := contentKind(header, body)
		if strings.IndexByte(string(body[:min(len(body), 8<<10)]), 0) >= 0 && !binary {
			t.Fatalf("NUL in %q read as text", body)
		}
	})
}
