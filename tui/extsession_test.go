package tui

import (
	"strings"
	"testing"

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
