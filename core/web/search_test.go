package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// braveFake answers as the Brave Search API does (GET /res/v1/web/search,
// X-Subscription-Token, {"web":{"results":[...]}}), checking the key.
func braveFake(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/res/v1/web/search" || r.Header.Get("X-Subscription-Token") != "k-123" || r.Header.Get("Cookie") != "" {
			http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		if r.URL.Query().Get("q") != "go lsp" || r.URL.Query().Get("count") != "2" {
			http.Error(w, "bad query "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":"search","query":{"original":"go lsp"},"web":{"type":"search","results":[
			{"title":"gopls","url":"https://go.dev/gopls","description":"The Go language server.","language":"en"},
			{"title":"LSP","url":"https://microsoft.github.io/language-server-protocol/","description":"The protocol."},
			{"title":"extra","url":"https://example.org/","description":"cut by count"}]}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func searchCall(query string, count int) core.ToolCall {
	args, _ := json.Marshal(map[string]any{"query": query, "count": count})
	return core.ToolCall{ID: "s", Name: "web_search", Arguments: args}
}

func TestWebSearchBraveFormat(t *testing.T) {
	srv := braveFake(t)
	s := &Search{Endpoint: srv.URL + "/res/v1/web/search", Getenv: func(k string) string { return map[string]string{"BRAVE_API_KEY": "k-123"}[k] }}
	r, _ := s.Execute(context.Background(), searchCall("go lsp", 2), nil)
	got := text(r)
	if r.IsError || !strings.Contains(got, "1. gopls\n   https://go.dev/gopls\n   The Go language server.") || strings.Contains(got, "extra") {
		t.Fatalf("%v %q", r.IsError, got)
	}
	s.Getenv = func(string) string { return "" }
	if r, _ := s.Execute(context.Background(), searchCall("go lsp", 2), nil); !r.IsError || !strings.Contains(text(r), "set BRAVE_API_KEY") {
		t.Fatalf("without a key: %q", text(r))
	}
	s.Getenv = func(string) string { return "wrong" }
	if r, _ := s.Execute(context.Background(), searchCall("go lsp", 2), nil); !r.IsError || !strings.Contains(text(r), "401") {
		t.Fatalf("with a wrong key: %q", text(r))
	}
}
