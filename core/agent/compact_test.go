package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/provider/openai"
	"github.com/cairn-dev/cairn/core/provider/providertest"
	"github.com/cairn-dev/cairn/core/session"
)

// keepLittle keeps about 100 tokens: the last exchange of the questions
// below, the second of which is long, so the cut falls on its start and one
// summary request is made.
var keepLittle = CompactionSettings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 100}

// questions are two prompts, the second about 200 tokens long.
var questions = []string{"first question", "second question " + strings.Repeat("more ", 160)}

// TestCompactionRetriesATransientSummaryFailure: a 503 on the summary
// request is retried after the retry delay, with pi 0.87's
// summarization_retry_* events around it, and the compaction succeeds.
func TestCompactionRetriesATransientSummaryFailure(t *testing.T) {
	answer := providertest.SSE(t, "openai-chat/text.0.sse")
	busy := providertest.Response{Status: 503, Body: []byte(`{"error":{"message":"overloaded","type":"server_error"}}`)}
	srv := providertest.NewServer(t, answer, answer, busy, answer)
	prov := openai.New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	model := core.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 128000, MaxTokens: 1000}
	var waits []time.Duration
	f := newFixture(t, Config{
		Model:      model,
		Open:       func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil },
		Retry:      RetrySettings{Enabled: true, MaxRetries: 3, BaseDelay: time.Second},
		Compaction: keepLittle,
		Sleep:      func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
	})
	for _, q := range questions {
		_ = f.s.Prompt(q, nil, BehaviorNone)
		f.untilSettled()
	}
	if _, err := f.s.Compact(context.Background(), ""); err != nil {
		t.Fatalf("compaction failed: %v", err)
	}
	evs := f.until(func(e core.Event) bool { _, ok := e.(core.SummarizationRetryFinished); return ok })
	var scheduled []core.SummarizationRetryScheduled
	var starts []core.SummarizationRetryAttemptStart
	for _, e := range evs {
		switch e := e.(type) {
		case core.SummarizationRetryScheduled:
			scheduled = append(scheduled, e)
		case core.SummarizationRetryAttemptStart:
			starts = append(starts, e)
		}
	}
	if len(scheduled) != 1 || scheduled[0].Attempt != 1 || scheduled[0].MaxAttempts != 3 || scheduled[0].Delay != time.Second || !strings.Contains(scheduled[0].ErrorMessage, "overloaded") {
		t.Errorf("scheduled retries: %+v", scheduled)
	}
	if len(starts) != 1 || starts[0].Reason != core.CompactionManual {
		t.Errorf("retry attempts: %+v", starts)
	}
	if len(waits) != 1 || waits[0] != time.Second {
		t.Errorf("waits %v, want [1s]", waits)
	}
	if _, ok := f.s.Messages()[0].(*core.CompactionSummaryMessage); !ok {
		t.Errorf("the context does not start with the summary: %T", f.s.Messages()[0])
	}
}

// TestCompactWithNothingToSummariseFails: a conversation no longer than
// what compaction keeps is not compacted, and the model is not asked, as
// in pi 0.87 ("Nothing to compact (session too small)").
func TestCompactWithNothingToSummariseFails(t *testing.T) {
	f := newFixture(t, Config{Compaction: DefaultCompaction}, faux.Response{Text: "an answer"})
	if _, err := f.s.Compact(context.Background(), ""); !errors.Is(err, ErrNothingToCompact) {
		t.Fatalf("compact of an empty session: %v", err)
	}
	_ = f.s.Prompt("a question", nil, BehaviorNone)
	f.untilSettled()
	if _, err := f.s.Compact(context.Background(), ""); !errors.Is(err, ErrNothingToCompact) {
		t.Fatalf("compact of one short exchange: %v", err)
	}
	if n := len(f.s.Messages()); n != 2 {
		t.Errorf("the context changed: %d messages", n)
	}
}

// TestStatsCoverTheWholeSession: after a compaction the counts and the
// tokens (so the cost) still cover every message of the session, plus the
// summary's own, as pi 0.87's get_session_stats does; they never fall.
func TestStatsCoverTheWholeSession(t *testing.T) {
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	convs := NewFileConversations(store, dir, store.Create(dir))
	price := func(in, out int) *core.Usage { return &core.Usage{Input: in, Output: out} }
	f := newFixture(t, Config{Conversations: convs, Compaction: keepLittle},
		faux.Response{Text: "first answer", Usage: price(100, 10)},
		faux.Response{Text: "second answer", Usage: price(200, 20)},
		faux.Response{Text: "## Goal\nthe summary", Usage: price(50, 5)})
	for _, q := range questions {
		_ = f.s.Prompt(q, nil, BehaviorNone)
		f.untilSettled()
	}
	before := f.s.Stats()
	if _, err := f.s.Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	after := f.s.Stats()
	if before.UserMessages != 2 || after.UserMessages != 2 || after.AssistantMessages != 2 || after.TotalMessages != before.TotalMessages {
		t.Errorf("counts before %+v, after %+v: want every message of the session", before, after)
	}
	if before.Usage.Input != 300 || before.Usage.Output != 30 || after.Usage.Input != 350 || after.Usage.Output != 35 {
		t.Errorf("usage before %+v, after %+v: want 300/30 then 350/35, the summary's added", before.Usage, after.Usage)
	}
}
