package settings

import "time"

// SubagentSettings limits the children the task tool runs (subagents).
type SubagentSettings struct {
	// MaxParallel is how many children run at once; more calls wait.
	MaxParallel int `json:"maxParallel"`
	// TimeoutMs bounds each child's run, in milliseconds.
	TimeoutMs int `json:"timeoutMs"`
	// MaxTurns bounds each child's model answers.
	MaxTurns int `json:"maxTurns"`
}

// Timeout is TimeoutMs as a duration.
func (s SubagentSettings) Timeout() time.Duration {
	return time.Duration(s.TimeoutMs) * time.Millisecond
}
