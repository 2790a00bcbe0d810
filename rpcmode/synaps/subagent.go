package synaps

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// previewRunes bounds task_preview and result_preview: "the first few
// words".
const previewRunes = 120

// subagentFrame is the frame of a task call's progress: subagent_start
// when the child starts, subagent_update as it answers and calls tools
// (status "running" or "tool_call"), subagent_done when it has finished;
// nil for an update that is not a subagent's.
func subagentFrame(e core.ToolExecutionUpdate) []byte {
	p := e.Partial.Subagent
	if p == nil {
		return nil
	}
	switch p.Status {
	case core.SubagentStarted:
		return encode(struct {
			Type        string `json:"type"`
			SubagentID  uint64 `json:"subagent_id"`
			AgentName   string `json:"agent_name"`
			TaskPreview string `json:"task_preview"`
		}{"subagent_start", p.ID, p.Agent, previewOf(p.Task)})
	case core.SubagentDone:
		return encode(struct {
			Type          string  `json:"type"`
			SubagentID    uint64  `json:"subagent_id"`
			AgentName     string  `json:"agent_name"`
			ResultPreview string  `json:"result_preview"`
			DurationSecs  float64 `json:"duration_secs"`
		}{"subagent_done", p.ID, p.Agent, previewOf(p.Result), math.Round(p.Elapsed.Seconds()*1000) / 1000})
	}
	return encode(struct {
		Type       string `json:"type"`
		SubagentID uint64 `json:"subagent_id"`
		AgentName  string `json:"agent_name"`
		Status     string `json:"status"`
	}{"subagent_update", p.ID, p.Agent, p.Status.String()})
}

// previewOf is the start of s on one line.
func previewOf(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= previewRunes {
		return s
	}
	return string([]rune(s)[:previewRunes-1]) + "…"
}

// countToolResult adds what a tool spent on models of its own (a
// subagent's answers) to the turn in flight.
func (s *server) countToolResult(m *core.ToolResultMessage) {
	u := agent.MessageUsage(m)
	if u.TotalTokens == 0 && u.Input == 0 && u.Output == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turn != nil {
		s.turn.usage = s.turn.usage.Add(u)
	}
}
