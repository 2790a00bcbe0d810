package pi

import (
	"errors"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/mcp/mcptest"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestGetMCPServers: get_mcp_servers lists each server with its state, its
// tools under the names the model calls them by, and why a failed one
// failed; with no MCP it answers an empty list.
func TestGetMCPServers(t *testing.T) {
	no := false
	statuses := []mcp.Status{
		{Server: mcp.Server{Name: "everything", Source: "/home/u/.cairn/mcp.json", Transport: mcp.TransportStdio, Command: "npx", Args: []string{"server-everything"}},
			State: mcp.Ready, Tools: []mcp.ToolInfo{{Name: "echo", Description: "Echoes", ReadOnly: true, Destructive: &no}},
			Prompts: []mcp.PromptInfo{reviewPrompt}},
		{Server: mcp.Server{Name: "broken", Source: "/p/.mcp.json", Transport: mcp.TransportStdio, Command: "false"},
			State: mcp.Failed, Err: errors.New("exit status 1"), Stderr: "boom"},
	}
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), mcp: func() []mcp.Status { return statuses }})
	r.send(map[string]any{"id": "m", "type": "get_mcp_servers"})
	res := r.response("m")
	if res.get("success") != true ||
		res.str("data.servers.0.name") != "everything" || res.str("data.servers.0.state") != "ready" ||
		res.str("data.servers.0.command") != "npx server-everything" ||
		res.str("data.servers.0.tools.0.name") != "mcp__everything__echo" || res.get("data.servers.0.tools.0.readOnly") != true ||
		res.get("data.servers.0.tools.0.destructive") != false ||
		res.str("data.servers.0.prompts.0.name") != "mcp__everything__review" ||
		res.str("data.servers.0.prompts.0.description") != "Review code <topic> [depth]" ||
		res.str("data.servers.1.state") != "failed" || res.str("data.servers.1.error") != "exit status 1" || res.str("data.servers.1.stderr") != "boom" {
		t.Errorf("get_mcp_servers: %s", res.text)
	}

	r2 := newRig(t, rigConfig{faux: faux.New(faux.Options{})})
	r2.send(map[string]any{"id": "n", "type": "get_mcp_servers"})
	if res := r2.response("n"); res.get("success") != true || res.text == "" || res.get("data.servers") == nil {
		t.Errorf("without MCP: %s", res.text)
	}
}

var reviewPrompt = mcp.PromptInfo{Name: "review", Description: "Review code\nin detail",
	Arguments: []mcp.PromptArgument{{Name: "topic", Required: true}, {Name: "depth"}}}

// TestMCPPromptsAreCommands: get_commands lists the MCP servers' prompts,
// and a prompt or follow_up naming one sends what the server returns for
// its arguments; a missing argument is the command's error.
func TestMCPPromptsAreCommands(t *testing.T) {
	m := mcptest.Start(t, "code", &mcptest.Server{Prompts: []mcp.PromptInfo{reviewPrompt}})
	fp := faux.New(slow, faux.Response{Text: mediumText()}, faux.Response{Text: "b"})
	r := newRig(t, rigConfig{faux: fp, prompts: testPrompts, mcpPrompts: m})

	r.send(map[string]any{"id": "c", "type": "get_commands"})
	res := r.response("c")
	if res.str("data.commands.2.name") != "mcp__code__review" || res.str("data.commands.2.source") != "mcp" ||
		res.str("data.commands.2.description") != "Review code <topic> [depth]" {
		t.Errorf("get_commands: %s", res.text)
	}

	r.send(map[string]any{"id": "p", "type": "prompt", "message": "/mcp__code__review parser depth=deep"})
	if res := r.response("p"); res.get("success") != true {
		t.Fatalf("prompt: %s", res.text)
	}
	r.wait(map[string]any{"type": "message_start", "message.role": "user", "message.content.0.text": "review: topic=parser depth=deep"})
	r.send(map[string]any{"id": "f", "type": "follow_up", "message": "/mcp__code__review"})
	if res := r.response("f"); res.get("success") != false || !strings.Contains(res.str("error"), `missing required argument "topic"`) {
		t.Errorf("missing argument: %s", res.text)
	}
	r.wait(map[string]any{"type": "agent_settled"})
}

// TestAbortStopsAnMCPPromptWaitingForItsServer: a prompt naming an MCP
// prompt of a server that is still starting waits for it, and an abort
// sent meanwhile ends that wait at once: the prompt is refused, the abort
// answered, and nothing reaches the model.
func TestAbortStopsAnMCPPromptWaitingForItsServer(t *testing.T) {
	m := mcptest.Starting(t, "slow")
	fp := faux.New(faux.Options{})
	r := newRig(t, rigConfig{faux: fp, mcpPrompts: m})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "/mcp__slow__summarise tides"})
	r.send(map[string]any{"id": "a", "type": "abort"})
	res := r.response("p")
	if res.get("success") != false || !strings.Contains(res.str("error"), "aborted") {
		t.Errorf("the prompt: %s", res.text)
	}
	if res := r.response("a"); res.get("success") != true {
		t.Errorf("the abort: %s", res.text)
	}
	if fp.Calls() != 0 {
		t.Errorf("the model was called %d times", fp.Calls())
	}
}

// TestAbortStopsAnMCPPromptTheServerDoesNotAnswer: the abort comes after
// the server has been asked (the reader is already waiting for the next
// command): it still ends the wait at once.
func TestAbortStopsAnMCPPromptTheServerDoesNotAnswer(t *testing.T) {
	asked := make(chan string, 1)
	m := mcptest.Start(t, "docs", &mcptest.Server{Prompts: []mcp.PromptInfo{reviewPrompt}, Asked: asked, Hang: true})
	fp := faux.New(faux.Options{})
	r := newRig(t, rigConfig{faux: fp, mcpPrompts: m})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "/mcp__docs__review parser"})
	<-asked
	r.send(map[string]any{"id": "a", "type": "abort"})
	if res := r.response("p"); res.get("success") != false || !strings.Contains(res.str("error"), "aborted") {
		t.Errorf("the prompt: %s", res.text)
	}
	if res := r.response("a"); res.get("success") != true {
		t.Errorf("the abort: %s", res.text)
	}
	if fp.Calls() != 0 {
		t.Errorf("the model was called %d times", fp.Calls())
	}
}

// TestOddAbortFramesDoNotStopLaterMCPPrompts: abort frames that are not
// quite commands (a field of the wrong type, "Type" for "type") are
// counted as read and as dispatched alike, so a later MCP prompt is not
// taken for aborted.
func TestOddAbortFramesDoNotStopLaterMCPPrompts(t *testing.T) {
	m := mcptest.Start(t, "docs", &mcptest.Server{Prompts: []mcp.PromptInfo{reviewPrompt}})
	fp := faux.New(faux.Options{}, faux.Response{Text: "reviewed"})
	r := newRig(t, rigConfig{faux: fp, mcpPrompts: m})
	r.raw(`{"type":"abort","id":7}` + "\n")
	r.raw(`{"Type":"abort"}` + "\n")
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "/mcp__docs__review parser"})
	if res := r.response("p"); res.get("success") != true {
		t.Fatalf("the prompt after odd aborts: %s", res.text)
	}
	r.wait(map[string]any{"type": "agent_end"})
}
