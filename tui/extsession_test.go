package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// TestTreeShowsLabels: an entry an extension bookmarked (pi's setLabel)
// shows its label in /tree, before its role, as pi's tree does.
func TestTreeShowsLabels(t *testing.T) {
	r := sessionsRigWith(t, labelledSessions{newFakeSessions()})
	r.command("/tree")
	var got []string
	for _, it := range r.m.picker.all {
		got = append(got, it.label)
	}
	want := "• user: q\n• [checkpoint] assistant: a"
	if strings.Join(got, "\n") != want {
		t.Fatalf("tree labels:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

type labelledSessions struct{ *fakeSessions }

func (labelledSessions) Tree() ([]agent.TreeNode, error) {
	return []agent.TreeNode{
		{ID: "u1", Role: "user", Text: "q", OnPath: true},
		{ID: "a1", ParentID: "u1", Role: "assistant", Text: "a", OnPath: true, Label: "checkpoint"},
		{ID: "l1", ParentID: "a1", Role: "label", OnPath: true},
	}, nil
}

// TestConversationReplacedIsShown: when an extension starts a new session
// (pi's ctx.newSession), the transcript is the new conversation's and a
// notice says why.
func TestConversationReplacedIsShown(t *testing.T) {
	old := &core.UserMessage{Content: []core.Content{core.TextBlock("the old question")}}
	r := newRig(t, rigOptions{conversations: newFakeSessions(), history: []core.Message{old}})
	r.send(eventsMsg{core.MessageStart{Message: old}})
	if !strings.Contains(ansi.Strip(r.m.render()), "the old question") {
		t.Fatal("the old conversation is not shown")
	}
	if err := r.sess.NewConversation(""); err != nil {
		t.Fatal(err)
	}
	r.send(eventsMsg{core.ConversationReplaced{}})
	screen := ansi.Strip(r.m.render())
	if strings.Contains(screen, "the old question") || !strings.Contains(screen, "An extension started a new session.") {
		t.Errorf("screen:\n%s", screen)
	}
}
