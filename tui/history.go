package tui

import (
	"github.com/cairn-dev/cairn/core"
)

// loadHistory fills the transcript with the conversation the session
// already holds (a resumed session). Items are drawn only when scrolled to.
func (m *Model) loadHistory() {
	m.showConversation(m.sess.Messages())
}

// showConversation adds msgs to the transcript as finished items: those
// of the last turns at once (at least historyChunk messages, from a
// prompt), the older ones a chunk at a time when the view scrolls up to
// them (transcript.older), so a long session's items are not all made
// before its first screen.
func (m *Model) showConversation(msgs []core.Message) {
	m.todos.restore(msgs)
	end := len(msgs)
	start := chunkStart(msgs, end)
	m.addItems(&m.tr, msgs, start, end)
	if start == 0 {
		return
	}
	m.tr.older = func() []item {
		if start == 0 {
			return nil
		}
		end := start
		start = chunkStart(msgs, end)
		var part transcript
		m.addItems(&part, msgs, start, end)
		items := make([]item, len(part.entries))
		for i, e := range part.entries {
			items[i] = e.it
		}
		return items
	}
}

// historyChunk is how many messages, at least, showConversation makes
// items for at a time.
const historyChunk = 200

// chunkStart is where the chunk of msgs that ends at end begins: at a
// prompt at least historyChunk messages back (a turn's tool calls and
// their results stay together), or at 0.
func chunkStart(msgs []core.Message, end int) int {
	for i := end - historyChunk; i > 0; i-- {
		if _, ok := msgs[i].(*core.UserMessage); ok {
			return i
		}
	}
	return 0
}

// addItems adds the items of msgs[start:end] to t.
func (m *Model) addItems(t *transcript, msgs []core.Message, start, end int) {
	calls := map[string]*toolItem{}
	for i := start; i < end; i++ {
		switch msg := msgs[i].(type) {
		case *core.UserMessage:
			// Only the text itself is read here (this may run off the
			// UI loop, for older messages): a skill shows as typed, a
			// template as expanded.
			t.add(newUserItem(msg, nil))
		case *core.AssistantMessage:
			if retried(msgs, i) {
				// A failed attempt the session retried: the live screen
				// dropped it when the retry began, and so does this one.
				continue
			}
			t.add(newAssistantItem(msg, false))
			for _, c := range msg.Content {
				if c.Type == core.ContentToolCall {
					// Not run until a result says otherwise: a call the
					// conversation holds no result for never ran.
					tc := &toolItem{id: c.ID, name: c.Name, args: c.Arguments, state: toolNotRun}
					calls[c.ID] = tc
					t.add(tc)
				}
			}
		case *core.ToolResultMessage:
			if tc := calls[msg.ToolCallID]; tc != nil {
				r := core.ToolResult{Content: msg.Content, Details: msg.Details, IsError: msg.IsError}
				tc.finish(&r, m.now())
				delete(calls, msg.ToolCallID)
			}
		case *core.BashExecutionMessage:
			t.add(finishedBashItem(msg))
		case *core.CompactionSummaryMessage:
			t.add(&compactionItem{summary: msg.Summary, tokensBefore: msg.TokensBefore})
		case *core.BranchSummaryMessage:
			t.add(&noticeItem{level: core.NotifyInfo, text: "Branch summary: " + msg.Summary})
		case *core.CustomMessage:
			if msg.Display {
				t.add(&noticeItem{level: core.NotifyInfo, text: customText(msg)})
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

// newUserItem shows a user message, as the person typed it when typed
// (which may be nil) knows how.
func newUserItem(msg *core.UserMessage, typed *typedPrompts) *userItem {
	u := &userItem{text: msg.Text()}
	lookup := parseSkillPrompt
	if typed != nil {
		lookup = typed.lookup
	}
	if p, ok := lookup(u.text); ok {
		u.typed = &p
	}
	for _, c := range msg.Content {
		if c.Type == core.ContentImage {
			u.images++
		}
	}
	return u
}
