package compaction

import "github.com/cairn-dev/cairn/core"

// Cut says where a conversation is divided: messages before FirstKept are
// summarised, the rest are kept verbatim. When the cut falls inside a turn
// (at an assistant message rather than at what started the turn),
// SplitTurnStart is the index of the turn's start, and the messages from
// there up to FirstKept are summarised separately as the beginning of that
// turn; otherwise it is -1.
type Cut struct {
	FirstKept      int
	SplitTurnStart int
}

// IsSplitTurn reports whether the cut divides a turn.
func (c Cut) IsSplitTurn() bool { return c.SplitTurnStart >= 0 }

// FindCutPoint chooses where to divide messages so that about
// keepRecentTokens of the newest ones are kept. It walks back from the
// newest message adding up estimates; at the message where the sum reaches
// the budget it cuts at the nearest message at or after it that may start
// the kept part (a user, assistant, `!` command, custom or summary message,
// never a tool result), or, when there is none, at the nearest one before
// it. A conversation within the budget is kept whole from its first such
// message. A cut never keeps a tool result without the call it answers.
func FindCutPoint(messages []core.Message, keepRecentTokens int) Cut {
	first := -1
	for i, m := range messages {
		if canStartKept(m) {
			first = i
			break
		}
	}
	if first < 0 {
		return Cut{FirstKept: 0, SplitTurnStart: -1}
	}
	cut := first
	sum := 0
	for i := len(messages) - 1; i >= 0; i-- {
		sum += EstimateTokens(messages[i])
		if sum < keepRecentTokens {
			continue
		}
		if c := nextCutPoint(messages, i); c >= 0 {
			cut = c
		} else if c := prevCutPoint(messages, i); c >= 0 {
			cut = c
		}
		break
	}
	cut = keepToolCalls(messages, cut)
	return Cut{FirstKept: cut, SplitTurnStart: splitTurnStart(messages, cut)}
}

// canStartKept reports whether the kept part may begin at m. A tool result
// may not: it must follow the assistant message that called the tool.
// Messages cairn does not know never reach the model and are skipped.
func canStartKept(m core.Message) bool {
	switch m.MessageRole() {
	case core.RoleUser, core.RoleAssistant, core.RoleBashExecution, core.RoleCustom,
		core.RoleBranchSummary, core.RoleCompactionSummary:
		_, raw := m.(*core.RawMessage)
		return !raw
	}
	return false
}

// startsTurn reports whether m opens a turn: it came from the person (or a
// host) rather than from the model or a tool.
func startsTurn(m core.Message) bool {
	switch m.MessageRole() {
	case core.RoleUser, core.RoleBashExecution, core.RoleCustom, core.RoleBranchSummary, core.RoleCompactionSummary:
		_, raw := m.(*core.RawMessage)
		return !raw
	}
	return false
}

func nextCutPoint(messages []core.Message, from int) int {
	for i := from; i < len(messages); i++ {
		if canStartKept(messages[i]) {
			return i
		}
	}
	return -1
}

func prevCutPoint(messages []core.Message, from int) int {
	for i := from - 1; i >= 0; i-- {
		if canStartKept(messages[i]) {
			return i
		}
	}
	return -1
}

// keepToolCalls moves cut back until every tool result it keeps has the
// assistant message with its call kept as well. A well-formed conversation
// needs no move (results directly follow their call); this guards against
// results that arrive after other messages.
func keepToolCalls(messages []core.Message, cut int) int {
	for {
		calls := map[string]bool{}
		moved := false
		for _, m := range messages[cut:] {
			switch m := m.(type) {
			case *core.AssistantMessage:
				for _, c := range m.Content {
					if c.Type == core.ContentToolCall {
						calls[c.ID] = true
					}
				}
			case *core.ToolResultMessage:
				if calls[m.ToolCallID] {
					continue
				}
				if i := callIndex(messages[:cut], m.ToolCallID); i >= 0 {
					cut, moved = i, true
				}
			}
			if moved {
				break
			}
		}
		if !moved {
			return cut
		}
	}
}

// callIndex returns the index of the assistant message that made the tool
// call id, or -1.
func callIndex(messages []core.Message, id string) int {
	for i := len(messages) - 1; i >= 0; i-- {
		a, ok := messages[i].(*core.AssistantMessage)
		if !ok {
			continue
		}
		for _, c := range a.Content {
			if c.Type == core.ContentToolCall && c.ID == id {
				return i
			}
		}
	}
	return -1
}

// splitTurnStart returns the start of the turn that a cut at index cut
// divides, or -1 when the cut is at a turn's start or no turn start precedes
// it.
func splitTurnStart(messages []core.Message, cut int) int {
	if cut >= len(messages) || startsTurn(messages[cut]) {
		return -1
	}
	for i := cut - 1; i >= 0; i-- {
		if startsTurn(messages[i]) {
			return i
		}
	}
	return -1
}
