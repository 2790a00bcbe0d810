package pi

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestExtensionCommandPromptIsAnsweredWhenItEnds: a prompt that runs an
// extension command is answered when the command has finished, after the
// notify it showed, with no agent_settled; as pi 0.87.1 does (checked
// against pi itself: a "/slow" command that waits and notifies gives
// extension_ui_request notify, then the prompt's response). An ordinary
// prompt keeps its usual frames.
func TestExtensionCommandPromptIsAnsweredWhenItEnds(t *testing.T) {
	release := make(chan struct{})
	var sess *agent.Session
	ic := agent.Interceptor{Name: "extension slow", Input: func(ctx context.Context, e agent.InputEvent) (agent.InputResult, error) {
		if !strings.HasPrefix(e.Text, "/slow") {
			return agent.InputResult{}, nil
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
		sess.Notify(core.NotifyInfo, "slow done")
		return agent.InputResult{Action: agent.InputHandled}, nil
	}}
	fp := faux.New(faux.Options{}, faux.Response{Text: "answer"})
	r := newRig(t, rigConfig{faux: fp, interceptors: []agent.Interceptor{ic},
		commands: func() []SlashCommand { return []SlashCommand{{Name: "slow", Source: "extension"}} }})
	sess = r.sess
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "/slow now"})
	r.send(map[string]any{"id": "s", "type": "get_state"})
	r.response("s") // answered while the command runs; the prompt is not
	close(release)
	notify := r.wait(map[string]any{"type": "extension_ui_request", "method": "notify"})
	resp := r.response("p")
	if notify.str("message") != "slow done" || resp.get("data.disposition") != "handled" {
		t.Fatalf("notify %s, response %s", notify.text, resp.text)
	}
	r.send(map[string]any{"id": "p2", "type": "prompt", "message": "hello"})
	r.response("p2")
	r.wait(map[string]any{"type": "agent_settled"})
	if n := count(r.out.all(), "agent_settled"); n != 1 {
		t.Errorf("%d agent_settled frames, want only the ordinary prompt's", n)
	}
}

func FuzzCommandName(f *testing.F) {
	for _, s := range []string{"/slow now", "/", "plain", "/a/b c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name := commandName(s)
		if name != "" && (!strings.HasPrefix(s, "/"+name) || strings.Contains(name, " ")) {
			t.Fatalf("commandName(%q) = %q", s, name)
		}
	})
}
