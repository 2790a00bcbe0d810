package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func TestSendJSON(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSEBody("data: {}\n\n"))
	req := &provider.Request{APIKey: testKey, Headers: map[string]string{"X-Custom": "request"}}
	req.Model.Headers = map[string]string{"X-Custom": "model", "X-Api-Name": "model"}
	apiHeaders := func(h http.Header, key string) {
		h.Set("X-Api-Name", "api")
		provider.BearerAuth(h, key)
	}
	resp, err := provider.SendJSON(context.Background(), provider.Options{}, req, provider.JSONRequest{
		Provider: "test", URL: srv.URL + "/v1/stream", Body: map[string]string{"prompt": "a <b> & c"}, APIHeaders: apiHeaders,
	})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := srv.Requests()[0]
	if string(got.Body) != `{"prompt":"a <b> & c"}` {
		t.Errorf("body = %s, want compact JSON without HTML escapes", got.Body)
	}
	for name, want := range map[string]string{
		"Content-Type":  "application/json",
		"Accept":        "text/event-stream",
		"Authorization": "Bearer " + testKey,
		"X-Api-Name":    "model", // the model's headers replace the API's
		"X-Custom":      "request",
	} {
		if v := got.Header.Get(name); v != want {
			t.Errorf("%s = %q, want %q", name, v, want)
		}
	}
}

func TestSendJSONUnencodableBody(t *testing.T) {
	srv := providertest.NewServer(t)
	_, err := provider.SendJSON(context.Background(), provider.Options{}, &provider.Request{}, provider.JSONRequest{
		Provider: "test", URL: srv.URL, Body: json.RawMessage(`{"type":`),
	})
	if err == nil || !strings.Contains(err.Error(), "test: build request") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestStreamJSON(t *testing.T) {
	srv := providertest.NewServer(t,
		providertest.Response{Status: http.StatusBadRequest, Body: []byte("no")},
		providertest.SSEBody("data: hi\n\n"),
	)
	req := &provider.Request{Model: core.Model{ID: "m", Provider: "test"}}
	r := provider.JSONRequest{Provider: "test", URL: srv.URL, Body: map[string]string{}}
	read := func(b *provider.Builder, body io.Reader) (*core.AssistantMessage, error) {
		data, err := io.ReadAll(body)
		if err != nil {
			return provider.Fail(context.Background(), b, err)
		}
		b.Start()
		i := b.BeginText()
		b.Append(i, string(data))
		b.End(i)
		return b.Finish(core.StopEnd), nil
	}

	msg, err := provider.StreamJSON(context.Background(), provider.Options{}, req, nil, r, read)
	if err == nil || msg == nil || msg.StopReason != core.StopError || msg.Model != "m" {
		t.Fatalf("refused request: msg = %+v, err = %v; want a failed message and the error", msg, err)
	}
	msg, err = provider.StreamJSON(context.Background(), provider.Options{}, req, nil, r, read)
	if err != nil || msg.StopReason != core.StopEnd || msg.Text() != "data: hi\n\n" {
		t.Fatalf("answer: msg = %+v, err = %v; want the body read into the message", msg, err)
	}
}

func TestBearerAuthWithoutKey(t *testing.T) {
	h := http.Header{}
	provider.BearerAuth(h, "")
	if _, ok := h["Authorization"]; ok {
		t.Error("Authorization set without a key")
	}
}

func TestOutputLimit(t *testing.T) {
	for _, tc := range []struct{ request, model, want int }{
		{request: 500, model: 8000, want: 500},
		{request: 0, model: 8000, want: 8000},
		{request: -1, model: 8000, want: 8000},
		{request: 0, model: 0, want: 0},
	} {
		req := &provider.Request{MaxTokens: tc.request}
		req.Model.MaxTokens = tc.model
		if got := req.OutputLimit(); got != tc.want {
			t.Errorf("OutputLimit(request %d, model %d) = %d, want %d", tc.request, tc.model, got, tc.want)
		}
	}
}

func TestToolParameters(t *testing.T) {
	const empty = `{"type":"object","properties":{}}`
	for params, want := range map[string]string{
		"":                  empty,
		"null":              empty,
		" \n":               empty,
		`{"type":`:          empty,
		`{"type":"object"}`: `{"type":"object"}`,
	} {
		if got := string(provider.ToolParameters(core.ToolSpec{Parameters: json.RawMessage(params)})); got != want {
			t.Errorf("ToolParameters(%q) = %s, want %s", params, got, want)
		}
	}
}

func TestBaseURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "https://fallback/v1"},
		{"  ", "https://fallback/v1"},
		{"/", "https://fallback/v1"},
		{"http://localhost:11434/v1", "http://localhost:11434/v1"},
		{" http://localhost:11434/v1// ", "http://localhost:11434/v1"},
	} {
		if got := provider.BaseURL(tc.in, "https://fallback/v1"); got != tc.want {
			t.Errorf("BaseURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A server that echoes a configured header (models.json may hold a
// credential in any header) or the key in its error has them taken out of
// everything the error reaches: the message, the returned error and the
// error event; the error stays typed.
func TestStreamJSONRedactsKeyAndHeaders(t *testing.T) {
	const (
		modelHeader   = "gw-model-secret-42"
		requestToken  = "req-token-0123456789"
		requestHeader = "Bearer " + requestToken
	)
	echo := func(r providertest.Request) string {
		return fmt.Sprintf("bad credentials: %s / %s / %s", r.Header.Get("X-Gateway"), r.Header.Get("Authorization"), testKey)
	}
	srv := providertest.NewServer(t,
		providertest.Response{Status: http.StatusUnauthorized, Body: errBody("authentication_error", "bad credentials: "+modelHeader+" / "+requestHeader+" / "+testKey)},
		providertest.SSEBody("data: hi\n\n"),
	)
	req := &provider.Request{Model: core.Model{ID: "m", Provider: "test", Headers: map[string]string{"X-Gateway": modelHeader}},
		APIKey: testKey, Headers: map[string]string{"Authorization": requestHeader}}
	r := provider.JSONRequest{Provider: "test", URL: srv.URL, Body: map[string]string{}, Decode: decodeTestErr}
	var events []string
	emit := func(e provider.Event) {
		if e.Type == provider.EventError {
			events = append(events, e.Message.ErrorMessage)
		}
	}
	check := func(what string, msg *core.AssistantMessage, err error) {
		t.Helper()
		texts := append([]string{msg.ErrorMessage, err.Error()}, events...)
		for _, s := range texts {
			for _, secret := range []string{modelHeader, requestToken, testKey} {
				if strings.Contains(s, secret) {
					t.Errorf("%s: %q shows %q", what, s, secret)
				}
			}
		}
		if !strings.Contains(msg.ErrorMessage, "[redacted]") {
			t.Errorf("%s: message %q", what, msg.ErrorMessage)
		}
		events = nil
	}

	msg, err := provider.StreamJSON(context.Background(), provider.Options{}, req, emit, r, nil)
	if pe := asProviderError(t, err); pe.Status != http.StatusUnauthorized {
		t.Errorf("error %+v lost its status", pe)
	}
	check("refused request", msg, err)

	// An error inside the stream, worded by the server, is redacted too.
	got := srv.Requests()[0]
	msg, err = provider.StreamJSON(context.Background(), provider.Options{}, req, emit, r, func(b *provider.Builder, body io.Reader) (*core.AssistantMessage, error) {
		return provider.Fail(context.Background(), b, &provider.Error{Provider: "test", Message: echo(got), Retryable: true})
	})
	if pe := asProviderError(t, err); !pe.Retryable {
		t.Errorf("error %+v is no longer retryable", pe)
	}
	check("error event", msg, err)
}

// A base URL's credentials (a token as the user name, a ?key=) are
// secrets too: net/http quotes the URL in its errors, starring only a
// password.
func TestStreamJSONRedactsBaseURLCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // no answer at all: the client's error quotes the URL
		}
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "://", "://tok-user-0123456789@", 1) + "/v1?key=AIzaSECRET123"
	req := &provider.Request{Model: core.Model{ID: "m", Provider: "test", BaseURL: u}}
	msg, err := provider.StreamJSON(context.Background(), provider.Options{}, req, nil, provider.JSONRequest{Provider: "test", URL: u, Body: map[string]string{}}, nil)
	if err == nil {
		t.Fatal("a dropped connection succeeded")
	}
	for _, s := range []string{err.Error(), msg.ErrorMessage} {
		if strings.Contains(s, "tok-user-0123456789") || strings.Contains(s, "AIzaSECRET123") {
			t.Errorf("error shows the URL's credentials: %s", s)
		}
	}
}
