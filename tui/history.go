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
	calls := map[string]*toolItem{}
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case *core.UserMessage:
			m.tr.add(newUserItem(msg))
		case *core.AssistantMessage:
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
