package hook

import "encoding/json"

// Input is the JSON a hook reads on stdin, with Claude Code's field names;
// each event sets its own fields.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  Event  `json:"hook_event_name"`

	// PreToolUse and PostToolUse.
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	// PostToolUseFailure: what the failed call said.
	Error string `json:"error,omitempty"`
	// UserPromptSubmit.
	Prompt *string `json:"prompt,omitempty"`
	// Stop: whether a Stop hook already sent the agent back to work for
	// this prompt.
	StopHookActive *bool `json:"stop_hook_active,omitempty"`
	// SessionStart: startup, resume or clear.
	Source string `json:"source,omitempty"`
	// SessionEnd: why it ended.
	Reason string `json:"reason,omitempty"`
	// PreCompact: manual or auto, and the person's instructions.
	Trigger            string  `json:"trigger,omitempty"`
	CustomInstructions *string `json:"custom_instructions,omitempty"`
	// Notification.
	Message          string `json:"message,omitempty"`
	Title            string `json:"title,omitempty"`
	NotificationType string `json:"notification_type,omitempty"`
}

// ToolResponse is tool_response for a result: its text, whether it
// failed, and its details, with stdout for Bash as Claude Code's has it.
func ToolResponse(tool string, text string, isError bool, details json.RawMessage) json.RawMessage {
	r := map[string]any{"content": text, "is_error": isError}
	if len(details) > 0 {
		r["details"] = details
	}
	if tool == "bash" {
		r["stdout"], r["stderr"], r["interrupted"] = text, "", false
	}
	data, _ := json.Marshal(r)
	return data
}
