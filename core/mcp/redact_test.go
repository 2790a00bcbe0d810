package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRedactURLs(t *testing.T) {
	for in, want := range map[string]string{
		`Post "http://127.0.0.1:1/s/SECRETPATH/mcp?api_key=SECRETKEY": dial tcp: refused`: `Post "http://127.0.0.1:1/…": dial tcp: refused`,
		`connect https://mcp.example.com/ failed`:                                         `connect https://mcp.example.com/ failed`,
		`no url here`:                                            `no url here`,
		`two: http://a/x?k=1 and https://b:8/y`:                  `two: http://a/… and https://b:8/…`,
		`connect https://user:pw-secret@mcp.example.com/ failed`: `connect https://mcp.example.com/ failed`,
		`Post "http://tok-secret@h:1/mcp?x=1": refused`:          `Post "http://h:1/…": refused`,
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

// A server that echoes its configured headers (a token from ${VAR}) in an
// error, a failed tool result or a refused connection never gets them shown:
// DialSDK's connection is the one way errors come from a server.
func TestDialSDKRedactsEchoedHeaders(t *testing.T) {
	const token, apiKey = "tok-SECRET-0123456789", "key-SECRET-9876543210"
	headers := map[string]string{"Authorization": "Bearer " + token, "X-Api-Key": apiKey}
	echo := func(h http.Header) string {
		return "you sent " + h.Get("Authorization") + " and " + h.Get("X-Api-Key")
	}
	server := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1"}, nil)
	server.AddTool(&sdk.Tool{Name: "result", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: echo(req.Extra.Header)}}}, nil
	})
	server.AddTool(&sdk.Tool{Name: "fail", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: -32000, Message: echo(req.Extra.Header)}
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer srv.Close()
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, echo(r.Header), http.StatusUnauthorized)
	}))
	defer refusing.Close()

	shows := func(s string) bool { return strings.Contains(s, token) || strings.Contains(s, apiKey) }
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := DialSDK(ctx, Server{Name: "echo", Transport: TransportHTTP, URL: srv.URL, Headers: headers}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	res, err := conn.CallTool(ctx, "result", nil, nil)
	if err != nil || !res.IsError || len(res.Content) != 1 {
		t.Fatalf("result: %+v, %v", res, err)
	}
	if text := res.Content[0].Text; shows(text) || !strings.Contains(text, "you sent [redacted] and [redacted]") {
		t.Errorf("failed tool result %q", text)
	}

	_, err = conn.CallTool(ctx, "fail", nil, nil)
	if err == nil || shows(err.Error()) || !strings.Contains(err.Error(), "you sent [redacted] and [redacted]") {
		t.Errorf("tool error %v", err)
	}

	_, err = DialSDK(ctx, Server{Name: "refusing", Transport: TransportHTTP, URL: refusing.URL, Headers: headers}, io.Discard)
	if err == nil || shows(err.Error()) {
		t.Errorf("refused connection: %v", err)
	}
}

// Lists and messages name an HTTP server by its URL: without its
// credentials.
func TestCommandLineHidesURLCredentials(t *testing.T) {
	s := Server{Transport: TransportHTTP, URL: "https://bob:pw-secret-123@mcp.example.com/mcp?api_key=SECRET123&v=2"}
	if got, want := s.CommandLine(), "https://mcp.example.com/mcp?api_key=[redacted]&v=2"; got != want {
		t.Errorf("CommandLine() = %q, want %q", got, want)
	}
}
