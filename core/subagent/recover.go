package subagent

import (
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
)

// interruptedText answers a call of the answer cairn stopped in that was
// not a task call.
const interruptedText = "This tool call did not finish: cairn stopped while it ran."

// Interrupted returns the results that close the last answer of msgs when
// cairn stopped while its calls ran (a crash, kill -9): the answer's calls
// have no results yet. A task call's result says what its child had
// completed, from the child's transcript beside sessionPath (its steps,
// its last answer, its usage, which counts in the parent's); any other
// call's says it did not finish. Appended to the conversation, they make
// a resumed session show what each child did. None when the last message
// is not such an answer.
func Interrupted(msgs []core.Message, sessionPath string, now int64) []*core.ToolResultMessage {
	if len(msgs) == 0 {
		return nil
	}
	a, ok := msgs[len(msgs)-1].(*core.AssistantMessage)
	if !ok || a.StopReason != core.StopToolUse {
		return nil
	}
	calls := a.ToolCalls()
	if len(calls) == 0 {
		return nil
	}
	transcripts := Transcripts(sessionPath)
	out := make([]*core.ToolResultMessage, 0, len(calls))
	for _, c := range calls {
		res := &core.ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, IsError: true, Timestamp: now}
		if c.Name != ToolName {
			res.Content = []core.Content{core.TextBlock(interruptedText)}
		} else {
			res.Content, res.Details = interruptedTask(c, transcripts[fileID(c.ID)])
		}
		out = append(out, res)
	}
	return out
}

// interruptedTask is the result of a task call whose child was stopped
// with cairn: what its transcript holds.
func interruptedTask(c core.Content, transcript string) ([]core.Content, json.RawMessage) {
	var args Args
	_ = json.Unmarshal(c.Arguments, &args)
	d := Details{Agent: args.SubagentType, Task: args.Description, Status: "interrupted", Stopped: "interrupted", Transcript: transcript}
	text := "The subagent was interrupted: cairn stopped while it ran, before it answered."
	if transcript == "" {
		detail, _ := json.Marshal(d)
		return []core.Content{core.TextBlock(text + " It had completed nothing.")}, detail
	}
	steps, last := 0, ""
	if f, err := session.Open(transcript); err == nil {
		for _, m := range f.Context().Messages {
			switch m := m.(type) {
			case *core.AssistantMessage:
				d.Turns++
				d.Usage = d.Usage.Add(m.Usage)
				if t := m.Text(); t != "" {
					last = t
				}
			case *core.ToolResultMessage:
				steps++
			}
		}
		_ = f.Close()
	}
	text += fmt.Sprintf(" It had completed %d answers and %d tool calls; its transcript is %s.", d.Turns, steps, transcript)
	if last != "" {
		text += " What it had said last:\n\n" + cutAt(last, MaxAnswerBytes)
	}
	detail, _ := json.Marshal(d)
	return []core.Content{core.TextBlock(text)}, detail
}
