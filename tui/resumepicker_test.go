package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core/session"
)

// touchedSessions lists a session written six days ago whose file was
// touched just now (a copy, a checkout).
type touchedSessions struct{ *fakeSessions }

func (touchedSessions) List() ([]session.Info, error) {
	return []session.Info{{Path: "/s/old.jsonl", FirstMessage: "fix the flaky test", MessageCount: 12,
		Modified: testClock, LastEntry: testClock.Add(-6 * 24 * time.Hour)}}, nil
}

// TestResumePickerDatesBySessionsLastEntry: the picker says when the
// conversation was last written to, not when its file was last touched
// (it said "just now" for a six-day-old session).
func TestResumePickerDatesBySessionsLastEntry(t *testing.T) {
	r := sessionsRigWith(t, touchedSessions{newFakeSessions()})
	r.command("/resume")
	screen := ansi.Strip(r.m.render())
	want := testClock.Add(-6 * 24 * time.Hour).Format("2006-01-02")
	if !strings.Contains(screen, "fix the flaky test") || !strings.Contains(screen, want) || strings.Contains(screen, "just now") {
		t.Fatalf("the picker does not date the session %s:\n%s", want, screen)
	}
}
