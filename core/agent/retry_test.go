package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/provider/openai"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// A stream that drops mid-answer is retried by the session after pi's
// backoff; the failed answer leaves the context and the prompt settles once.
func TestRetryAfterDroppedStreamThenSuccess(t *testing.T) {
	full := providertest.SSE(t, "openai-chat/text.0.sse")
	dropped := full
	dropped.Body = full.Body[:len(full.Body)/2]
	dropped.Drop = true
	srv := providertest.NewServer(t, dropped, full)
	prov := openai.New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	model := core.Model{ID: "gpt-4o-mini", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 128000, MaxTokens: 1000}
	var waits []time.Duration
	f := newFixture(t, Config{
		Model: model,
		Open:  func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil },
		Retry: DefaultRetry,
		Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
	})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	got := names(withoutUpdates(evs))
	want := "agent_start turn_start message_start(user) message_end(user) message_start(assistant) message_end(assistant) turn_end agent_end " +
		"auto_retry_start entry_appended agent_start turn_start message_start(assistant) message_end(assistant) auto_retry_end turn_end agent_end agent_settled"
	if got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	if len(waits) != 1 || waits[0] != 2*time.Second {
		t.Fatalf("waits = %v, want [2s]", waits)
	}
	if s := evs[len(evs)-1].(core.Settled); s.Error != "" {
		t.Fatalf("settled with error %q", s.Error)
	}
	msgs := f.s.Messages()
	if len(msgs) != 2 || msgs[1].(*core.AssistantMessage).StopReason != core.StopEnd {
		t.Fatalf("context after retry = %d messages", len(msgs))
	}
	if len(srv.Requests()) != 2 {
		t.Fatalf("requests = %d", len(srv.Requests()))
	}
}

func TestRetriesExhaustedReportFinalError(t *testing.T) {
	resp := providertest.Response{Status: 503, Body: []byte(`{"error":{"message":"busy","type":"server_error"}}`)}
	srv := providertest.NewServer(t, resp, resp, resp)
	prov := openai.New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	model := core.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 1000, MaxTokens: 100}
	f := newFixture(t, Config{
		Model: model,
		Open:  func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil },
		Retry: RetrySettings{Enabled: true, MaxRetries: 2, BaseDelay: time.Second},
	})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	var end core.AutoRetryEnd
	starts := 0
	for _, e := range evs {
		switch e := e.(type) {
		case core.AutoRetryStart:
			starts++
		case core.AutoRetryEnd:
			end = e
		}
	}
	if starts != 2 || end.Success || end.Attempt != 2 || !strings.Contains(end.FinalError, "busy") {
		t.Fatalf("starts = %d, end = %+v", starts, end)
	}
	if s := evs[len(evs)-1].(core.Settled); !strings.Contains(s.Error, "busy") {
		t.Fatalf("settled = %+v", s)
	}
}

func TestManualCompactionReplacesOlderMessages(t *testing.T) {
	long := strings.Repeat("x", 4000)
	var responses []faux.Response
	for i := 0; i < 6; i++ {
		responses = append(responses, faux.Response{Text: long})
	}
	f := newFixture(t, Config{Compaction: CompactionSettings{Enabled: false, ReserveTokens: 16384, KeepRecentTokens: 1500}}, responses...)
	for i := 0; i < 6; i++ {
		if err := f.s.Prompt("question "+long[:10], nil, BehaviorNone); err != nil {
			t.Fatal(err)
		}
		f.untilSettled()
	}
	var summaryReq *provider.Request
	var once sync.Once
	step := func(req *provider.Request) (faux.Response, error) {
		once.Do(func() { summaryReq = req })
		return faux.Response{Text: "## Goal\nAnswer questions."}, nil
	}
	// A split turn makes a second request for the turn's beginning.
	f.fp.PushStep(step, step)
	res, err := f.s.Compact(context.Background(), "focus on goals")
	if err != nil {
		t.Fatal(err)
	}
	if summaryReq == nil || len(summaryReq.Tools) != 0 {
		t.Fatal("the summary request was not made, or declared tools")
	}
	if !strings.HasPrefix(res.Summary, "## Goal") || res.TokensBefore == 0 {
		t.Fatalf("result = %+v", res)
	}
	msgs := f.s.Messages()
	if _, ok := msgs[0].(*core.CompactionSummaryMessage); !ok {
		t.Fatalf("first message after compaction = %T", msgs[0])
	}
	if len(msgs) >= 12 {
		t.Fatalf("compaction kept %d of 12 messages", len(msgs))
	}
	// Asked again, there is nothing left to summarise: pi 0.87 refuses
	// (pi 0.73 asked the model anyway and kept everything).
	before := len(f.s.Messages())
	if _, err := f.s.Compact(context.Background(), ""); !errors.Is(err, ErrNothingToCompact) {
		t.Fatalf("a second manual compaction: %v, want ErrNothingToCompact", err)
	}
	if after := len(f.s.Messages()); after != before {
		t.Fatalf("the second compaction changed the kept messages: %d -> %d", before, after)
	}
}

func TestThresholdCompactionRunsAfterTheRun(t *testing.T) {
	model := faux.Model
	model.ContextWindow = 20000
	small, usage := core.Usage{Input: 100, Output: 10}, core.Usage{Input: 19000, Output: 100}
	f := newFixture(t, Config{Model: model, Compaction: CompactionSettings{Enabled: true, ReserveTokens: 2000, KeepRecentTokens: 1}},
		faux.Response{Text: "first", Usage: &small},
		faux.Response{Text: "second", Usage: &usage},
		// The cut splits the last turn, so two summaries are written.
		faux.Response{Text: "summary of it all"},
		faux.Response{Text: "summary of the turn so far"})
	_ = f.s.Prompt("one", nil, BehaviorNone)
	evs := f.untilSettled()
	if strings.Contains(names(evs), "auto_compaction") {
		t.Fatalf("compacted below the threshold: %s", names(evs))
	}
	_ = f.s.Prompt("two", nil, BehaviorNone)
	evs = f.untilSettled()
	got := names(withoutUpdates(evs))
	if !strings.HasSuffix(got, "agent_end auto_compaction_start auto_compaction_end agent_settled") {
		t.Fatalf("events = %s", got)
	}
	end := evs[len(evs)-2].(core.AutoCompactionEnd)
	if end.Result == nil || end.Result.Summary == "" || end.WillRetry {
		t.Fatalf("compaction end = %+v", end)
	}
}

// An HTTP 500 that the provider layer does not retry itself is retried by
// the session, and the prompt settles without an error.
func TestRetryAfter500ThenSuccess(t *testing.T) {
	srv := providertest.NewServer(t,
		providertest.Response{Status: 500, Body: []byte(`{"error":{"message":"fake internal error","type":"server_error"}}`)},
		providertest.SSE(t, "openai-chat/text.0.sse"))
	prov := openai.New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	model := core.Model{ID: "gpt-4o-mini", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 128000, MaxTokens: 1000}
	f := newFixture(t, Config{Model: model, Open: func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil }, Retry: DefaultRetry})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.untilSettled()
	var start core.AutoRetryStart
	var end core.AutoRetryEnd
	for _, e := range evs {
		switch e := e.(type) {
		case core.AutoRetryStart:
			start = e
		case core.AutoRetryEnd:
			end = e
		}
	}
	if start.Attempt != 1 || start.Delay != 2*time.Second || !strings.Contains(start.ErrorMessage, "fake internal error") {
		t.Fatalf("retry start = %+v", start)
	}
	if !end.Success || end.Attempt != 1 {
		t.Fatalf("retry end = %+v", end)
	}
	if s := evs[len(evs)-1].(core.Settled); s.Error != "" {
		t.Fatalf("settled with %q", s.Error)
	}
}
