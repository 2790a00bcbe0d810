package core

// SandboxUse says how a call of an exec tool would run with respect to
// the OS sandbox (package core/shell/sandbox).
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

// SandboxedTool is an exec tool that can run calls in the OS sandbox. The
// approval gate lets a sandboxed call run unasked in auto_edit (unless it
// writes a protected file), and always asks about a call that leaves the
// sandbox, in every mode, yolo included: the sandbox is what made the
// other calls safe to run unasked.
type SandboxedTool interface {
	Tool
	// SandboxUse says how call would run.
	SandboxUse(call ToolCall) SandboxUse
}
