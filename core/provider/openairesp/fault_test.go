package openairesp

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// textPrefix is text.0.sse cut after the first text delta ("Oi").
func textPrefix(t *testing.T) []byte {
	t.Helper()
	full := providertest.Fixture(t, fixtureDir+"/text.0.sse")
	i := bytes.Index(full, []byte(`"delta":"!"`))
	if i < 0 {
		t.Fatal("fixture changed")
	}
	i = bytes.LastIndex(full[:i], []byte("event: "))
	return full[:i]
}

func streamFrom(t *testing.T, opts provider.Options, responses ...providertest.Response) (*providertest.Server, *core.AssistantMessage, error) {
	t.Helper()
	srv := providertest.NewServer(t, responses...)
	req := &provider.Request{Model: testModel(srv.URL + "/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
	msg, err := New(opts).Stream(context.Background(), req, nil)
	if msg == nil {
		t.Fatal("nil message")
	}
	return srv, msg, err
}

func TestDroppedConnectionKeepsText(t *testing.T) {
	srv, msg, err := streamFrom(t, provider.Options{}, providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: textPrefix(t), Drop: true})
	if msg.StopReason != core.StopError || !provider.IsRetryable(err) {
		t.Fatalf("stop %q err %v", msg.StopReason, err)
	}
	if msg.Text() != "Oi" {
		t.Errorf("text so far = %q, want %q", msg.Text(), "Oi")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; a stream that started must not be retried here", n)
	}
}

func TestCleanEOFWithoutCompletionIsRetryableError(t *testing.T) {
	_, msg, err := streamFrom(t, provider.Options{}, providertest.SSEBody(string(textPrefix(t))))
	if msg.StopReason != core.StopError || !provider.IsRetryable(err) || !strings.Contains(err.Error(), errIncomplete) {
		t.Fatalf("stop %q err %v", msg.StopReason, err)
	}
	if msg.Text() != "Oi" || msg.ErrorMessage == "" {
		t.Errorf("text %q error message %q", msg.Text(), msg.ErrorMessage)
	}
}

func TestMalformedEventIsAnError(t *testing.T) {
	for name, body := range map[string]string{
		"named":      sse("response.output_item.added", `{"output_index":0,"item":{"type":"message","id":"m"}}`) + sse("response.output_text.delta", `{"output_index":0,"delta":`),
		"unnamed":    "data: {\"type\":\n\n",
		"bad item":   sse("response.output_item.added", `{"output_index":0,"item":[1,2]}`),
		"bad usage":  sse("response.completed", `{"response":{"usage":{"input_tokens":"many"}}}`),
		"not json":   sse("error", `<html>`),
		"wrong type": sse("response.output_text.delta", `{"output_index":"zero","delta":"x"}`),
	} {
		t.Run(name, func(t *testing.T) {
			_, msg, err := streamFrom(t, provider.Options{}, providertest.SSEBody(body))
			if err == nil || msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "malformed") {
				t.Fatalf("stop %q err %v", msg.StopReason, err)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	rec := &sleepRecorder{}
	limited := providertest.JSON(t, "openai-chat/error_429_rate_limit.json", 429)
	limited.Header.Set("Retry-After", "3")
	srv, msg, err := streamFrom(t, rec.options(), limited, providertest.SSE(t, fixtureDir+"/text.0.sse"))
	if err != nil || msg.Text() != "Oi!" {
		t.Fatalf("err %v text %q", err, msg.Text())
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if len(rec.waits) != 1 || rec.waits[0] != 3*time.Second {
		t.Errorf("waits %v, want [3s]", rec.waits)
	}
}

func TestServerErrorIsRetried(t *testing.T) {
	rec := &sleepRecorder{}
	failing := providertest.Response{Status: 500, Body: []byte(`{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)}
	srv, msg, err := streamFrom(t, rec.options(), failing, providertest.SSE(t, fixtureDir+"/text.0.sse"))
	if err != nil || msg.StopReason != core.StopEnd {
		t.Fatalf("err %v stop %q", err, msg.StopReason)
	}
	if n := len(srv.Requests()); n != 2 || len(rec.waits) != 1 {
		t.Errorf("%d requests, waits %v", n, rec.waits)
	}
}

func TestBadRequestIsNotRetried(t *testing.T) {
	rec := &sleepRecorder{}
	bad := providertest.Response{Status: 400, Body: []byte(`{"error":{"message":"Invalid 'input[0].content': string too long.","type":"invalid_request_error","param":"input[0].content","code":"string_above_max_length"}}`)}
	srv, msg, err := streamFrom(t, rec.options(), bad)
	var perr *provider.Error
	if !errors.As(err, &perr) {
		t.Fatalf("err %v", err)
	}
	if perr.Status != 400 || perr.Code != "string_above_max_length" || perr.Retryable || !strings.Contains(perr.Message, "string too long") {
		t.Errorf("error %+v", perr)
	}
	if n := len(srv.Requests()); n != 1 || len(rec.waits) != 0 {
		t.Errorf("%d requests, waits %v", n, rec.waits)
	}
	if msg.StopReason != core.StopError || msg.ErrorMessage != err.Error() {
		t.Errorf("stop %q message %q", msg.StopReason, msg.ErrorMessage)
	}
}

func TestCancelWhileWaitingForFirstByte(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Response{Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-srv.Arrived:
			cancel()
		case <-ctx.Done():
		}
	}()
	req := &provider.Request{Model: testModel(srv.URL + "/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
	start := time.Now()
	msg, err := New(provider.Options{}).Stream(ctx, req, nil)
	if msg.StopReason != core.StopAborted || err == nil {
		t.Fatalf("stop %q err %v", msg.StopReason, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to abort", d)
	}
}

func TestCancelMidStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := providertest.NewServer(t, providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: textPrefix(t), Hang: false, Drop: false})
	req := &provider.Request{Model: testModel(srv.URL + "/v1"), APIKey: testKey, Messages: []core.Message{userText("hi")}}
	emit := func(e provider.Event) {
		if e.Type == provider.EventTextDelta {
			cancel()
		}
	}
	msg, err := New(provider.Options{}).Stream(ctx, req, emit)
	if msg.StopReason != core.StopAborted || err == nil {
		t.Fatalf("stop %q err %v", msg.StopReason, err)
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	echo := `Incorrect API key provided: ` + testKey + `. You can find your API key at https://platform.openai.com/account/api-keys.`
	cases := map[string]providertest.Response{
		"http 401":       {Status: 401, Body: []byte(`{"error":{"message":"` + echo + `","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`)},
		"http text":      {Status: 403, Body: []byte(echo)},
		"error event":    providertest.SSEBody(sse("error", `{"type":"error","code":"invalid_api_key","message":"`+echo+`"}`)),
		"failed event":   providertest.SSEBody(sse("response.failed", `{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"`+echo+`"}}}`)),
		"incomplete why": providertest.SSEBody(sse("response.failed", `{"type":"response.failed","response":{"status":"failed","incomplete_details":{"reason":"`+echo+`"}}}`)),
	}
	for name, resp := range cases {
		t.Run(name, func(t *testing.T) {
			_, msg, err := streamFrom(t, provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}}, resp)
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range []string{err.Error(), msg.ErrorMessage, toJSON(t, msg)} {
				if strings.Contains(s, testKey) {
					t.Errorf("API key leaked: %s", s)
				}
			}
			if !strings.Contains(err.Error(), "Incorrect API key provided") {
				t.Errorf("server's explanation lost: %v", err)
			}
		})
	}
	t.Run("401 hint", func(t *testing.T) {
		_, _, err := streamFrom(t, provider.Options{}, cases["http 401"])
		var perr *provider.Error
		if !errors.As(err, &perr) || perr.Retryable || perr.Code != "invalid_api_key" || !strings.Contains(perr.Hint, "OPENAI_API_KEY") {
			t.Errorf("error %+v", perr)
		}
	})
}

func TestErrorDecoder(t *testing.T) {
	decode := errorDecoder("openai")
	cases := []struct {
		status    int
		body      string
		code      string
		retryable bool
	}{
		{429, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`, "insufficient_quota", false},
		{429, string(providertest.Fixture(t, "openai-chat/error_429_rate_limit.json")), "rate_limit_exceeded", true},
		{500, `{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`, "server_error", true},
		{400, `{"error":{"message":"bad","type":"invalid_request_error","param":null,"code":null}}`, "invalid_request_error", false},
		{400, `{"error":{"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}}`, "context_length_exceeded", false},
		{502, `<html>Bad gateway</html>`, "", false},
	}
	for _, c := range cases {
		e := decode(c.status, http.Header{}, []byte(c.body))
		if e.Code != c.code || e.Retryable != c.retryable || e.Message == "" {
			t.Errorf("%d %s: got code %q retryable %v message %q", c.status, c.body, e.Code, e.Retryable, e.Message)
		}
	}
}
