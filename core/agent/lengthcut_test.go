package agent

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// TestCutAnswerLeavesTheContext: an answer cut at the output limit below
// the model's own maximum leaves the context with a context_edit entry,
// as in pi 0.87.1 (TestPiDiff's length-cut scenarios compare the frames
// with pi's); with nothing to compact the run ends there. An answer cut at
// the model's own maximum is kept.
func TestCutAnswerLeavesTheContext(t *testing.T) {
	for _, c := range []struct {
		name      string
		output    int
		maxTokens int // --max-tokens
		kept      bool
	}{{"below the maximum", 10, 0, false}, {"at the maximum", 100, 0, true}, {"at --max-tokens", 10, 10, true}} {
		t.Run(c.name, func(t *testing.T) {
			model := faux.Model
			model.MaxTokens, model.ContextWindow = 100, 128000
			dir := t.TempDir()
			store := session.Store{Dir: dir}
			file := store.Create(dir)
			f := newFixture(t, Config{Model: model, Conversations: NewFileConversations(store, dir, file), MaxTokens: c.maxTokens,
				Compaction: CompactionSettings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}},
				faux.Response{Text: "A partial ans", StopReason: core.StopLength, Usage: &core.Usage{Input: 50, Output: c.output}})
			_ = f.s.Prompt("explain", nil, BehaviorNone)
			got := names(withoutUpdates(f.untilSettled()))
			want := "agent_end agent_settled"
			if !c.kept {
				want = "agent_end entry_appended agent_settled"
			}
			if !strings.HasSuffix(got, want) || strings.Contains(got, "compaction") {
				t.Errorf("events %s, want them to end %s", got, want)
			}
			n := 1
			if c.kept {
				n = 2
			}
			if ctx := file.Context(); len(ctx.Messages) != n || len(f.s.Messages()) < n {
				t.Errorf("the session's context holds %d messages, want %d", len(ctx.Messages), n)
			}
		})
	}
}
