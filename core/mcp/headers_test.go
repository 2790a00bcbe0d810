package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The configured headers (often a secret from ${VAR}) go to the server's
// own host only, never to another host a redirect names.
func TestHeadersStayWithTheServersHost(t *testing.T) {
	got := make(chan string, 2)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- "other:" + r.Header.Get("Authorization")
	}))
	defer other.Close()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- "server:" + r.Header.Get("Authorization")
		// localhost is another host than 127.0.0.1, as far as URLs go.
		http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1), http.StatusTemporaryRedirect)
	}))
	defer server.Close()
	resp, err := httpClient(server.URL, map[string]string{"Authorization": "Bearer SECRET"}).Get(server.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if a, b := <-got, <-got; a != "server:Bearer SECRET" || b != "other:" {
		t.Errorf("server saw %q, the redirect's host saw %q", a, b)
	}
}
