package approval

import "github.com/cairn-dev/cairn/core"

// SandboxUse says how a call of an exec tool would run.
type SandboxUse int

// The ways a call can run.
const (
	// Unsandboxed: there is no sandbox (not enabled, or not available).
	Unsandboxed SandboxUse = iota
	// Sandboxed: the call runs in the OS sandbox, which keeps it to the
	// project, off the person's keys and off the network.
	Sandboxed
	// LeavesSandbox: a sandbox is in force and the call asks to run
	// outside it.
	LeavesSandbox
)

// SandboxedTool is an exec tool that can run calls in the OS sandbox.
// The gate lets a sandboxed call run unasked in ModeAutoEdit (unless it
// writes a protected file), and always asks about a call that leaves the
// sandbox, in every mode, yolo included: the sandbox is what made the
// other calls safe to run unasked.
type SandboxedTool interface {
	core.Tool
	// SandboxUse says how call would run.
	SandboxUse(call core.ToolCall) SandboxUse
}

// leaveReason is what the question about a call leaving the sandbox says.
const leaveReason = "asks to run outside the sandbox (dangerouslyDisableSandbox), with all of your files and the network"

// sandboxUse says how a call of tool would run.
func sandboxUse(tool core.Tool, call core.ToolCall) SandboxUse {
	if st, ok := tool.(SandboxedTool); ok && tool.Category() == core.CategoryExec {
		return st.SandboxUse(call)
	}
	return Unsandboxed
}

// joinReasons joins the reasons a call needs care that are not empty.
func joinReasons(reasons ...string) string {
	out := ""
	for _, r := range reasons {
		switch {
		case r == "":
		case out == "":
			out = r
		default:
			out += ", and " + r
		}
	}
	return out
}
