package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
)

// streamingID prefixes the stand-in id of a tool call whose id has not
// streamed in yet.
const streamingID = "streaming-"

// maxBatch bounds how many events one eventsMsg carries.
const maxBatch = 256

// pumpEvents forwards the session's events to the program until the
// subscription ends or done closes. Events already waiting are sent
// together, so a burst costs one Update. Nothing waits here for more: the
// model takes every delta in at once (an append) and draws on its one frame
// clock (see frameClock), so batching deltas in time here as well would only
// add latency.
func pumpEvents(events <-chan core.Event, send func(tea.Msg), done <-chan struct{}) {
	for {
		var first core.Event
		var ok bool
		select {
		case first, ok = <-events:
			if !ok {
				return
			}
		case <-done:
			return
		}
		batch, open := drainReady(events, eventsMsg{first})
		send(batch)
		if !open {
			return
		}
	}
}

// drainReady adds the events already waiting, without waiting for more;
// open is false when the subscription ended.
func drainReady(events <-chan core.Event, batch eventsMsg) (_ eventsMsg, open bool) {
	for len(batch) < maxBatch {
		select {
		case e, ok := <-events:
			if !ok {
				return batch, false
			}
			batch = append(batch, e)
		default:
			return batch, true
		}
	}
	return batch, true
}

// isDelta reports events that only move a stream along.
func isDelta(e core.Event) bool {
	switch e.(type) {
	case core.MessageUpdate, core.ToolExecutionUpdate:
		return true
	}
	return false
}

func onlyDeltas(batch eventsMsg) bool {
	for _, e := range batch {
		if !isDelta(e) {
			return false
		}
	}
	return true
}

// onEvents applies a batch of session events to the screen.
func (m *Model) onEvents(batch eventsMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, e := range batch {
		if cmd := m.onEvent(e); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) onEvent(e core.Event) tea.Cmd {
	m.draw.freshen(e)
	switch e := e.(type) {
	case core.AgentStart:
		if !m.busy {
			m.busy, m.busySince = true, m.now()
		}
		// A note about what came before ("Model: ...", "Interrupted.")
		// does not outlive the turn it preceded.
		m.status.clearNote()
	case core.MessageStart:
		m.onMessageStart(e.Message)
	case core.MessageUpdate:
		m.onMessageUpdate(e)
	case core.MessageEnd:
		m.onMessageEnd(e.Message)
	case core.ToolExecutionStart:
		t := m.toolEntry(e.ToolCallID, e.ToolName, e.Args)
		ti := t.it.(*toolItem)
		ti.start(m.now())
		t.touch()
	case core.ToolExecutionRunning:
		t := m.toolEntry(e.ToolCallID, e.ToolName, nil)
		t.it.(*toolItem).ran = true
	case core.ToolExecutionUpdate:
		t := m.toolEntry(e.ToolCallID, e.ToolName, e.Args)
		p := e.Partial
		t.it.(*toolItem).partial = &p
		t.it.(*toolItem).addProgress(p)
		t.touch()
	case core.ToolExecutionEnd:
		t := m.toolEntry(e.ToolCallID, e.ToolName, nil)
		r := e.Result
		t.it.(*toolItem).finish(&r, m.now())
		t.touch()
		m.todos.observe(e.ToolName, r)
		if m.approval != nil && m.approval.q.ToolCallID == e.ToolCallID {
			m.clearApproval()
		}
	case core.Question:
		return m.onQuestion(e)
	case core.QuestionClosed:
		m.onQuestionClosed(e)
	case core.TurnEnd:
		// The session announces an answer before it has stored it (the
		// session file is written in between); by the turn's end the
		// answer and its tool results are in, so the context's size is
		// read again.
		m.foot.context = m.sess.ContextUsage()
	case core.AgentEnd:
		m.onAgentEnd(e)
	case core.AutoRetryStart:
		m.onRetryStart(e)
	case core.AutoRetryEnd:
		m.onRetryEnd(e)
	case core.AutoCompactionStart:
		m.status.setKeyed("compaction", "Compacting the conversation…")
		m.compacting = true
	case core.AutoCompactionEnd:
		m.status.setKeyed("compaction", "")
		m.compacting = false
		switch {
		case e.Result != nil:
			m.tr.add(&compactionItem{summary: e.Result.Summary, tokensBefore: e.Result.TokensBefore})
			m.foot.context = m.sess.ContextUsage()
		case e.Aborted:
			m.say(core.NotifyWarning, "Compaction was cancelled.")
		case e.ErrorMessage != "":
			m.say(core.NotifyError, "Compaction failed: "+e.ErrorMessage)
		}
	case core.QueueUpdate:
		m.queue = e
	case core.ThinkingLevelChanged, core.ModelChanged:
		m.foot.refresh(m.sess)
	case core.SessionInfoChanged:
		m.foot.name = e.Name
	case core.ConversationReplaced:
		m.onConversationReplaced()
	case core.Notice:
		m.notify(e.Level, e.Message)
	case core.StatusChanged, core.WidgetChanged, core.TitleChanged, core.EditorTextSet:
		return m.onExtensionUI(e)
	case core.ChromeSet, core.WorkingChanged, core.RenderRequested, core.CustomEntryAdded:
		return m.onDrawingEvent(e)
	case core.ComponentShown, core.ComponentRendered, core.ComponentClosed, core.ComponentAction:
		return m.onComponent(e)
	case core.Settled:
		return m.onSettled(e)
	}
	return nil
}

func (m *Model) onMessageStart(msg core.Message) {
	switch msg := msg.(type) {
	case *core.UserMessage:
		m.tr.add(newUserItem(msg, &m.typed))
	case *core.AssistantMessage:
		m.current = m.tr.add(newAssistantItem(msg, true))
		clear(m.streamingCalls)
	case *core.CustomMessage:
		m.addCustomMessage(msg)
	}
}

func (m *Model) onMessageUpdate(e core.MessageUpdate) {
	if m.current == nil {
		m.current = m.tr.add(newAssistantItem(e.Message, true))
	}
	a := m.current.it.(*assistantItem)
	a.update(e.Message)
	if e.Kind == core.UpdateTextDelta {
		a.takeDelta(e.Index, e.Delta)
	}
	switch e.Kind {
	case core.UpdateToolCallStart, core.UpdateToolCallDelta, core.UpdateToolCallEnd:
		if e.Index < len(e.Message.Content) {
			c := e.Message.Content[e.Index]
			id := c.ID
			if id == "" {
				id = m.streamingCalls[e.Index]
			}
			if id == "" {
				id = fmt.Sprintf("%s%d", streamingID, e.Index)
			}
			m.streamingCalls[e.Index] = id
			t := m.toolEntry(id, c.Name, c.Arguments)
			t.it.(*toolItem).setArgs(c.Name, c.Arguments, e.Kind != core.UpdateToolCallEnd)
			t.touch()
		}
	default:
		m.current.touch()
	}
}

func (m *Model) onMessageEnd(msg core.Message) {
	a, ok := msg.(*core.AssistantMessage)
	if !ok {
		m.foot.addToolUsage(msg)
		if tr, ok := msg.(*core.ToolResultMessage); ok && core.HasStored(tr.Content) {
			// The session keeps a large result in its file: hold that
			// copy, not the one the tool returned.
			if e, ok := m.tools[tr.ToolCallID]; ok {
				e.it.(*toolItem).keep(tr.Content)
			}
		}
		return
	}
	if m.current == nil {
		m.current = m.tr.add(newAssistantItem(a, false))
	}
	it := m.current.it.(*assistantItem)
	it.update(a)
	it.streaming = false
	m.current.touch()
	for _, c := range a.Content {
		if c.Type == core.ContentToolCall {
			t := m.toolEntry(c.ID, c.Name, c.Arguments)
			t.it.(*toolItem).setArgs(c.Name, c.Arguments, false)
			t.touch()
		}
	}
	m.current = nil
	m.foot.addUsage(a, m.sess)
}

// toolEntry finds the entry of a tool call, adding one if it is new.
func (m *Model) toolEntry(id, name string, args []byte) *entry {
	if e, ok := m.tools[id]; ok {
		return e
	}
	// A call first seen while streaming had no id yet; adopt it.
	for idx, sid := range m.streamingCalls {
		if e, ok := m.tools[sid]; ok && sid != id && e.it.(*toolItem).name == name && strings.HasPrefix(sid, streamingID) {
			delete(m.tools, sid)
			m.streamingCalls[idx] = id
			m.tools[id] = e
			return e
		}
	}
	t := &toolItem{id: id, name: name, args: args}
	e := m.tr.add(t)
	m.tools[id] = e
	m.addToolCall(e)
	return e
}

// runningTools counts calls that have started and not finished.
func (m *Model) runningTools() int {
	n := 0
	for _, e := range m.tools {
		if e.it.(*toolItem).running() {
			n++
		}
	}
	return n
}

// onSettled ends a run: the queue is empty, and a failure that no answer
// showed is reported. (Waiting `!cmd` results joined the conversation
// before the session settled.)
func (m *Model) onSettled(e core.Settled) tea.Cmd {
	var alert tea.Cmd
	if m.busy {
		text := "Done: cairn is waiting for your next message."
		if e.Error != "" {
			text = "Stopped: " + e.Error
		}
		alert = m.alert(text)
	}
	m.busy = false
	m.retry = nil
	m.current = nil
	m.todos.endRun() // the list was this run's; /todos shows it again
	m.clearApproval()
	// Calls the run ended without starting (it was interrupted while they
	// streamed or waited) say so; finished calls need no lookups any
	// more, and the map only grows otherwise.
	for id, t := range m.tools {
		ti := t.it.(*toolItem)
		if ti.endUnrun() {
			t.touch()
		}
		if !ti.running() {
			delete(m.tools, id)
		}
	}
	if e.Error != "" && !m.lastItemShowsError() {
		m.say(core.NotifyError, e.Error)
	}
	m.sendHeld()
	m.foot.refresh(m.sess)
	m.foot.context = m.sess.ContextUsage()
	return alert
}

// lastItemShowsError reports whether the newest answer already shows the
// run's error.
func (m *Model) lastItemShowsError() bool {
	for i := len(m.tr.entries) - 1; i >= 0; i-- {
		if a, ok := m.tr.entries[i].it.(*assistantItem); ok {
			return a.msg.StopReason == core.StopError || a.msg.StopReason == core.StopAborted
		}
	}
	return false
}

func customText(m *core.CustomMessage) string {
	var s string
	for _, c := range m.Content {
		if c.Type == core.ContentText {
			s += c.Text
		}
	}
	return s
}
