package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestLoginShowsTheStepsAndTheOutcome: /login runs the login in the
// background, showing its notices (the URL to open) and then its outcome;
// without a provider it lists the logins; an unknown provider or a device
// code for a browser-only login is refused before anything runs.
func TestLoginShowsTheStepsAndTheOutcome(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	var ran []string
	r.m.opts.Login = func(ctx context.Context, provider string, device bool, notify func(string)) (string, error) {
		ran = append(ran, provider)
		if device {
			notify("Open https://github.com/login/device and enter the code WXYZ-9876")
		} else {
			notify("Open this URL in a browser to log in:\nhttps://claude.ai/oauth/authorize?x=1")
		}
		return "Logged in to " + provider + ".", nil
	}
	r.command("/login")
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "github-copilot") || !strings.Contains(screen, "openai-codex") {
		t.Fatalf("/login does not list the logins:\n%s", screen)
	}
	r.command("/login anthropic")
	screen := ansi.Strip(r.m.render())
	if !strings.Contains(screen, "https://claude.ai/oauth/authorize?x=1") || !strings.Contains(screen, "Logged in to anthropic.") {
		t.Fatalf("the login's steps are not shown:\n%s", screen)
	}
	r.command("/login github-copilot --device")
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "WXYZ-9876") {
		t.Fatalf("the device code is not shown:\n%s", screen)
	}
	r.command("/login anthropic --device")
	r.command("/login radius")
	if len(ran) != 2 {
		t.Errorf("logins run: %v, want anthropic and github-copilot only", ran)
	}
	if screen := ansi.Strip(r.m.render()); !strings.Contains(screen, "no device code") || !strings.Contains(screen, `no login for "radius"`) {
		t.Errorf("refusals not shown:\n%s", screen)
	}
}
