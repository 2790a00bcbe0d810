package approval

import "github.com/cairn-dev/cairn/core"

// leaveReason is what the question about a call leaving the sandbox says.
const leaveReason = "asks to run outside the sandbox (dangerouslyDisableSandbox), with all of your files and the network"

// sandboxUse says how a call of tool would run.
func sandboxUse(tool core.Tool, call core.ToolCall) core.SandboxUse {
	if st, ok := tool.(core.SandboxedTool); ok && tool.Category() == core.CategoryExec {
		return st.SandboxUse(call)
	}
	return core.Unsandboxed
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
