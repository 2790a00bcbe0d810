package openai

import (
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

// textChunk is one content delta in OpenAI's shape.
func textChunk(s string) string {
	return `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":` + toJSON(s) + `},"finish_reason":null}]}` + "\n\n"
}

const (
	stopChunk = `data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	doneLine  = "data: [DONE]\n\n"
)

// stream runs one request against responses and returns the outcome.
func stream(t *testing.T, opts provider.Options, responses ...providertest.Response) (*core.AssistantMessage, error, *providertest.Server, *providertest.Transcript) {
	t.Helper()
	srv := providertest.NewServer(t, responses...)
	req := &provider.Request{Model: openAIModel(srv.URL + "/v1"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	var tr providertest.Transcript
	msg, err := New(opts).Stream(context.Background(), req, tr.Emit)
	if msg == nil {
		t.Fatal("Stream returned a nil message")
	}
	return msg, err, srv, &tr
}

func wantProviderError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var perr *provider.Error
	if !errors.As(err, &perr) {
		t.Fatalf("err = %v (%T), want *provider.Error", err, err)
	}
	return perr
}

func TestDroppedConnectionKeepsText(t *testing.T) {
	partial := textChunk("Hello") + textChunk(", wor")
	msg, err, _, tr := stream(t, provider.Options{}, providertest.Response{
		Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: []byte(partial), Drop: true,
	})
	perr := wantProviderError(t, err)
	if !perr.Retryable {
		t.Errorf("dropped stream not retryable: %v", perr)
	}
	if msg.StopReason != core.StopError || msg.Text() != "Hello, wor" || msg.ErrorMessage == "" {
		t.Errorf("message = %q stop=%s err=%q", msg.Text(), msg.StopReason, msg.ErrorMessage)
	}
	if types := tr.Types(); types[len(types)-1] != "error" {
		t.Errorf("last event = %s, want error", types[len(types)-1])
	}
}

// TestDropAfterFinish: losing only the usage chunk after finish_reason does
// not throw away a complete answer.
func TestDropAfterFinish(t *testing.T) {
	msg, err, _, _ := stream(t, provider.Options{}, providertest.Response{
		Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: []byte(textChunk("done") + stopChunk), Drop: true,
	})
	if err != nil || msg.StopReason != core.StopEnd || msg.Text() != "done" {
		t.Errorf("stop=%s text=%q err=%v", msg.StopReason, msg.Text(), err)
	}
}

func TestStreamWithoutEndIsRetryableError(t *testing.T) {
	// A proxy that closes the response cleanly but early.
	msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(textChunk("Hel")))
	perr := wantProviderError(t, err)
	if !perr.Retryable || !strings.Contains(perr.Message, "stream ended before the response was complete") {
		t.Errorf("error = %+v", perr)
	}
	if msg.StopReason != core.StopError || msg.Text() != "Hel" {
		t.Errorf("message = %q %s", msg.Text(), msg.StopReason)
	}
}

func TestEndings(t *testing.T) {
	cases := []struct {
		name string
		body string
		stop core.StopReason
		code string
	}{
		{"finish without [DONE]", textChunk("a") + stopChunk, core.StopEnd, ""},
		{"[DONE] without finish", textChunk("a") + doneLine, core.StopEnd, ""},
		{"length", textChunk("a") + `data: {"choices":[{"delta":{},"finish_reason":"length"}]}` + "\n\n" + doneLine, core.StopLength, ""},
		{"content filter", textChunk("a") + `data: {"choices":[{"delta":{},"finish_reason":"content_filter"}]}` + "\n\n" + doneLine, core.StopError, "content_filter"},
		{"unknown reason", textChunk("a") + `data: {"choices":[{"delta":{},"finish_reason":"weird"}]}` + "\n\n" + doneLine, core.StopError, "weird"},
		{"stop after tool calls", `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"ls","arguments":"{}"}}]}}]}` + "\n\n" + stopChunk, core.StopToolUse, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(tc.body))
			if msg.StopReason != tc.stop {
				t.Errorf("stop = %s, want %s (err %v)", msg.StopReason, tc.stop, err)
			}
			if tc.code == "" {
				if err != nil {
					t.Errorf("err = %v", err)
				}
				return
			}
			if perr := wantProviderError(t, err); perr.Code != tc.code || perr.Retryable {
				t.Errorf("error = %+v", perr)
			}
			if msg.Text() != "a" {
				t.Errorf("text = %q, want it kept", msg.Text())
			}
		})
	}
}

func TestMalformedEvent(t *testing.T) {
	for _, body := range []string{
		textChunk("ok") + "data: {not json\n\n" + stopChunk,
		"data: [1,2\n\n",
		`data: {"choices":{"delta":3}}` + "\n\n",
		`data: {"choices":[]} {"choices":[]}` + "\n\n",
		`data: {"choices":[]} x` + "\n\n" + stopChunk,
	} {
		msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(body))
		perr := wantProviderError(t, err)
		if perr.Retryable || !strings.Contains(perr.Message, "malformed") {
			t.Errorf("error = %+v", perr)
		}
		if msg.StopReason != core.StopError {
			t.Errorf("stop = %s", msg.StopReason)
		}
	}
}

func TestErrorsInsideTheStream(t *testing.T) {
	cases := []struct {
		name      string
		body      string
		code      string
		retryable bool
		message   string
	}{
		{"openai envelope", textChunk("a") + `data: {"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}` + "\n\n",
			"server_error", true, "The server had an error"},
		{"openrouter upstream", `data: {"id":"g","error":{"code":502,"message":"Provider returned error","metadata":{"raw":"upstream overloaded"}},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}` + "\n\n",
			"502", true, "Provider returned error\nupstream overloaded"},
		{"event: error", "event: error\ndata: {\"message\":\"bad things\",\"code\":\"invalid_request\"}\n\n",
			"invalid_request", false, "bad things"},
		{"bare string", `data: {"error":"model not found"}` + "\n\n", "", false, "model not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(tc.body))
			perr := wantProviderError(t, err)
			if perr.Code != tc.code || perr.Retryable != tc.retryable || perr.Message != tc.message || perr.Provider != "openai" {
				t.Errorf("error = %+v", perr)
			}
			if msg.StopReason != core.StopError || msg.ErrorMessage != err.Error() {
				t.Errorf("message stop=%s err=%q", msg.StopReason, msg.ErrorMessage)
			}
		})
	}
}

func TestRetryAfterThenSuccess(t *testing.T) {
	var sl noSleep
	limited := providertest.JSON(t, "openai-chat/error_429_rate_limit.json", 429)
	limited.Header.Set("Retry-After", "2")
	msg, err, srv, _ := stream(t, provider.Options{Retry: provider.RetryPolicy{MaxRetries: 2}, Sleep: sl.sleep}, limited, providertest.SSE(t, "openai-chat/text.0.sse"))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Text() != "Olá!" || len(srv.Requests()) != 2 {
		t.Errorf("text=%q requests=%d", msg.Text(), len(srv.Requests()))
	}
	if len(sl.waits) != 1 || sl.waits[0] != 2*time.Second {
		t.Errorf("waits = %v, want [2s]", sl.waits)
	}
}

func TestServerErrorThenSuccess(t *testing.T) {
	var sl noSleep
	failing := providertest.Response{Status: 500, Body: []byte(`{"error":{"message":"internal","type":"server_error"}}`)}
	msg, err, srv, _ := stream(t, provider.Options{Retry: provider.RetryPolicy{MaxRetries: 2}, Sleep: sl.sleep}, failing, providertest.SSE(t, "openai-chat/text.0.sse"))
	if err != nil || msg.StopReason != core.StopEnd {
		t.Fatalf("err=%v stop=%s", err, msg.StopReason)
	}
	if len(srv.Requests()) != 2 || len(sl.waits) != 1 {
		t.Errorf("requests=%d waits=%v", len(srv.Requests()), sl.waits)
	}
}

func TestBadRequestNotRetried(t *testing.T) {
	var sl noSleep
	bad := providertest.Response{Status: 400, Body: []byte(`{"error":{"message":"Invalid schema for function 'ls'","type":"invalid_request_error","param":"tools[0].function.parameters","code":"invalid_function_parameters"}}`)}
	msg, err, srv, _ := stream(t, provider.Options{Retry: provider.RetryPolicy{MaxRetries: 2}, Sleep: sl.sleep}, bad)
	perr := wantProviderError(t, err)
	if perr.Retryable || perr.Status != 400 || perr.Code != "invalid_function_parameters" || !strings.Contains(perr.Message, "Invalid schema") {
		t.Errorf("error = %+v", perr)
	}
	if len(srv.Requests()) != 1 || len(sl.waits) != 0 {
		t.Errorf("requests=%d waits=%v", len(srv.Requests()), sl.waits)
	}
	if msg.StopReason != core.StopError {
		t.Errorf("stop = %s", msg.StopReason)
	}
}

func TestErrorBodies(t *testing.T) {
	cases := []struct {
		body, code, message string
	}{
		{`{"error":"model \"llama9\" not found, try pulling it first"}`, "", `model "llama9" not found, try pulling it first`},
		{`[{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}]`, "400", "bad"},
		{`{"message":"Unauthorized"}`, "", "Unauthorized"},
		{`{"detail":"Not Found"}`, "", "Not Found"},
		{`<html>Bad Gateway</html>`, "", "<html>Bad Gateway</html>"},
		{``, "", "Bad Request"},
	}
	for _, tc := range cases {
		msg, err, _, _ := stream(t, provider.Options{}, providertest.Response{Status: 400, Body: []byte(tc.body)})
		perr := wantProviderError(t, err)
		if perr.Code != tc.code || perr.Message != tc.message {
			t.Errorf("body %s: code=%q message=%q", tc.body, perr.Code, perr.Message)
		}
		if msg.StopReason != core.StopError {
			t.Errorf("stop = %s", msg.StopReason)
		}
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Response{Hang: true})
	req := &provider.Request{Model: openAIModel(srv.URL + "/v1"), Messages: []core.Message{userText("hi")}, APIKey: testKey}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-srv.Arrived
		cancel()
	}()
	start := time.Now()
	msg, err := New(provider.Options{}).Stream(ctx, req, nil)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("cancel took %v", elapsed)
	}
	if msg.StopReason != core.StopAborted || err == nil {
		t.Errorf("stop=%s err=%v", msg.StopReason, err)
	}
}

func TestCancelMidStream(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSEBody(textChunk("a")+textChunk("b")+stopChunk))
	req := &provider.Request{Model: openAIModel(srv.URL + "/v1"), Messages: []core.Message{userText("hi")}}
	ctx, cancel := context.WithCancel(context.Background())
	msg, err := New(provider.Options{}).Stream(ctx, req, func(e provider.Event) {
		if e.Type == provider.EventTextDelta {
			cancel()
		}
	})
	cancel()
	if msg.StopReason != core.StopAborted || err == nil {
		t.Errorf("stop=%s err=%v", msg.StopReason, err)
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	echo := `{"error":{"message":"Incorrect API key provided: ` + testKey + `. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`
	cases := []providertest.Response{
		{Status: 401, Body: []byte(echo)},
		providertest.SSEBody(textChunk("x") + "data: " + echo + "\n\n"),
		providertest.SSEBody("event: error\ndata: key " + testKey + " rejected\n\n"),
	}
	for i, resp := range cases {
		msg, err, _, _ := stream(t, provider.Options{}, resp)
		if err == nil {
			t.Fatalf("case %d: no error", i)
		}
		for _, text := range []string{err.Error(), msg.ErrorMessage} {
			if strings.Contains(text, testKey) {
				t.Errorf("case %d: key leaked: %s", i, text)
			}
		}
	}
}

// TestNonStreamedAnswer: a server that ignores stream:true and sends one
// chat.completion object still yields the answer.
func TestNonStreamedAnswer(t *testing.T) {
	body := `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi there","tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{\"path\":\".\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":4}}}`
	resp := providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
	msg, err, _, _ := stream(t, provider.Options{}, resp)
	if err != nil {
		t.Fatal(err)
	}
	calls := msg.ToolCalls()
	if msg.Text() != "Hi there" || len(calls) != 1 || string(calls[0].Arguments) != `{"path":"."}` || msg.StopReason != core.StopToolUse {
		t.Errorf("message = %+v", msg)
	}
	if u := msg.Usage; u.Input != 6 || u.CacheRead != 4 || u.Output != 5 {
		t.Errorf("usage = %+v", u)
	}
}

// TestJSONBodies: a 200 answer that is one JSON value is read as such
// whatever its Content-Type says, and an event stream labelled as JSON is
// still streamed.
func TestJSONBodies(t *testing.T) {
	errBody := providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: []byte(`{"error":{"message":"upstream timeout","type":"timeout"}}`)}
	msg, err, _, _ := stream(t, provider.Options{}, errBody)
	if perr := wantProviderError(t, err); !perr.Retryable || perr.Message != "upstream timeout" || msg.StopReason != core.StopError {
		t.Errorf("error = %+v", perr)
	}
	mislabelled := providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: []byte(textChunk("ok") + stopChunk + doneLine)}
	msg, err, _, _ = stream(t, provider.Options{}, mislabelled)
	if err != nil || msg.Text() != "ok" {
		t.Errorf("text=%q err=%v", msg.Text(), err)
	}
	msg, err, _, _ = stream(t, provider.Options{}, providertest.SSEBody(""))
	if perr := wantProviderError(t, err); !perr.Retryable || msg.StopReason != core.StopError {
		t.Errorf("empty body: %+v", perr)
	}
}

func TestUsageVariants(t *testing.T) {
	cases := []struct {
		name  string
		chunk string
		want  core.Usage
	}{
		{"cached tokens", `{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":60}}}`,
			core.Usage{Input: 40, Output: 7, CacheRead: 60}},
		{"cache writes", `{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":10,"cache_write_tokens":30}}}`,
			core.Usage{Input: 60, Output: 7, CacheRead: 10, CacheWrite: 30}},
		{"deepseek", `{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":7,"prompt_cache_hit_tokens":80}}`,
			core.Usage{Input: 20, Output: 7, CacheRead: 80}},
		{"groq x_groq only", `{"choices":[{"delta":{},"finish_reason":"stop"}],"x_groq":{"usage":{"prompt_tokens":12,"completion_tokens":3}}}`,
			core.Usage{Input: 12, Output: 3}},
		{"moonshot choice usage", `{"choices":[{"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":9,"completion_tokens":2}}]}`,
			core.Usage{Input: 9, Output: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(textChunk("a")+stopChunk+"data: "+tc.chunk+"\n\n"+doneLine))
			if err != nil {
				t.Fatal(err)
			}
			u := msg.Usage
			if u.Input != tc.want.Input || u.Output != tc.want.Output || u.CacheRead != tc.want.CacheRead || u.CacheWrite != tc.want.CacheWrite {
				t.Errorf("usage = %+v, want %+v", u, tc.want)
			}
			if u.TotalTokens != tc.want.Input+tc.want.Output+tc.want.CacheRead+tc.want.CacheWrite {
				t.Errorf("total = %d", u.TotalTokens)
			}
		})
	}
}

func TestToolCallShapes(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		calls []string
		skip  string
	}{
		{"every call at index 0 with its own id",
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"ls","arguments":"{\"p\":"}}]}}]}` + "\n\n" +
				`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}` + "\n\n" +
				`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"cat","arguments":"{}"}}]}}]}` + "\n\n",
			[]string{`a:ls{"p":1}`, `b:cat{}`}, ""},
		{"no index, by id",
			`data: {"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"ls","arguments":"{\"p\""}}]}}]}` + "\n\n" +
				`data: {"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"arguments":":2}"}}]}}]}` + "\n\n",
			[]string{`a:ls{"p":2}`}, ""},
		{"interleaved parallel calls: every call stays open until the stream ends, so none loses a fragment",
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"{\"n\":"}},{"index":1,"id":"b","function":{"name":"y","arguments":"{\"n\":"}}]}}]}` + "\n\n" +
				`data: {"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"2}"}},{"index":0,"function":{"arguments":"1}"}}]}}]}` + "\n\n",
			[]string{`a:x{"n":1}`, `b:y{"n":2}`}, ""},
		{"invalid arguments become {}",
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"x","arguments":"{\"n\":"}}]}}]}` + "\n\n",
			[]string{`a:x{}`}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			body := tc.body + `data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" + doneLine
			msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(body))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range msg.ToolCalls() {
				got = append(got, c.ID+":"+c.Name+string(c.Arguments))
			}
			if strings.Join(got, " ") != strings.Join(tc.calls, " ") {
				t.Errorf("calls = %v, want %v", got, tc.calls)
			}
		})
	}
}

func TestReasoningFields(t *testing.T) {
	cases := []struct {
		name, delta, thinking, field string
	}{
		{"reasoning_content wins over reasoning", `{"reasoning_content":"a","reasoning":"a"}`, "a", "reasoning_content"},
		{"reasoning_text", `{"reasoning_text":"b"}`, "b", "reasoning_text"},
		{"details only", `{"reasoning_details":[{"type":"reasoning.text","text":"c"},{"type":"reasoning.summary","summary":"d"},{"type":"reasoning.encrypted","data":"zz"}]}`, "cd", "reasoning"},
		{"mistral content parts", `{"content":[{"type":"thinking","thinking":[]},{"type":"text","text":"hey"}]}`, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := `data: {"choices":[{"delta":` + tc.delta + `}]}` + "\n\n" + stopChunk
			msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.thinking == "" {
				if msg.Text() != "hey" {
					t.Errorf("text = %q", msg.Text())
				}
				return
			}
			if len(msg.Content) != 1 || msg.Content[0].Thinking != tc.thinking || msg.Content[0].ThinkingSignature != tc.field {
				t.Errorf("content = %+v", msg.Content)
			}
		})
	}
}

// TestEncryptedReasoningFollowsItsCall: OpenRouter's encrypted reasoning for
// a tool call is stored on that call, even when it arrives first.
func TestEncryptedReasoningFollowsItsCall(t *testing.T) {
	detail := `{"type":"reasoning.encrypted","id":"call_1","data":"ENC","format":"openai-responses-v1","index":0}`
	body := `data: {"choices":[{"delta":{"reasoning_details":[` + detail + `]}}]}` + "\n\n" +
		`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"ls","arguments":"{}"}}]}}]}` + "\n\n" +
		`data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n"
	msg, err, _, _ := stream(t, provider.Options{}, providertest.SSEBody(body))
	if err != nil {
		t.Fatal(err)
	}
	calls := msg.ToolCalls()
	if len(calls) != 1 || calls[0].ThoughtSignature != detail {
		t.Errorf("calls = %+v", calls)
	}
	for _, c := range msg.Content {
		if c.Type == core.ContentThinking {
			t.Errorf("encrypted reasoning shown as thinking: %+v", c)
		}
	}
}
