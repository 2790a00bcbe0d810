package agent

import (
	"context"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/compaction"
)

// An answer cut at the output limit while it was still below the model's
// own maximum was cut because the context left too little room. As pi
// 0.87.1 does (its isRecoverableLength and _omitRecoveryAttempt), the cut
// answer and the tool results that followed it leave the context, each
// recorded as a context_edit entry, and the conversation is compacted and
// the turn tried again, once; when there is nothing to compact the run
// ends there, the cut answer left out.

// truncatedRecoveryFailed is pi's message when the retried answer is cut
// again.
const truncatedRecoveryFailed = "Truncated response recovery failed after one compact-and-retry attempt."

// recoverableLength reports whether final is such a cut answer of the
// current model, with automatic compaction on.
func (s *Session) recoverableLength(final *finalMessage) bool {
	if final == nil || final.AssistantMessage == nil || final.StopReason != core.StopLength || !s.cfg.Compaction.Enabled {
		return false
	}
	m := s.currentModel()
	// The limit the answer was meant to have: the model's, or the
	// person's --max-tokens when lower (an answer that reached it was cut
	// as asked, not for want of room).
	desired := m.MaxTokens
	if s.cfg.MaxTokens > 0 && (desired == 0 || s.cfg.MaxTokens < desired) {
		desired = s.cfg.MaxTokens
	}
	return final.Provider == m.Provider && final.Model == m.ID && desired > 0 && final.Usage.Output < desired
}

// recoverCutAnswer runs that recovery. It reports whether the turn is to
// be tried again. retried says a recovery already ran in this prompt's
// run: then pi only reports that it failed.
func (s *Session) recoverCutAnswer(ctx context.Context, retried bool) bool {
	if retried {
		s.publish(core.AutoCompactionEnd{Reason: core.CompactionOverflow, ErrorMessage: truncatedRecoveryFailed})
		return false
	}
	for _, e := range s.omitCutAnswer() {
		s.publish(e)
	}
	if !s.compactable() {
		return false
	}
	return s.maybeCompact(ctx, core.CompactionOverflow, true)
}

// omitCutAnswer takes the last answer and the tool results after it out of
// the context and records a context_edit entry for each (the answer
// first), returning the entry_appended events to publish.
func (s *Session) omitCutAnswer() []core.Event {
	s.mu.Lock()
	n := len(s.messages)
	start := n
	for start > 0 {
		if _, ok := s.messages[start-1].(*core.ToolResultMessage); !ok {
			break
		}
		start--
	}
	if start == 0 {
		s.mu.Unlock()
		return nil
	}
	if _, ok := s.messages[start-1].(*core.AssistantMessage); !ok {
		s.mu.Unlock()
		return nil
	}
	start--
	ids := append([]string(nil), s.entryIDs[start:n]...)
	s.messages = s.messages[:start]
	s.entryIDs = s.entryIDs[:start]
	s.contextStale = true
	s.mu.Unlock()
	ed, ok := s.currentStore().(contextEditor)
	if !ok {
		return nil
	}
	var out []core.Event
	for _, id := range ids {
		if id == "" {
			continue
		}
		e, err := ed.AppendContextEdit(id)
		if err != nil {
			s.storeFailed(err)
			return out
		}
		out = append(out, core.EntryAppended{Entry: e})
	}
	return out
}

// compactable reports whether compaction would find anything to summarise
// (pi starts no compaction, and says nothing, when it would not).
func (s *Session) compactable() bool {
	s.mu.Lock()
	all, ids := s.messages, s.entryIDs
	settings := s.compactionSettings()
	msgs, _ := withoutSystem(all, ids)
	prev := ""
	if len(msgs) > 0 {
		if cs, ok := msgs[0].(*core.CompactionSummaryMessage); ok {
			prev = cs.Summary
		}
	}
	_, ok := compaction.Prepare(msgs, prev, settings)
	s.mu.Unlock()
	return ok
}
