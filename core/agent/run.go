package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/toolset"
)

// startRunLocked begins a prompt on its own goroutine. s.mu is held.
func (s *Session) startRunLocked(pending []core.Message) {
	ctx, cancel := context.WithCancel(s.base)
	r := &activeRun{cancel: cancel, done: make(chan struct{})}
	s.run = r
	s.runs.Add(1)
	go func() {
		defer s.runs.Done()
		defer close(r.done)
		defer cancel()
		s.checkpointBefore(ctx, pending)
		finalErr := s.work(ctx, pending)
		aborted := ctx.Err() != nil
		s.checkpointAfter()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.run = nil
		s.flushBashLocked()
		s.publish(core.Settled{Error: finalErr, Aborted: aborted})
	}()
}

// work runs one accepted prompt to its settled state: the agent loop, then
// any retries and compactions it calls for. It returns the final error text.
func (s *Session) work(ctx context.Context, pending []core.Message) string {
	retry := s.cfg.Retry
	attempt := 0
	overflowRetried := false
	lengthRetried := false // a cut answer's recovery ran (see lengthcut.go)
	if pending = s.prepareRun(ctx, pending); len(pending) == 0 {
		return "" // every message was handled or blocked by an interceptor
	}
	for {
		final, added := s.runAgent(ctx, pending, attempt)
		pending = nil
		if final == nil || final.StopReason != core.StopError {
			s.publish(core.AgentEnd{Messages: added})
			if attempt > 0 && final != nil && final.StopReason == core.StopAborted {
				s.publish(core.AutoRetryEnd{Success: false, Attempt: attempt, FinalError: "aborted"})
			}
			if s.recoverableLength(final) {
				retried := lengthRetried
				lengthRetried = true
				if s.recoverCutAnswer(ctx, retried) {
					continue
				}
				return ""
			}
			s.maybeCompact(ctx, core.CompactionThreshold, false)
			if final != nil && final.StopReason == core.StopAborted {
				return final.ErrorMessage
			}
			return ""
		}
		if isOverflow(final, s.currentModel()) && !overflowRetried && s.cfg.Compaction.Enabled {
			overflowRetried = true
			s.publish(core.AgentEnd{Messages: added, WillRetry: true})
			s.dropLastError()
			if s.maybeCompact(ctx, core.CompactionOverflow, true) {
				continue
			}
			return final.ErrorMessage
		}
		retryAfter := final.retryAfter()
		tooLong := retry.MaxDelay > 0 && retryAfter > retry.MaxDelay
		if retry.Enabled && attempt < retry.MaxRetries && final.retryable() && !tooLong {
			s.publish(core.AgentEnd{Messages: added, WillRetry: true})
			attempt++
			delay := retryDelay(retry, attempt)
			if retryAfter > 0 {
				// The server knows when it will take us again; an
				// earlier retry only spends an attempt on a sure refusal.
				delay = retryAfter
			}
			// As in pi 0.87, the failed attempt leaves the context before
			// the wait, so a cancelled retry leaves it out too, and its
			// entry_appended follows auto_retry_start with nothing between
			// them: s.mu keeps a steer or follow-up out meanwhile.
			dropped := s.dropFailedAttempt()
			s.mu.Lock()
			s.publish(core.AutoRetryStart{Attempt: attempt, MaxAttempts: retry.MaxRetries, Delay: delay, ErrorMessage: final.ErrorMessage})
			if dropped != nil {
				s.publish(dropped)
			}
			s.mu.Unlock()
			if err := s.cfg.Sleep(ctx, delay); err != nil {
				s.publish(core.AutoRetryEnd{Success: false, Attempt: attempt, FinalError: "retry aborted"})
				return "retry aborted"
			}
			continue
		}
		s.publish(core.AgentEnd{Messages: added})
		errText := final.ErrorMessage
		if tooLong && retry.Enabled && final.retryable() {
			// Not retried because the wait is longer than we are willing
			// to hold the turn; say when trying again can succeed.
			errText += fmt.Sprintf("; the server asks to retry in %s; try again after %s",
				retryAfter.Round(time.Second), s.cfg.Now().Add(retryAfter).Local().Format("15:04:05"))
		}
		if attempt > 0 {
			s.publish(core.AutoRetryEnd{Success: false, Attempt: attempt, FinalError: errText})
		}
		return errText
	}
}

// runAgent is one run: agent_start, then turns until the model stops and
// no queued message is left. It returns the last assistant message and the
// messages the run added; the caller publishes agent_end, once it knows
// whether a retry follows. retrying is the retry attempt this run is, 0
// for the first.
func (s *Session) runAgent(ctx context.Context, pending []core.Message, retrying int) (*finalMessage, []core.Message) {
	s.publish(core.AgentStart{})
	var added []core.Message
	var last *core.AssistantMessage
	var lastErr error
	// answering says the last turn's tool results await the model's
	// answer; continued counts Stop handlers' continuations.
	answering, continued := false, 0
	// dequeued is where in pending the messages taken from the queues
	// start (-1: none). As in pi 0.87, queue_update announces them just
	// before they enter the conversation, after the turn's turn_start.
	dequeued := -1
	// queue is the queue they came from, told to the Input handlers (pi's
	// streamingBehavior).
	var queue Behavior
	if steering := s.takeSteering(); len(steering) > 0 {
		dequeued, queue = len(pending), BehaviorSteer
		pending = append(pending, steering...)
	}
	starting := s.waitForTools(ctx)
	for {
		admitted := s.admitQueued(ctx, pending, dequeued, queue)
		if !answering && len(pending) > 0 && len(slices.Concat(admitted...)) == 0 {
			// Interceptors took every message: nothing to ask the model,
			// unless a follow-up waits.
			if dequeued >= 0 {
				s.dropEntering()
			}
			if follow := s.takeFollowUp(); len(follow) > 0 {
				pending, dequeued, queue = follow, 0, BehaviorFollowUp
				continue
			}
			pending, dequeued = nil, -1
			break
		}
		s.publish(core.TurnStart{})
		tools := s.cfg.Toolset.Tools()
		if m := s.declareSystem(tools); m != nil {
			added = append(added, m)
		}
		for i, ms := range admitted {
			if dequeued >= 0 && i >= dequeued {
				s.enterQueued()
			}
			for _, m := range ms {
				s.appendMessage(m)
				added = append(added, m)
			}
		}
		if starting != nil {
			s.appendMessage(starting)
			added = append(added, starting)
			starting = nil
		}
		pending, dequeued = nil, -1
		msg, err := s.streamTurn(ctx, tools)
		last, lastErr = msg, err
		added = append(added, msg)
		if msg.StopReason == core.StopError || msg.StopReason == core.StopAborted {
			s.publish(core.TurnEnd{Message: msg, ToolResults: []*core.ToolResultMessage{}})
			s.turnEnded(ctx, msg, nil)
			break
		}
		if retrying > 0 {
			s.publish(core.AutoRetryEnd{Success: true, Attempt: retrying})
			retrying = 0
		}
		results, extra, steering, terminate := s.runTools(ctx, msg)
		for _, r := range results {
			added = append(added, r)
		}
		added = append(added, extra...)
		// Tool results the model is to read, unless the tools ended the
		// run (pi's terminate).
		answering = len(results) > 0 && !terminate
		s.publish(core.TurnEnd{Message: msg, ToolResults: results})
		s.turnEnded(ctx, msg, results)
		if ctx.Err() != nil {
			break
		}
		if len(steering) == 0 {
			steering = s.takeSteering()
		}
		if len(steering) > 0 {
			pending, dequeued, queue = steering, 0, BehaviorSteer
			continue
		}
		if answering {
			continue
		}
		if follow := s.takeFollowUp(); len(follow) > 0 {
			pending, dequeued, queue = follow, 0, BehaviorFollowUp
			continue
		}
		if m := s.stopping(ctx, msg, added, &continued); m != nil {
			pending = []core.Message{m}
			continue
		}
		// A Stop handler (pi's agent_end) may have queued a follow-up.
		if follow := s.takeFollowUp(); len(follow) > 0 {
			pending, dequeued = follow, 0
			continue
		}
		break
	}
	if dequeued >= 0 {
		// Taken from the queue, then the run stopped (aborted): the queue
		// changed all the same.
		s.dropEntering()
	}
	if last == nil {
		return nil, added
	}
	return &finalMessage{AssistantMessage: last, err: lastErr}, added
}

// finalMessage is a run's last assistant message with the provider error
// that ended it, if any.
type finalMessage struct {
	*core.AssistantMessage
	err error
}

// retryAfter is how long the provider asked us to wait before trying
// again, or 0 when it did not say.
func (f *finalMessage) retryAfter() time.Duration {
	var perr *provider.Error
	if errors.As(f.err, &perr) {
		return perr.RetryAfter
	}
	return 0
}

func (f *finalMessage) retryable() bool {
	if f.err != nil {
		return provider.IsRetryable(f.err)
	}
	return false
}

// waitForTools waits, within the toolset's limit, for tools still starting
// (MCP servers), so the first request declares them, and tells every front
// end what it waits for, what it gave up on and what failed. It returns a
// message for the model when it gave up on some (nil otherwise), so the
// model knows their tools are coming rather than missing.
func (s *Session) waitForTools(ctx context.Context) core.Message {
	var gaveUp []string
	s.cfg.Toolset.Wait(ctx, func(n toolset.Note) {
		level := core.NotifyWarning
		if n.Kind == toolset.NoteWaiting {
			level = core.NotifyInfo
		}
		if n.Kind == toolset.NoteGaveUp {
			for _, name := range n.Names {
				gaveUp = append(gaveUp, fmt.Sprintf("%s %q", n.Part, name))
			}
		}
		s.publish(core.Notice{Level: level, Message: n.String()})
	})
	if len(gaveUp) == 0 {
		return nil
	}
	text := fmt.Sprintf("Still starting, so their tools are not available yet: %s. "+
		"(A server started through npx or uvx can take a minute on its first run.) "+
		"Their tools are added to your tools as soon as they are ready.",
		strings.Join(gaveUp, ", "))
	details, _ := json.Marshal(map[string]string{"from": "tools still starting"})
	return &core.CustomMessage{CustomType: ContextMessageType, Content: []core.Content{core.TextBlock(text)},
		Display: true, Details: details, Timestamp: s.now()}
}

// streamTurn makes one model request with the conversation so far and the
// tools available now, and publishes the assistant message as it streams.
func (s *Session) streamTurn(ctx context.Context, tools []core.Tool) (*core.AssistantMessage, error) {
	s.mu.Lock()
	model, thinking := s.model, s.thinking
	history := core.ToLLM(s.messages)
	s.mu.Unlock()
	history = s.interceptContext(ctx, history)
	conn, err := s.cfg.Open(model)
	if err != nil {
		msg := &core.AssistantMessage{API: model.API, Provider: model.Provider, Model: model.ID, StopReason: core.StopError, ErrorMessage: err.Error(), Timestamp: s.now()}
		s.publish(core.MessageStart{Message: snapshot(msg)})
		s.publish(core.MessageEnd{Message: msg})
		s.appendMessage(msg)
		return msg, err
	}
	req := &provider.Request{
		Model:    model,
		System:   joinSections(s.systemSections(tools)),
		Messages: history,
		Tools:    toolSpecs(tools),
		Thinking: thinking,
		APIKey:   conn.APIKey,
		Headers:  conn.Headers,
		Hooks:    s.payloadHooks(),
	}
	if n := s.cfg.MaxTokens; n > 0 && (model.MaxTokens <= 0 || n < model.MaxTokens) {
		req.MaxTokens = n
	}
	started := false
	emit := func(e provider.Event) {
		switch e.Type {
		case provider.EventStart:
			started = true
			// An answer that has only begun has no stop reason yet.
			begun := snapshot(e.Message)
			begun.StopReason = ""
			s.publish(core.MessageStart{Message: begun})
		default:
			if k := updateKinds[e.Type]; k != 0 {
				s.publish(core.MessageUpdate{Kind: k, Index: e.Index, Delta: e.Delta, Message: snapshot(e.Message)})
			}
		}
	}
	msg, err := conn.Provider.Stream(ctx, req, emit)
	if !started {
		s.publish(core.MessageStart{Message: snapshot(msg)})
	}
	s.publish(core.MessageEnd{Message: msg})
	s.appendMessage(msg)
	if msg.StopReason != core.StopError && msg.StopReason != core.StopAborted {
		s.mu.Lock()
		s.contextStale = false
		s.mu.Unlock()
	}
	return msg, err
}

// updateKinds maps the provider's block events to the core's update kinds;
// the others (start, usage, done, error) are not updates.
var updateKinds = [...]core.UpdateKind{
	provider.EventTextStart:     core.UpdateTextStart,
	provider.EventTextDelta:     core.UpdateTextDelta,
	provider.EventTextEnd:       core.UpdateTextEnd,
	provider.EventThinkingStart: core.UpdateThinkingStart,
	provider.EventThinkingDelta: core.UpdateThinkingDelta,
	provider.EventThinkingEnd:   core.UpdateThinkingEnd,
	provider.EventToolCallStart: core.UpdateToolCallStart,
	provider.EventToolCallDelta: core.UpdateToolCallDelta,
	provider.EventToolCallEnd:   core.UpdateToolCallEnd,
	provider.EventError:         0,
}

// systemSections is the system prompt for tools, in sections (one named
// "prompt" when the config gives only text).
func (s *Session) systemSections(tools []core.Tool) []core.PromptSection {
	if s.cfg.SystemSections != nil {
		return append(s.cfg.SystemSections(tools), s.addedSections()...)
	}
	var secs []core.PromptSection
	if text := s.cfg.SystemPrompt(tools); text != "" {
		secs = []core.PromptSection{{Name: "prompt", Text: text}}
	}
	return append(secs, s.addedSections()...)
}

// joinSections is the prompt text of sections.
func joinSections(secs []core.PromptSection) string {
	texts := make([]string, len(secs))
	for i, sec := range secs {
		texts[i] = sec.Text
	}
	return strings.Join(texts, "\n\n")
}

// declareSystem adds a system message when the conversation has not yet
// declared the current prompt and tools, as pi 0.87 does at a run's start,
// and again before a request whose tools changed (a server connected or
// changed its tools): the whole of them when nothing was declared, else a
// replacement. It returns the message, or nil when nothing changed.
func (s *Session) declareSystem(current []core.Tool) core.Message {
	if s.cfg.SystemSections == nil {
		return nil // the prompt is plain text: nothing to declare
	}
	secs := s.systemSections(current)
	tools := toolSpecs(current)
	s.mu.Lock()
	st := core.SystemStateOf(s.messages)
	s.mu.Unlock()
	if st.Same(secs, tools) {
		return nil
	}
	m := &core.SystemMessage{Sections: secs, ToolsAdded: tools, Replace: st.Declared, Timestamp: s.now()}
	if m.Sections == nil {
		m.Sections = []core.PromptSection{}
	}
	s.appendMessage(m)
	return m
}

// snapshot copies a streaming message so subscribers on other goroutines
// can read it while the stream goes on. Strings are immutable, so copying
// the struct and the block slice is enough: O(blocks), not O(text).
func snapshot(m *core.AssistantMessage) *core.AssistantMessage {
	c := *m
	c.Content = append([]core.Content(nil), m.Content...)
	return &c
}

func toolSpecs(tools []core.Tool) []core.ToolSpec {
	specs := make([]core.ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = t.Spec()
	}
	return specs
}

// appendMessage persists m, adds it to the conversation and publishes its
// start and end (assistant messages publish their own). It returns the
// message as the conversation holds it: the session's stored copy when the
// store keeps one (a large tool result read back from the file).
func (s *Session) appendMessage(m core.Message) core.Message {
	var id string
	var storeErr error
	if st := s.currentStore(); st != nil {
		if id, storeErr = st.AppendMessage(m); storeErr == nil {
			if k, ok := st.(keeper); ok {
				if kept := k.KeptMessage(id); kept != nil {
					m = kept
				}
			}
		}
	}
	// Published after it is written, so what subscribers keep is the
	// stored copy, large tool results included (read back when drawn).
	if _, ok := m.(*core.AssistantMessage); !ok {
		s.publish(core.MessageStart{Message: m})
		s.publish(core.MessageEnd{Message: m})
	}
	if storeErr != nil {
		s.storeFailed(storeErr)
	}
	s.mu.Lock()
	s.messages = append(s.messages, m)
	s.entryIDs = append(s.entryIDs, id)
	if _, ok := m.(*core.UserMessage); ok && s.run != nil {
		s.run.prompted = true
	}
	s.mu.Unlock()
	return m
}

// keeper is a Store that keeps its own copy of a message once written, with
// large tool results read back from disk when needed (*session.File): the
// session holds that copy instead of the one it wrote.
type keeper interface {
	KeptMessage(id string) core.Message
}

// storeFailed tells whoever is watching that the session file could not be
// written; the conversation goes on in memory.
func (s *Session) storeFailed(err error) {
	s.publish(core.Notice{Level: core.NotifyError, Message: "could not save the session: " + err.Error()})
}

// dropLastError removes a failed assistant message from the context, so a
// retry does not send it; it stays in the session file.
func (s *Session) dropLastError() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.messages)
	if n == 0 {
		return ""
	}
	if a, ok := s.messages[n-1].(*core.AssistantMessage); ok && a.StopReason == core.StopError {
		id := s.entryIDs[n-1]
		s.messages = s.messages[:n-1]
		s.entryIDs = s.entryIDs[:n-1]
		return id
	}
	return ""
}

// contextEditor is a Store that records context edits (*session.File).
type contextEditor interface {
	AppendContextEdit(targetID string) (session.Entry, error)
}

// dropFailedAttempt leaves the failed attempt out of the context and, as
// pi 0.87 does, records that in the session as a context_edit entry, so a
// session read again (or mirrored by a host through entry_appended) leaves
// it out too. It returns the entry_appended event that announces the
// entry, for the caller to publish, or nil.
func (s *Session) dropFailedAttempt() core.Event {
	id := s.dropLastError()
	ed, ok := s.currentStore().(contextEditor)
	if id == "" || !ok {
		return nil
	}
	e, err := ed.AppendContextEdit(id)
	if err != nil {
		s.storeFailed(err)
		return nil
	}
	return core.EntryAppended{Entry: e}
}

func (s *Session) currentModel() core.Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}
