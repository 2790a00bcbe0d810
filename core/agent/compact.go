package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/compaction"
	"github.com/cairn-dev/cairn/core/provider"
)

// ErrNothingToCompact is returned when the conversation is too short to
// compact: compaction would keep all of it, so there is nothing to
// summarise (pi: "Nothing to compact (session too small)").
var ErrNothingToCompact = errors.New("nothing to compact: the conversation is no longer than what compaction keeps")

// Compact replaces the older part of the conversation with a summary the
// model writes, following instructions if given. An active prompt is
// aborted first, as in pi. Messages queued meanwhile are sent afterwards.
func (s *Session) Compact(ctx context.Context, instructions string) (core.CompactionResult, error) {
	return s.compact(ctx, instructions, true)
}

// CompactKeepingQueue compacts as Compact does, but messages queued
// meanwhile stay queued, as in pi 0.87.1's rpc mode: they go with the next
// prompt.
func (s *Session) CompactKeepingQueue(ctx context.Context, instructions string) (core.CompactionResult, error) {
	return s.compact(ctx, instructions, false)
}

func (s *Session) compact(ctx context.Context, instructions string, sendQueued bool) (core.CompactionResult, error) {
	if err := s.AbortAndWait(ctx); err != nil {
		return core.CompactionResult{}, err
	}
	s.mu.Lock()
	if s.run != nil || s.compacting {
		s.mu.Unlock()
		return core.CompactionResult{}, ErrBusy
	}
	s.compacting = true
	s.mu.Unlock()
	res, err := s.compactNow(ctx, instructions, core.CompactionManual)
	s.mu.Lock()
	s.compacting = false
	var pending []core.Message
	if s.run == nil && !s.closed {
		s.flushBashLocked()
		if sendQueued {
			pending = s.takeQueuedLocked()
		}
		if len(pending) > 0 {
			s.startRunLocked(pending)
		}
	}
	s.mu.Unlock()
	if len(pending) > 0 {
		s.publishQueue()
	}
	return res, err
}

// takeQueuedLocked removes the messages due next, steering first.
func (s *Session) takeQueuedLocked() []core.Message {
	q := &s.steering
	mode := s.cfg.SteeringMode
	if len(*q) == 0 {
		q, mode = &s.followUp, s.cfg.FollowUpMode
	}
	if len(*q) == 0 {
		return nil
	}
	n := 1
	if mode == AllAtOnce {
		n = len(*q)
	}
	out := make([]core.Message, n)
	for i := range n {
		out[i] = (*q)[i].msg
	}
	*q = slices.Clone((*q)[n:])
	return out
}

// maybeCompact compacts on its own: for reason threshold only when the
// context nears the window, for overflow always. It reports progress as
// auto_compaction events and returns whether compaction succeeded.
func (s *Session) maybeCompact(ctx context.Context, reason core.CompactionReason, willRetry bool) bool {
	s.mu.Lock()
	settings := s.compactionSettings()
	window := s.model.ContextWindow
	tokens := compaction.ContextTokens(s.messages)
	s.mu.Unlock()
	if !settings.Enabled || ctx.Err() != nil {
		return false
	}
	if reason == core.CompactionThreshold && !compaction.ShouldCompact(tokens, window, settings) {
		return false
	}
	s.publish(core.AutoCompactionStart{Reason: reason})
	s.setCompacting(true)
	res, err := s.compactNow(ctx, "", reason)
	s.setCompacting(false)
	end := core.AutoCompactionEnd{Reason: reason, Aborted: ctx.Err() != nil}
	if err == nil {
		end.Result = &res
		end.WillRetry = willRetry
	} else if !end.Aborted {
		end.ErrorMessage = "Auto-compaction failed: " + err.Error()
	}
	s.publish(end)
	return err == nil
}

func (s *Session) setCompacting(on bool) {
	s.mu.Lock()
	s.compacting = on
	s.mu.Unlock()
}

func (s *Session) compactionSettings() compaction.Settings {
	c := s.cfg.Compaction
	return compaction.Settings{Enabled: c.Enabled, ReserveTokens: c.ReserveTokens, KeepRecentTokens: c.KeepRecentTokens}
}

// compactNow summarises the older part of the conversation and replaces it.
// A conversation no longer than what compaction keeps is not compacted
// (ErrNothingToCompact), whatever the reason, as in pi 0.87. The
// BeforeCompact handlers see the prepared compaction, as pi's
// session_before_compact does, and may cancel it or supply their own.
func (s *Session) compactNow(ctx context.Context, instructions string, reason core.CompactionReason) (core.CompactionResult, error) {
	s.mu.Lock()
	all, allIDs, model := slices.Clone(s.messages), slices.Clone(s.entryIDs), s.model
	settings := s.compactionSettings()
	s.mu.Unlock()
	// System messages are not summarised: they fold into the checkpoint
	// that leads the compacted context, as in pi 0.87.
	system := core.SystemStateOf(all)
	msgs, ids := withoutSystem(all, allIDs)
	prev := ""
	if len(msgs) > 0 {
		if cs, ok := msgs[0].(*core.CompactionSummaryMessage); ok {
			prev = cs.Summary
		}
	}
	prep, ok := compaction.Prepare(msgs, prev, settings)
	if !ok {
		return core.CompactionResult{}, ErrNothingToCompact
	}
	first := prep.FirstKept
	firstID := ""
	if first < len(ids) {
		firstID = ids[first]
	}
	instructions, supplied, err := s.beforeCompact(ctx, reason, instructions, prep, firstID)
	if err != nil {
		return core.CompactionResult{}, err
	}
	var res core.CompactionResult
	if supplied != nil {
		if res, first, err = suppliedResult(supplied, prep, ids); err != nil {
			return core.CompactionResult{}, err
		}
	} else {
		conn, err := s.cfg.Open(model)
		if err != nil {
			return core.CompactionResult{}, err
		}
		req := provider.Request{Model: model, APIKey: conn.APIKey, Headers: conn.Headers}
		summary, usage, err := s.summarize(ctx, conn.Provider, req, prep, instructions, reason)
		if err != nil {
			return core.CompactionResult{}, fmt.Errorf("compaction: %w", err)
		}
		res = core.CompactionResult{Summary: summary, TokensBefore: prep.TokensBefore, Usage: usage}
	}
	summary := res.Summary
	res.ReadFiles, res.ModifiedFiles = prep.ReadFiles, prep.ModifiedFiles
	var lead []core.Message
	var leadIDs []string
	if system.Declared {
		res.SystemMessage = &core.SystemMessage{Content: system.Content, Sections: system.Sections, ToolsAdded: system.Tools, Timestamp: s.now(), Replayed: true}
		if res.SystemMessage.Sections == nil {
			res.SystemMessage.Sections = []core.PromptSection{}
		}
		lead, leadIDs = []core.Message{res.SystemMessage}, []string{""}
	}
	if first < len(ids) {
		res.FirstKeptEntryID = ids[first]
	}
	var entryID string
	if st := s.currentStore(); st != nil {
		if entryID, err = st.AppendCompaction(res); err != nil {
			s.storeFailed(err)
		}
	}
	summaryMsg := &core.CompactionSummaryMessage{Summary: summary, TokensBefore: res.TokensBefore, Timestamp: s.now()}
	s.mu.Lock()
	// Messages appended since the snapshot (none in practice: compaction
	// runs only between runs) are kept after the retained tail.
	tail := s.messages[len(all):]
	tailIDs := s.entryIDs[len(allIDs):]
	s.messages = slices.Concat(lead, []core.Message{summaryMsg}, msgs[first:], tail)
	s.entryIDs = slices.Concat(leadIDs, []string{entryID}, ids[first:], tailIDs)
	s.contextStale = true
	res.EstimatedTokensAfter = compaction.EstimateContext(s.messages)
	s.mu.Unlock()
	return res, nil
}

// summarize asks for the compaction's summary, and asks again after a
// transient failure (a 503, an overload, a dropped connection) as the
// retry settings allow, with summarization_retry_* events around the
// retries, as pi 0.87 does. usage is the successful request's.
func (s *Session) summarize(ctx context.Context, prov provider.Provider, req provider.Request, prep *compaction.Preparation, instructions string, reason core.CompactionReason) (summary string, usage core.Usage, err error) {
	retry := s.cfg.Retry
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			s.publish(core.SummarizationRetryAttemptStart{Reason: reason})
		}
		summary, usage, err = compaction.Compact(ctx, prov, req, prep, instructions)
		if err == nil || !retry.Enabled || attempt >= retry.MaxRetries || !provider.IsRetryable(err) || ctx.Err() != nil {
			if attempt > 0 {
				s.publish(core.SummarizationRetryFinished{})
			}
			return summary, usage, err
		}
		delay := retryDelay(retry, attempt+1)
		s.publish(core.SummarizationRetryScheduled{Attempt: attempt + 1, MaxAttempts: retry.MaxRetries, Delay: delay, ErrorMessage: errorText(err)})
		if serr := s.cfg.Sleep(ctx, delay); serr != nil {
			s.publish(core.SummarizationRetryFinished{})
			return "", usage, err
		}
	}
}

// errorText is a summary request's error as the provider worded it,
// without compaction's own context.
func errorText(err error) string {
	var perr *provider.Error
	if errors.As(err, &perr) {
		return perr.Error()
	}
	return err.Error()
}

// isOverflow reports whether an error answer means the context is too long.
func isOverflow(f *finalMessage, m core.Model) bool {
	return f.AssistantMessage != nil && compaction.IsContextOverflow(f.AssistantMessage, m.ContextWindow)
}

// withoutSystem returns msgs and their entry ids without the system
// messages.
func withoutSystem(msgs []core.Message, ids []string) ([]core.Message, []string) {
	outM := make([]core.Message, 0, len(msgs))
	outI := make([]string, 0, len(ids))
	for i, m := range msgs {
		if _, ok := m.(*core.SystemMessage); ok {
			continue
		}
		outM = append(outM, m)
		if i < len(ids) {
			outI = append(outI, ids[i])
		}
	}
	return outM, outI
}

// suppliedResult is the compaction a BeforeCompact handler wrote, and the
// index of the first message it keeps: from its FirstKeptEntryID, which
// must be a message of the conversation, or else where the preparation
// cut.
func suppliedResult(c *SuppliedCompaction, prep *compaction.Preparation, ids []string) (core.CompactionResult, int, error) {
	if strings.TrimSpace(c.Summary) == "" {
		return core.CompactionResult{}, 0, errors.New("compaction: the summary an extension supplied is empty")
	}
	first := prep.FirstKept
	if c.FirstKeptEntryID != "" {
		first = slices.Index(ids, c.FirstKeptEntryID)
		if first < 0 {
			return core.CompactionResult{}, 0, fmt.Errorf("compaction: the extension's compaction keeps from entry %q, which is not in the conversation", c.FirstKeptEntryID)
		}
	}
	tokens := c.TokensBefore
	if tokens <= 0 {
		tokens = prep.TokensBefore
	}
	return core.CompactionResult{Summary: c.Summary, TokensBefore: tokens, FromHook: true, Details: c.Details, Usage: c.Usage}, first, nil
}
