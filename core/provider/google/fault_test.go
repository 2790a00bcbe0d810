package google

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

func asProviderError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	return pe
}

// checkNoKey fails if the key shows up in anything a person or a log sees.
func checkNoKey(t *testing.T, msg *core.AssistantMessage, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), testKey) {
		t.Errorf("error text contains the API key: %v", err)
	}
	if msg != nil && strings.Contains(msg.ErrorMessage, testKey) {
		t.Errorf("message error contains the API key: %s", msg.ErrorMessage)
	}
}

func jsonResponse(status int, body string, header ...string) providertest.Response {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return providertest.Response{Status: status, Header: h, Body: []byte(body)}
}

const okStream = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"ok\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 3,\"candidatesTokenCount\": 1}}\r\n\r\n"

func TestDroppedMidStream(t *testing.T) {
	// The first two chunks of a real answer, then the connection dies.
	full := string(providertest.Fixture(t, "gemini/text.0.sse"))
	chunks := strings.SplitAfter(full, "\r\n\r\n")
	partial := chunks[0] + chunks[1]
	srv := providertest.NewServer(t, providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: []byte(partial), Drop: true})
	msg, err, _ := run(t, srv, "gemini-3-pro-preview", []core.Message{userText("hi")}, nil, nil)
	if msg.StopReason != core.StopError {
		t.Fatalf("stop reason %s, want error", msg.StopReason)
	}
	if pe := asProviderError(t, err); !pe.Retryable {
		t.Errorf("dropped stream should be retryable: %v", pe)
	}
	if want := "\"Hi\" in Portuguese is **\"Oi\"** (pronounced like \"oy\"). \n\nYou can also use **\"Olá\"** (pronounced oh-LAH), which means \"Hello"; msg.Text() != want {
		t.Errorf("text so far %q, want %q", msg.Text(), want)
	}
	if msg.ErrorMessage == "" {
		t.Error("no error message on the failed message")
	}
}

func TestStreamEndsWithoutFinishReason(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSEBody("data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"half\"}]},\"index\": 0}]}\r\n\r\n"))
	msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
	if msg.StopReason != core.StopError || msg.Text() != "half" {
		t.Fatalf("stop %s text %q", msg.StopReason, msg.Text())
	}
	pe := asProviderError(t, err)
	if !pe.Retryable || !strings.Contains(pe.Message, "stream ended before the response was complete") {
		t.Errorf("error %v (retryable %v)", pe, pe.Retryable)
	}
}

func TestMalformedEvent(t *testing.T) {
	for name, body := range map[string]string{
		"bad json":     "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"a\"}]}}]}\r\n\r\ndata: {\"candidates\": [\r\n\r\n",
		"wrong type":   "data: {\"candidates\": {\"x\": 1}}\r\n\r\n",
		"not json":     "data: hello\n\n",
		"parts string": "data: {\"candidates\": [{\"content\": {\"parts\": \"x\"}}]}\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.SSEBody(body))
			msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
			if msg.StopReason != core.StopError || err == nil {
				t.Fatalf("stop %s err %v", msg.StopReason, err)
			}
			asProviderError(t, err)
		})
	}
}

func TestRetryAfterHeaderThenSuccess(t *testing.T) {
	var slept []time.Duration
	srv := providertest.NewServer(t,
		jsonResponse(429, `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`, "Retry-After", "7"),
		providertest.SSEBody(okStream))
	req := &provider.Request{Model: testModel(srv.URL, "gemini-2.5-flash"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	msg, err := New(testOptions(&slept)).Stream(context.Background(), req, nil)
	if err != nil || msg.Text() != "ok" {
		t.Fatalf("err %v text %q", err, msg.Text())
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if len(slept) != 1 || slept[0] != 7*time.Second {
		t.Errorf("slept %v, want [7s]", slept)
	}
}

// TestRetryInfoThenSuccess uses the recorded 429, whose only hint of when to
// come back is google.rpc.RetryInfo in the body.
func TestRetryInfoThenSuccess(t *testing.T) {
	var slept []time.Duration
	srv := providertest.NewServer(t, providertest.JSON(t, "gemini/error_429_retry_info.json", 429), providertest.SSEBody(okStream))
	req := &provider.Request{Model: testModel(srv.URL, "gemini-2.5-flash"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	msg, err := New(testOptions(&slept)).Stream(context.Background(), req, nil)
	if err != nil || msg.StopReason != core.StopEnd {
		t.Fatalf("err %v stop %s", err, msg.StopReason)
	}
	if len(slept) != 1 || slept[0] != 34400*time.Millisecond {
		t.Errorf("slept %v, want [34.4s]", slept)
	}
}

func TestErrorFixture(t *testing.T) {
	srv := providertest.NewServer(t, providertest.JSON(t, "gemini/error_429_retry_info.json", 429))
	req := &provider.Request{Model: testModel(srv.URL, "gemini-2.5-flash"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	opts := testOptions(nil)
	opts.Retry.MaxRetries = -1
	msg, err := New(opts).Stream(context.Background(), req, nil)
	pe := asProviderError(t, err)
	if pe.Status != 429 || pe.Code != "RESOURCE_EXHAUSTED" || !pe.Retryable || pe.RetryAfter != 34400*time.Millisecond {
		t.Errorf("error %+v", pe)
	}
	if pe.Message != "You exceeded your current quota, please check your plan." {
		t.Errorf("message %q", pe.Message)
	}
	if msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "exceeded your current quota") {
		t.Errorf("message stop %s error %q", msg.StopReason, msg.ErrorMessage)
	}
}

func TestServerErrorThenSuccess(t *testing.T) {
	var slept []time.Duration
	srv := providertest.NewServer(t,
		jsonResponse(500, `{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}`),
		providertest.SSEBody(okStream))
	req := &provider.Request{Model: testModel(srv.URL, "gemini-2.5-flash"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	msg, err := New(testOptions(&slept)).Stream(context.Background(), req, nil)
	if err != nil || msg.Text() != "ok" {
		t.Fatalf("err %v text %q", err, msg.Text())
	}
	if n := len(srv.Requests()); n != 2 || len(slept) != 1 {
		t.Errorf("%d requests, %d waits; want 2 and 1", n, len(slept))
	}
}

func TestBadRequestNotRetried(t *testing.T) {
	// Gemini answers a bad key with 400 and echoes nothing secret, but a
	// proxy might: the key must still not reach the error.
	body := `{"error":{"code":400,"message":"API key not valid (` + testKey + `). Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`
	srv := providertest.NewServer(t, jsonResponse(400, body))
	msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	pe := asProviderError(t, err)
	if pe.Retryable || pe.Status != 400 || pe.Code != "INVALID_ARGUMENT" {
		t.Errorf("error %+v", pe)
	}
	if !strings.Contains(pe.Hint, keyEnv) {
		t.Errorf("hint %q should point at %s", pe.Hint, keyEnv)
	}
	if msg.StopReason != core.StopError {
		t.Errorf("stop %s", msg.StopReason)
	}
	checkNoKey(t, msg, err)
}

func TestMidStreamErrorEnvelope(t *testing.T) {
	body := "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"so far\"}]},\"index\": 0}]}\r\n\r\n" +
		"data: {\"error\": {\"code\": 503, \"message\": \"The model is overloaded. key=" + testKey + "\", \"status\": \"UNAVAILABLE\"}}\r\n\r\n"
	srv := providertest.NewServer(t, providertest.SSEBody(body))
	msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
	pe := asProviderError(t, err)
	if !pe.Retryable || pe.Code != "UNAVAILABLE" || msg.StopReason != core.StopError || msg.Text() != "so far" {
		t.Errorf("error %+v stop %s text %q", pe, msg.StopReason, msg.Text())
	}
	checkNoKey(t, msg, err)
}

func TestFinishReasons(t *testing.T) {
	for _, tc := range []struct {
		reason    string
		stop      core.StopReason
		retryable bool
		says      string
	}{
		{"STOP", core.StopEnd, false, ""},
		{"MAX_TOKENS", core.StopLength, false, ""},
		{"SAFETY", core.StopError, false, "safety"},
		{"RECITATION", core.StopError, false, "reciting"},
		{"PROHIBITED_CONTENT", core.StopError, false, "prohibited"},
		{"MALFORMED_FUNCTION_CALL", core.StopError, true, "malformed tool call"},
		{"SOMETHING_NEW", core.StopError, false, "SOMETHING_NEW"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			body := "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"x\"}]},\"index\": 0}]}\r\n\r\n" +
				"data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"y\"}]},\"finishReason\": \"" + tc.reason + "\",\"index\": 0}]}\r\n\r\n"
			srv := providertest.NewServer(t, providertest.SSEBody(body))
			msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
			if msg.StopReason != tc.stop || msg.Text() != "xy" {
				t.Fatalf("stop %s text %q, want %s", msg.StopReason, msg.Text(), tc.stop)
			}
			if tc.stop != core.StopError {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			pe := asProviderError(t, err)
			if pe.Retryable != tc.retryable || !strings.Contains(pe.Error(), tc.says) {
				t.Errorf("error %q retryable %v", pe.Error(), pe.Retryable)
			}
		})
	}
}

func TestPromptBlocked(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"promptFeedback": {"blockReason": "SAFETY"},"usageMetadata": {"promptTokenCount": 8}}`,
			"google: Gemini refused the prompt (SAFETY). Rephrase the request"},
		{`{"promptFeedback": {"blockReason": "OTHER","blockReasonMessage": "key=` + testKey + `"}}`,
			"google: Gemini refused the prompt: key=[redacted] (OTHER). Rephrase the request"},
	} {
		srv := providertest.NewServer(t, providertest.SSEBody("data: "+tc.body+"\r\n\r\n"))
		msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
		pe := asProviderError(t, err)
		if msg.StopReason != core.StopError || pe.Retryable || !strings.HasPrefix(msg.ErrorMessage, tc.want) {
			t.Errorf("stop %s error %q, want it to start %q", msg.StopReason, msg.ErrorMessage, tc.want)
		}
		checkNoKey(t, msg, err)
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Response{Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-srv.Arrived:
			cancel()
		case <-time.After(5 * time.Second):
		}
	}()
	req := &provider.Request{Model: testModel(srv.URL, "gemini-2.5-flash"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	start := time.Now()
	msg, err := New(testOptions(nil)).Stream(ctx, req, nil)
	if msg.StopReason != core.StopAborted || err == nil {
		t.Fatalf("stop %s err %v", msg.StopReason, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("abort took %v", d)
	}
	checkNoKey(t, msg, err)
}

func TestCancelMidStream(t *testing.T) {
	// A body that never ends: the first chunk, then the server hangs until
	// the client goes away.
	first := "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"partial\"}]},\"index\": 0}]}\r\n\r\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(first))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	emit := func(e provider.Event) {
		if e.Type == provider.EventTextDelta {
			cancel()
		}
	}
	req := &provider.Request{Model: testModel(srv.URL, "gemini-2.5-flash"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	msg, err := New(testOptions(nil)).Stream(ctx, req, emit)
	if msg.StopReason != core.StopAborted || err == nil || msg.Text() != "partial" {
		t.Fatalf("stop %s err %v text %q", msg.StopReason, err, msg.Text())
	}
}

func TestUnknownPartsAndEventsSkipped(t *testing.T) {
	body := "event: ping\r\ndata: {}\r\n\r\n" +
		": comment\r\n\r\n" +
		"data: {\"candidates\": [{\"content\": {\"parts\": [{\"executableCode\": {\"code\": \"1+1\"}}, {\"inlineData\": {\"mimeType\": \"image/png\", \"data\": \"AA==\"}}, {\"text\": \"done\"}]},\"finishReason\": \"STOP\",\"index\": 0}, {\"content\": {\"parts\": [{\"text\": \"second candidate\"}]},\"index\": 1}],\"somethingNew\": 1}\r\n\r\n"
	srv := providertest.NewServer(t, providertest.SSEBody(body))
	msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
	if err != nil || msg.Text() != "done" || len(msg.Content) != 1 {
		t.Fatalf("err %v content %+v", err, msg.Content)
	}
}

// TestSignedParts covers where signatures land: a signed empty text part
// after a function call is kept as its own block, two differently signed
// text parts stay apart, and a function call id Gemini repeats is replaced.
func TestSignedParts(t *testing.T) {
	body := "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"plan\", \"thought\": true, \"thoughtSignature\": \"AAAA\"}, {\"text\": \" more\", \"thought\": true}]},\"index\": 0}]}\r\n\r\n" +
		"data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"one\", \"thoughtSignature\": \"BBBB\"}, {\"text\": \"two\", \"thoughtSignature\": \"CCCC\"}]},\"index\": 0}]}\r\n\r\n" +
		"data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"id\": \"c1\", \"name\": \"f\", \"args\": {}}, \"thoughtSignature\": \"DDDD\"}, {\"functionCall\": {\"id\": \"c1\", \"name\": \"f\"}}]},\"index\": 0}]}\r\n\r\n" +
		"data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\", \"thoughtSignature\": \"EEEE\"}]},\"finishReason\": \"STOP\",\"index\": 0}]}\r\n\r\n"
	srv := providertest.NewServer(t, providertest.SSEBody(body))
	msg, err, tr := run(t, srv, "gemini-3-pro-preview", []core.Message{userText("hi")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	providertest.Golden(t, "signed_parts", tr.Bytes(msg))
	c := msg.Content
	if len(c) != 6 {
		t.Fatalf("%d blocks: %+v", len(c), c)
	}
	if c[0].Thinking != "plan more" || c[0].ThinkingSignature != "AAAA" {
		t.Errorf("thinking %+v", c[0])
	}
	if c[1].Text != "one" || c[1].TextSignature != "BBBB" || c[2].Text != "two" || c[2].TextSignature != "CCCC" {
		t.Errorf("text blocks %+v %+v", c[1], c[2])
	}
	if c[3].ID != "c1" || c[3].ThoughtSignature != "DDDD" || c[4].ID == "c1" || c[4].ID == "" {
		t.Errorf("calls %+v %+v", c[3], c[4])
	}
	if c[5].Type != core.ContentText || c[5].Text != "" || c[5].TextSignature != "EEEE" {
		t.Errorf("trailing signature block %+v", c[5])
	}
	if msg.StopReason != core.StopToolUse {
		t.Errorf("stop %s", msg.StopReason)
	}
}

func TestCachedUsage(t *testing.T) {
	body := "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"hi\"}]},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 1000,\"cachedContentTokenCount\": 800,\"candidatesTokenCount\": 5,\"thoughtsTokenCount\": 20,\"totalTokenCount\": 1025}}\r\n\r\n"
	srv := providertest.NewServer(t, providertest.SSEBody(body))
	msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := msg.Usage
	if u.Input != 200 || u.CacheRead != 800 || u.Output != 25 || u.CacheWrite != 0 || u.TotalTokens != 1025 {
		t.Errorf("usage %+v", u)
	}
	if u.Cost.CacheRead == 0 || u.Cost.Total == 0 {
		t.Errorf("usage not priced: %+v", u.Cost)
	}
}

func TestUnencodableRequest(t *testing.T) {
	srv := providertest.NewServer(t)
	tools := []core.ToolSpec{{Name: "broken", Parameters: []byte(`{"type":`)}}
	msg, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, tools, nil)
	if msg.StopReason != core.StopError || err == nil || !strings.Contains(err.Error(), "build request") {
		t.Fatalf("stop %s err %v", msg.StopReason, err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
