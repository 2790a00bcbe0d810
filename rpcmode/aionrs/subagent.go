package aionrs

import "github.com/cairn-dev/cairn/core"

// subagentInfo is the info frame reporting a task call's subagent as it
// goes (the task tool's one-line status: agent, task, turns, tokens,
// time, current step); none for other updates. aionrs has no frame for
// subagents, so its progress is info the host shows in the turn.
func (s *server) subagentInfo(e core.ToolExecutionUpdate) [][]byte {
	if e.Partial.Subagent == nil {
		return nil
	}
	text := core.PlainText(e.Partial.Content)
	if text == "" {
		return nil
	}
	return [][]byte{s.info(text)}
}
