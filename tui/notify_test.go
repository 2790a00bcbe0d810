package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
)

// raws runs cmd and the commands it batches, and returns what they would
// write to the terminal raw. Commands that wait (ticks) are left.
func raws(cmd tea.Cmd) []string {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(50 * time.Millisecond):
		return nil
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		var out []string
		for _, c := range msg {
			out = append(out, raws(c)...)
		}
		return out
	case tea.RawMsg:
		return []string{msg.Msg.(string)}
	}
	return nil
}

// TestAlertWhenUnfocused: with the terminal unfocused, a finished run and
// a waiting approval each send the chosen alert; focused, nothing is sent.
func TestAlertWhenUnfocused(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.m.opts.Alert = AlertOSC9
	if v := r.m.drawView(); !v.ReportFocus {
		t.Error("the view does not ask for focus reports")
	}
	r.send(eventsMsg{core.AgentStart{}})
	_, cmd := r.m.Update(eventsMsg{core.Settled{}})
	if got := raws(cmd); len(got) != 0 {
		t.Errorf("focused, a finished run sent %q", got)
	}

	r.send(tea.BlurMsg{})
	r.send(eventsMsg{core.AgentStart{}})
	_, cmd = r.m.Update(eventsMsg{core.Settled{}})
	if got := raws(cmd); len(got) != 1 || got[0] != "\x1b]9;Done: cairn is waiting for your next message.\a" {
		t.Errorf("unfocused, a finished run sent %q", got)
	}

	r.send(eventsMsg{core.AgentStart{}})
	_, cmd = r.m.Update(eventsMsg{core.Question{ID: "q1", Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow bash: make\x1b]0;x?", Options: approvalOptions("allow_once", "deny")}})
	if got := raws(cmd); len(got) != 1 || got[0] != "\x1b]9;Allow bash: make ]0;x?\a" {
		t.Errorf("unfocused, an approval sent %q", got)
	}

	r.send(tea.FocusMsg{})
	r.m.opts.Alert = AlertBell
	r.send(eventsMsg{core.AgentStart{}})
	if _, cmd = r.m.Update(eventsMsg{core.Settled{}}); len(raws(cmd)) != 0 {
		t.Error("focused again, a finished run alerted")
	}
}

func TestChooseAlert(t *testing.T) {
	tests := []struct {
		setting string
		env     map[string]string
		want    Alert
	}{
		{"off", map[string]string{"TERM_PROGRAM": "iTerm.app"}, AlertOff},
		{"bell", map[string]string{"TERM_PROGRAM": "iTerm.app"}, AlertBell},
		{"osc777", nil, AlertOSC777},
		{"", map[string]string{"TERM_PROGRAM": "iTerm.app"}, AlertOSC9},
		{"auto", map[string]string{"TERM_PROGRAM": "WezTerm"}, AlertOSC9},
		{"auto", map[string]string{"TERM": "xterm-kitty"}, AlertOSC9},
		{"auto", map[string]string{"TERM": "foot"}, AlertOSC777},
		{"auto", map[string]string{"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-0/default,1,0"}, AlertBell},
		{"auto", map[string]string{"TERM": "xterm-256color"}, AlertBell},
	}
	for _, tt := range tests {
		if got := ChooseAlert(tt.setting, func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("ChooseAlert(%q, %v) = %d, want %d", tt.setting, tt.env, got, tt.want)
		}
	}
}
