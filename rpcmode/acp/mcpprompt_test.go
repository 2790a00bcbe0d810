package acp

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/mcp/mcptest"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

func TestMCPPromptsAreCommands(t *testing.T) {
	m := mcptest.Start(t, "docs", &mcptest.Server{Prompts: []mcp.PromptInfo{{
		Name: "summarise", Description: "Summarise a topic",
		Arguments: []mcp.PromptArgument{{Name: "topic", Required: true}}}}})
	r := newRig(t, rigConfig{mcp: m, responses: []faux.Response{{Text: "summary"}}})
	sid := r.newSession()
	cmds := r.update("available_commands_update", nil)
	if !strings.Contains(cmds.text, `{"name":"mcp__docs__summarise","description":"Summarise a topic","input":{"hint":"\u003ctopic\u003e"}}`) {
		t.Errorf("commands: %s", cmds.text)
	}
	if got := r.response(r.prompt(sid, "/mcp__docs__summarise the tides")).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	// Kept as typed; what the server returned is beside it for the model.
	msgs := r.sess.Messages()
	if u, ok := msgs[0].(*core.UserMessage); !ok || core.PlainText(u.Content) != "/mcp__docs__summarise the tides" {
		t.Errorf("the person's message is %#v", msgs[0])
	}
	if c, ok := msgs[1].(*core.CustomMessage); !ok || core.PlainText(c.Content) != "summarise: topic=the tides" {
		t.Errorf("the model was sent %#v", msgs[1])
	}
	// A prompt the server cannot fill is refused, and nothing is sent.
	l := r.response(r.prompt(sid, "/mcp__docs__summarise"))
	if l.get("error.code") != float64(CodeInvalidParams) || !strings.Contains(l.str("error.message"), `missing required argument "topic"`) {
		t.Errorf("an unfilled prompt: %s", l.text)
	}
	if n := len(r.sess.Messages()); n != len(msgs) {
		t.Errorf("%d messages after a refused prompt, want %d", n, len(msgs))
	}
}

func TestCancelWhileAnMCPPromptWaits(t *testing.T) {
	// A server that never finishes starting: the prompt waits for it.
	m := mcptest.Starting(t, "slow")
	r := newRig(t, rigConfig{mcp: m})
	sid := r.newSession()
	id := r.prompt(sid, "/mcp__slow__anything")
	r.notify("session/cancel", map[string]any{"sessionId": sid})
	if got := r.response(id).str("result.stopReason"); got != "cancelled" {
		t.Errorf("stopReason = %q", got)
	}
	if n := len(r.sess.Messages()); n != 0 {
		t.Errorf("%d messages after a prompt cancelled before it started", n)
	}
}
