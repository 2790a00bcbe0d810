package approval

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// inBackground reports whether a call asks for its command to run in the
// background (the bash tool's run_in_background, true or "true"). Such a
// call is decided exactly as the same command in the foreground; only its
// question says so.
func inBackground(call core.ToolCall) bool {
	var args struct {
		RunInBackground json.RawMessage `json:"run_in_background"`
	}
	if json.Unmarshal(call.Arguments, &args) != nil {
		return false
	}
	v := string(args.RunInBackground)
	return v == "true" || v == `"true"`
}
