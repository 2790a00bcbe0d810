package anthropic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// partial returns the fixture cut just after its first n text deltas.
func partial(t *testing.T, rel string, n int) []byte {
	t.Helper()
	data := providertest.Fixture(t, rel)
	cut := 0
	for i := 0; i < n; i++ {
		j := bytes.Index(data[cut:], []byte(`"text_delta"`))
		if j < 0 {
			t.Fatalf("%s has fewer than %d text deltas", rel, n)
		}
		cut += j + 1
	}
	end := bytes.Index(data[cut:], []byte("\n\n"))
	return data[:cut+end+2]
}

func wantProviderError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var perr *provider.Error
	if !errors.As(err, &perr) {
		t.Fatalf("error = %v (%T), want a *provider.Error", err, err)
	}
	return perr
}

func TestDroppedConnection(t *testing.T) {
	body := partial(t, "anthropic/text.0.sse", 3)
	srv := providertest.NewServer(t, providertest.Response{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: body, Drop: true})
	msg, err, tr := stream(t, newProvider(srv, nil), testRequest(srv))
	if msg.StopReason != core.StopError || !provider.IsRetryable(err) {
		t.Fatalf("stop = %q, err = %v; want a retryable error", msg.StopReason, err)
	}
	if msg.Text() != `Olá! (That's "hi` {
		t.Errorf("text so far lost: %q", msg.Text())
	}
	if msg.ErrorMessage == "" {
		t.Error("no error message on the message")
	}
	if types := tr.Types(); types[len(types)-1] != "error" {
		t.Errorf("last event = %q, want error", types[len(types)-1])
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("a broken stream must not be retried here: %d requests", len(srv.Requests()))
	}
}

func TestEndsWithoutMessageStop(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSEBody(string(partial(t, "anthropic/text.0.sse", 2))))
	msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
	if msg.StopReason != core.StopError || !provider.IsRetryable(err) || !strings.Contains(err.Error(), "stream ended before the response was complete") {
		t.Fatalf("stop = %q, err = %v", msg.StopReason, err)
	}
	if msg.Text() != "Olá! (That" {
		t.Errorf("text = %q", msg.Text())
	}
}

func TestMalformedEvents(t *testing.T) {
	start := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":3}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n"
	cases := map[string]string{
		"truncated JSON":         "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_de\n\n",
		"not JSON":               "event: content_block_delta\ndata: <html>502 Bad Gateway</html>\n\n",
		"text of the wrong type": "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":42}}\n\n",
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.SSEBody(start+bad+"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"))
			msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
			perr := wantProviderError(t, err)
			if msg.StopReason != core.StopError || !strings.Contains(perr.Message, "malformed") {
				t.Errorf("stop = %q, err = %v", msg.StopReason, err)
			}
			if msg.Text() != "ok" {
				t.Errorf("text so far lost: %q", msg.Text())
			}
		})
	}
}

// TestUnknownShapesAreSkipped feeds event and block types this package
// does not know, including ones whose fields clash with known names.
func TestUnknownShapesAreSkipped(t *testing.T) {
	body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n" +
		"event: ping\ndata: {\"type\":\"ping\"}\n\n" +
		"data: \n\n" +
		"event: future_event\ndata: {\"type\":\"future_event\",\"delta\":{\"text\":[1,2]}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"web_search_tool_result\",\"content\":[{\"type\":\"x\"}],\"text\":{\"a\":1}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hidden\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"citations_delta\",\"citation\":{\"text\":{\"x\":1}}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"shown\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":7,\"delta\":{\"type\":\"text_delta\",\"text\":\"stray\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"pause_turn\"},\"usage\":{\"output_tokens\":9}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	srv := providertest.NewServer(t, providertest.SSEBody(body))
	msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Text() != "shown" || msg.StopReason != core.StopEnd {
		t.Errorf("content = %+v, stop = %q", msg.Content, msg.StopReason)
	}
	// message_delta's output count replaces message_start's; input stays.
	if msg.Usage.Input != 3 || msg.Usage.Output != 9 {
		t.Errorf("usage = %+v", msg.Usage)
	}
}

func TestStopReasons(t *testing.T) {
	cases := map[string]core.StopReason{
		"end_turn":      core.StopEnd,
		"stop_sequence": core.StopEnd,
		"pause_turn":    core.StopEnd,
		"max_tokens":    core.StopLength,
		"tool_use":      core.StopToolUse,
		"refusal":       core.StopError,
		"something_new": core.StopEnd,
	}
	for wire, want := range cases {
		t.Run(wire, func(t *testing.T) {
			body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n" +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + wire + "\"},\"usage\":{\"output_tokens\":2}}\n\n" +
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
			srv := providertest.NewServer(t, providertest.SSEBody(body))
			msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
			if msg.StopReason != want {
				t.Errorf("stop = %q, want %q", msg.StopReason, want)
			}
			if (err != nil) != (want == core.StopError) {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// TestToolInputAtStart covers servers that send a tool call's input whole
// in content_block_start instead of streaming it.
func TestToolInputAtStart(t *testing.T) {
	body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"bash\",\"input\":{\"command\": \"ls\"}}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":2}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	srv := providertest.NewServer(t, providertest.SSEBody(body))
	msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
	if err != nil {
		t.Fatal(err)
	}
	if calls := msg.ToolCalls(); len(calls) != 1 || string(calls[0].Arguments) != `{"command":"ls"}` {
		t.Errorf("tool calls = %+v", calls)
	}
}

func TestRedactedThinking(t *testing.T) {
	body := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy3va\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	srv := providertest.NewServer(t, providertest.SSEBody(body))
	msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
	if err != nil {
		t.Fatal(err)
	}
	th := msg.Content[0]
	if th.Type != core.ContentThinking || !th.Redacted || th.ThinkingSignature != "EmwKAhgBEgy3va" {
		t.Fatalf("block = %+v", th)
	}
	// Replayed to the same provider, it goes back as redacted_thinking.
	got := messagesJSON(t, testModel(""), &core.UserMessage{Content: []core.Content{core.TextBlock("q")}}, msg)
	if !strings.Contains(got, `{"data":"EmwKAhgBEgy3va","type":"redacted_thinking"}`) {
		t.Errorf("replay = %s", got)
	}
}

func TestRetryAfter429(t *testing.T) {
	limited := providertest.Response{
		Status: 429,
		Header: http.Header{"Retry-After": {"7"}, "Content-Type": {"application/json"}},
		Body:   []byte(`{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`),
	}
	srv := providertest.NewServer(t, limited, providertest.SSE(t, "anthropic/text.0.sse"))
	s := &sleeps{}
	msg, err, _ := stream(t, newProvider(srv, s), testRequest(srv))
	if err != nil || msg.StopReason != core.StopEnd {
		t.Fatalf("stop = %q, err = %v", msg.StopReason, err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if len(s.waits) != 1 || s.waits[0] != 7*time.Second {
		t.Errorf("waits = %v, want [7s] from Retry-After", s.waits)
	}
}

func TestRetryServerErrors(t *testing.T) {
	for _, first := range []providertest.Response{
		{Status: 500, Body: []byte(`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)},
		providertest.JSON(t, "anthropic/error_overloaded_529.json", 529),
	} {
		t.Run(http.StatusText(first.Status), func(t *testing.T) {
			srv := providertest.NewServer(t, first, providertest.SSE(t, "anthropic/text.0.sse"))
			s := &sleeps{}
			msg, err, _ := stream(t, newProvider(srv, s), testRequest(srv))
			if err != nil || msg.StopReason != core.StopEnd {
				t.Fatalf("stop = %q, err = %v", msg.StopReason, err)
			}
			if n := len(srv.Requests()); n != 2 || len(s.waits) != 1 {
				t.Errorf("%d requests and waits %v, want 2 requests after one wait", n, s.waits)
			}
		})
	}
}

func TestOverloaded529Error(t *testing.T) {
	srv := providertest.NewServer(t, providertest.JSON(t, "anthropic/error_overloaded_529.json", 529))
	p := New(provider.Options{Client: srv.Client(), Retry: provider.RetryPolicy{MaxRetries: -1}})
	msg, err, _ := stream(t, p, testRequest(srv))
	perr := wantProviderError(t, err)
	if perr.Status != 529 || perr.Code != "overloaded_error" || perr.Message != "Overloaded" || !perr.Retryable || perr.Provider != "anthropic" {
		t.Errorf("error = %+v", perr)
	}
	if msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "Overloaded") {
		t.Errorf("stop = %q, message = %q", msg.StopReason, msg.ErrorMessage)
	}
}

func TestBadRequestNotRetried(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Response{
		Status: 400,
		Body:   []byte(`{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 999999 > 64000, which is the maximum allowed"}}`),
	})
	s := &sleeps{}
	msg, err, _ := stream(t, newProvider(srv, s), testRequest(srv))
	perr := wantProviderError(t, err)
	if perr.Retryable || perr.Status != 400 || perr.Code != "invalid_request_error" || !strings.Contains(perr.Message, "max_tokens") {
		t.Errorf("error = %+v", perr)
	}
	if n := len(srv.Requests()); n != 1 || len(s.waits) != 0 {
		t.Errorf("%d requests, waits %v: a 400 must not be retried", n, s.waits)
	}
	if msg.StopReason != core.StopError {
		t.Errorf("stop = %q", msg.StopReason)
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Response{Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-srv.Arrived:
		case <-time.After(5 * time.Second):
		}
		cancel()
	}()
	type result struct {
		msg *core.AssistantMessage
		err error
	}
	done := make(chan result, 1)
	go func() {
		msg, err := newProvider(srv, nil).Stream(ctx, testRequest(srv), nil)
		done <- result{msg, err}
	}()
	select {
	case r := <-done:
		if r.msg == nil || r.msg.StopReason != core.StopAborted {
			t.Fatalf("message = %+v, want StopAborted", r.msg)
		}
		if r.err == nil || provider.IsRetryable(r.err) {
			t.Errorf("err = %v, want a non-retryable abort", r.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
}

func TestCancelMidStream(t *testing.T) {
	// The server sends part of a stream and then hangs on the connection;
	// cancelling must end the read promptly as an abort.
	body := partial(t, "anthropic/text.0.sse", 2)
	srv := providertest.NewServer(t, providertest.SSEBody(string(body)))
	ctx, cancel := context.WithCancel(context.Background())
	p := New(provider.Options{Client: hangingDoer{srv.Client(), ctx}})
	var seen int
	msg, err := p.Stream(ctx, testRequest(srv), func(e provider.Event) {
		if e.Type == provider.EventTextDelta {
			if seen++; seen == 2 {
				cancel()
			}
		}
	})
	if msg.StopReason != core.StopAborted || err == nil {
		t.Fatalf("stop = %q, err = %v", msg.StopReason, err)
	}
	if msg.Text() != "Olá! (That" {
		t.Errorf("text = %q", msg.Text())
	}
}

// hangingDoer makes a response body block after its data until ctx ends,
// as a stalled server connection does.
type hangingDoer struct {
	client *http.Client
	ctx    context.Context
}

func (h hangingDoer) Do(r *http.Request) (*http.Response, error) {
	resp, err := h.client.Do(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &hangingBody{body: resp.Body, ctx: h.ctx}
	return resp, nil
}

type hangingBody struct {
	body io.ReadCloser
	ctx  context.Context
}

func (b *hangingBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n == 0 && err != nil {
		<-b.ctx.Done()
		return 0, b.ctx.Err()
	}
	return n, nil
}

func (b *hangingBody) Close() error { return b.body.Close() }

func TestAPIKeyNeverInErrors(t *testing.T) {
	echo := `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key: ` + testKey + `"}}`
	cases := map[string]providertest.Response{
		"401 body": {Status: 401, Body: []byte(echo)},
		"stream error event": providertest.SSEBody("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{}}}\n\n" +
			"event: error\ndata: " + echo + "\n\n"),
		"plain-text proxy answer": {Status: 502, Body: []byte("upstream rejected key " + testKey)},
	}
	for name, resp := range cases {
		t.Run(name, func(t *testing.T) {
			srv := providertest.NewServer(t, resp)
			p := New(provider.Options{Client: srv.Client(), Retry: provider.RetryPolicy{MaxRetries: -1}})
			msg, err, _ := stream(t, p, testRequest(srv))
			if err == nil {
				t.Fatal("want an error")
			}
			for _, text := range []string{err.Error(), msg.ErrorMessage, wantProviderError(t, err).Message} {
				if strings.Contains(text, testKey) {
					t.Errorf("API key leaked: %q", text)
				}
			}
		})
	}
}

func TestAuthErrorHint(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Response{Status: 401, Body: []byte(`{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)})
	_, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
	perr := wantProviderError(t, err)
	if perr.Retryable || !strings.Contains(perr.Hint, "ANTHROPIC_API_KEY") {
		t.Errorf("error = %+v", perr)
	}
}

// TestOverlappingBlocks sends blocks that start before the previous one
// stopped, which the API never does: the earlier block is closed with what
// it had, stray deltas for it are dropped, and nothing panics.
func TestOverlappingBlocks(t *testing.T) {
	var body strings.Builder
	body.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&body, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", i)
		fmt.Fprintf(&body, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":%d,\"delta\":{\"type\":\"text_delta\",\"text\":\"b%d\"}}\n\n", i, i)
		body.WriteString("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"late\"}}\n\n")
	}
	body.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	srv := providertest.NewServer(t, providertest.SSEBody(body.String()))
	msg, err, _ := stream(t, newProvider(srv, nil), testRequest(srv))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Text() != "b0lateb1b2b3b4b5" || len(msg.Content) != 6 {
		t.Errorf("content = %+v", msg.Content)
	}
}
