package tools

import (
	"encoding/json"
	"os"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// bashSandboxNote tells the model what the sandbox allows and how to ask
// to leave it.
const bashSandboxNote = " Commands run in a sandbox: they may write only inside the project and the temporary " +
	"directory, cannot read credentials such as ~/.ssh, cannot change cairn's control files (.cairn, AGENTS.md, " +
	"CLAUDE.md, .mcp.json, .git/hooks, .git/config), and reach the network only as allowed. A command the " +
	"sandbox blocks fails with \"Permission denied\" and the result says what was blocked. Only when a command " +
	"truly needs more, set dangerouslyDisableSandbox to true: the user is always asked first."

// bashSandboxParam is the parameter a sandboxed bash tool adds.
const bashSandboxParam = `{"type":"boolean","description":"Run this command outside the sandbox. The user is always asked; use only when the sandbox blocked something the task needs"}`

// spec is bashSpec (bashBackgroundSpec with a background table), with the sandbox described and its parameter added
// when commands run sandboxed.
func (b *Bash) spec() core.ToolSpec {
	spec := bashSpec
	if b.Background != nil {
		spec = bashBackgroundSpec
	}
	if b.Sandbox == nil {
		return spec
	}
	spec.Description += bashSandboxNote
	var schema map[string]any
	if json.Unmarshal(spec.Parameters, &schema) == nil {
		if props, ok := schema["properties"].(map[string]any); ok {
			props["dangerouslyDisableSandbox"] = json.RawMessage(bashSandboxParam)
			if data, err := json.Marshal(schema); err == nil {
				spec.Parameters = data
			}
		}
	}
	return spec
}

// SandboxUse says whether a call runs in the sandbox: the approval gate
// lets sandboxed calls run unasked in auto_edit, and always asks about one
// that leaves it. A command run in a host's terminal is never sandboxed.
func (b *Bash) SandboxUse(call core.ToolCall) core.SandboxUse {
	if b.Sandbox == nil || b.Workspace.terminal() != nil {
		return core.Unsandboxed
	}
	var a struct {
		Leave bool `json:"dangerouslyDisableSandbox"`
	}
	// Arguments that cannot be read fail closed: the gate asks.
	if json.Unmarshal(call.Arguments, &a) != nil || a.Leave {
		return core.LeavesSandbox
	}
	return core.Sandboxed
}

// sandboxFor returns the policy a call's command runs with, nil when it
// leaves the sandbox (the gate asked the person).
func (b *Bash) sandboxFor(leave bool) *sandbox.Policy {
	if leave {
		return nil
	}
	return b.Sandbox
}

// noteSandbox adds to a failed sandboxed command's result what the sandbox
// blocked, read from its output.
func noteSandbox(res core.ToolResult, cmd bashCommand) core.ToolResult {
	if cmd.policy == nil || !res.IsError || len(res.Content) == 0 || res.Content[0].Type != core.ContentText {
		return res
	}
	home, _ := os.UserHomeDir()
	if note := cmd.policy.Explain(res.Content[0].Text, cmd.dir, home); note != "" {
		res.Content[0].Text += "\n\n" + note + "\nIf the task needs this, retry with dangerouslyDisableSandbox: true (the user is asked)."
	}
	return res
}

// bashCommand is what noteSandbox needs of a command.
type bashCommand struct {
	policy *sandbox.Policy
	dir    string
}
