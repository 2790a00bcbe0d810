package tui

import (
	"github.com/cairn-dev/cairn/core"
)

// loadHistory fills the transcript with the conversation the session
// already holds (a resumed session). Items are drawn only when scrolled to.
func (m *Model) loadHistory() {
	m.showConversation(m.sess.Messages())
}

// showConversation adds msgs to the transcript as finished items.
func (m *Model) showConversation(msgs []core.Message) {
	m.todos.restore(msgs)
	calls := map[string]*toolItem{}
	for i, msg := range msgs {
		switch msg := msg.(type) {
		case *core.UserMessage:
			m.tr.add(newUserItem(msg))
		case *core.AssistantMessage:
			if retried(msgs, i) {
				// A failed attempt the session retried: the live screen
				// dropped it when the retry began, and so does this one.
				continue
			}
			m.tr.add(newAssistantItem(msg, false))
			for _, c := range msg.Content {
				if c.Type == core.ContentToolCall {
					// Not run until a result says otherwise: a call the
					// conversation holds no result for never ran.
					t := &toolItem{id: c.ID, name: c.Name, args: c.Arguments, state: toolNotRun}
					calls[c.ID] = t
					m.tr.add(t)
				}
			}
		case *core.ToolResultMessage:
			if t := calls[msg.ToolCallID]; t != nil {
				r := core.ToolResult{Content: msg.Content, Details: msg.Details, IsError: msg.IsError}
				t.finish(&r, m.now())
				delete(calls, msg.ToolCallID)
			}
		case *core.BashExecutionMessage:
			m.tr.add(finishedBashItem(msg))
		case *core.CompactionSummaryMessage:
			m.tr.add(&compactionItem{summary: msg.Summary, tokensBefore: msg.TokensBefore})
		case *core.BranchSummaryMessage:
			m.tr.add(&noticeItem{level: core.NotifyInfo, text: "Branch summary: " + msg.Summary})
		case *core.CustomMessage:
			if msg.Display {
				m.tr.add(&noticeItem{level: core.NotifyInfo, text: customText(msg)})
			}
		}
	}
}

// retried reports whether msgs[i] is an answer that failed and was tried
// again: an error the next answer follows.
func retried(msgs []core.Message, i int) bool {
	a := msgs[i].(*core.AssistantMessage)
	if a.StopReason != core.StopError || i+1 >= len(msgs) {
		return false
	}
	_, next := msgs[i+1].(*core.AssistantMessage)
	return next
}

// newUserItem shows a user message.
func newUserItem(msg *core.UserMessage) *userItem {
	u := &userItem{text: msg.Text()}
	for _, c := range msg.Content {
		if c.Type == core.ContentImage {
			u.images++
		}
	}
	return u
}
