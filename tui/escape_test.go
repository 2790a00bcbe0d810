package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// TestQuestionsDrawControlCharactersEscaped: whoever built a question, the
// TUI draws its title and message with control characters as escapes, so
// the approval line cannot be hidden (ESC [8m) or rewritten (ESC [2K, \r).
func TestQuestionsDrawControlCharactersEscaped(t *testing.T) {
	tests := []struct {
		name string
		q    core.Question
		want string
	}{
		{"approval title", core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
			Title: "Allow bash: git status\x1b[8m; rm -rf ~?", Options: approvalOptions(approval.OptionAllowOnce, approval.OptionDeny)},
			`Allow bash: git status\x1b[8m; rm -rf ~?`},
		{"approval message", core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
			Title: "Allow bash: x?", Message: "Remembering allows rm -rf ~\x1b[2K\rgit status.", Options: approvalOptions(approval.OptionAllowOnce, approval.OptionDeny)},
			`Remembering allows rm -rf ~\x1b[2K\rgit status.`},
		{"confirm title", core.Question{ID: "q2", Kind: core.QuestionConfirm, Title: "Run \u202etxt.sh?"}, `Run \u202etxt.sh?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			r.send(tea.WindowSizeMsg{Width: 120, Height: 24})
			r.send(eventsMsg{tt.q})
			raw := r.m.render()
			for _, hidden := range []string{"\x1b[8m", "\x1b[2K", "\r", "\u202e"} {
				if strings.Contains(raw, hidden) {
					t.Errorf("the screen holds %q raw", hidden)
				}
			}
			if screen := ansi.Strip(raw); !strings.Contains(screen, tt.want) {
				t.Errorf("%q is not on screen:\n%s", tt.want, screen)
			}
		})
	}
}
