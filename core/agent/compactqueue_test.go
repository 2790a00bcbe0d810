package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestQueuedDuringCompaction: a message steered in while a manual
// compaction asks for its summary is sent once Compact ends, but stays
// queued after CompactKeepingQueue (pi 0.87.1's rpc mode), for the next
// prompt.
func TestQueuedDuringCompaction(t *testing.T) {
	for _, keep := range []bool{false, true} {
		f := newFixture(t, Config{Compaction: keepLittle},
			faux.Response{Text: "first answer"}, faux.Response{Text: "second answer"})
		for _, q := range questions {
			_ = f.s.Prompt(q, nil, BehaviorNone)
			f.untilSettled()
		}
		f.fp.PushStep(func(*provider.Request) (faux.Response, error) {
			if err := f.s.Steer("meanwhile", nil); err != nil {
				t.Error(err)
			}
			return faux.Response{Text: "the summary"}, nil
		})
		f.fp.PushStep(func(*provider.Request) (faux.Response, error) { return faux.Response{Text: "after"}, nil })
		compact := f.s.Compact
		if keep {
			compact = f.s.CompactKeepingQueue
		}
		if _, err := compact(context.Background(), ""); err != nil {
			t.Fatalf("keep %v: compaction failed: %v", keep, err)
		}
		if keep {
			if st := f.s.State(); st.IsStreaming || st.PendingMessageCount != 1 {
				t.Errorf("keep: after the compaction, streaming %v with %d queued; want idle with 1", st.IsStreaming, st.PendingMessageCount)
			}
			_ = f.s.Prompt("next", nil, BehaviorNone)
		}
		f.untilSettled()
		var users []string
		for _, m := range f.s.Messages() {
			if u, ok := m.(*core.UserMessage); ok {
				users = append(users, u.Content[0].Text)
			}
		}
		want := "meanwhile"
		if keep {
			want = "next meanwhile"
		}
		if got := strings.Join(users[len(users)-len(strings.Fields(want)):], " "); got != want {
			t.Errorf("keep %v: the last user messages are %q, want %q", keep, got, want)
		}
	}
}
