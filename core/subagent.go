package core

import "time"

// SubagentStatus is where a subagent (a child session run by the task
// tool) is in its work.
type SubagentStatus uint8

// The states of a subagent, in the order they come.
const (
	// SubagentStarted: the child was made and its first request is on
	// its way.
	SubagentStarted SubagentStatus = iota + 1
	// SubagentAnswering: the child's model is answering.
	SubagentAnswering
	// SubagentToolCall: the child is running a tool call (Step names it).
	SubagentToolCall
	// SubagentDone: the child has finished; Result holds the start of
	// its answer, or why it failed.
	SubagentDone
)

// String names the status, in the words hosts show ("running",
// "tool_call").
func (s SubagentStatus) String() string {
	switch s {
	case SubagentStarted:
		return "started"
	case SubagentAnswering:
		return "running"
	case SubagentToolCall:
		return "tool_call"
	case SubagentDone:
		return "done"
	}
	return "unknown"
}

// SubagentProgress is how far a running subagent has come, carried by the
// tool updates of its task call (ToolUpdate.Subagent), so every front end
// can show the child's work under the call that started it.
type SubagentProgress struct {
	// ID tells this subagent apart from every other of the process; it
	// only grows.
	ID uint64
	// Agent is the definition's name ("explore"); Task the call's short
	// description.
	Agent string
	Task  string
	// Status is where the child is; Step says it for people ("bash: ls",
	// "answering").
	Status SubagentStatus
	Step   string
	// Turns counts the child's model answers so far; Usage adds their
	// usage.
	Turns int
	Usage Usage
	// Elapsed is how long the child has run.
	Elapsed time.Duration
	// Result is the start of the child's answer, or why it failed
	// (SubagentDone); Failed says which.
	Result string
	Failed bool
	// Event is the child's event this update reports, when there is one
	// (its start, a tool call's start or end, an answer's end); front ends
	// that show the child's own events (pi's rpc details) read it.
	Event Event
}
