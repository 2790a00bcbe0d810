package tui

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// slowStore records nothing, and holds the saving of each answer until
// the test lets it go: the time a session file takes to write (and fsync)
// an answer it has already announced.
type slowStore struct{ release chan struct{} }

func (s slowStore) AppendMessage(m core.Message) (string, error) {
	if _, ok := m.(*core.AssistantMessage); ok {
		<-s.release
	}
	return "", nil
}
func (slowStore) AppendModelChange(string, string) error                 { return nil }
func (slowStore) AppendThinkingLevel(core.ThinkingLevel) error           { return nil }
func (slowStore) AppendCompaction(core.CompactionResult) (string, error) { return "", nil }

// TestFooterContextCountsTheLatestAnswer: the footer's context use counts
// the answer just given, even when the answer was announced before the
// session stored it (a session file's write takes that long), so the first
// answer of a session never shows 0.0%.
func TestFooterContextCountsTheLatestAnswer(t *testing.T) {
	store := slowStore{release: make(chan struct{})}
	r := newRig(t, rigOptions{
		conversations: agent.NewMemoryConversations(store),
		responses:     []faux.Response{{Text: "a long answer", Usage: &core.Usage{Input: 4000, Output: 300, TotalTokens: 4300}}},
	})
	events, stop := r.sess.Subscribe()
	defer stop()
	if err := r.sess.Prompt("hello", nil, agent.BehaviorNone); err != nil {
		t.Fatal(err)
	}
	r.pumpUntil(events, func(e core.Event) bool {
		end, ok := e.(core.MessageEnd)
		_, answer := end.Message.(*core.AssistantMessage)
		return ok && answer
	})
	close(store.release)
	r.pumpUntil(events, func(e core.Event) bool { _, ok := e.(core.Settled); return ok })
	if got, want := r.m.foot.context, r.sess.ContextUsage(); got != want || want.Tokens < 4300 {
		t.Errorf("the footer counts %+v of the context, the session %+v", got, want)
	}
}
