package compaction

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// ErrEmptySummary is returned when the model answered a summary request
// with no text. Compacting with an empty summary would lose the history.
var ErrEmptySummary = errors.New("the model returned an empty summary")

// Compact asks the model for the summary that p plans and returns it
// finished (file lists appended), ready to be recorded as the compaction's
// summary. req carries the model, key, headers and session id of the
// caller; its system prompt, messages and tools are replaced, thinking is
// turned off, and the output is capped at 80% of p.Settings.ReserveTokens
// (50% for the beginning of a split turn, whose summary is requested at the
// same time, on its own goroutine). instructions, when not empty, says
// what the summary should pay attention to. A failed request is returned as
// an error carrying the provider's message; when ctx is cancelled the error
// wraps ctx.Err().
func Compact(ctx context.Context, prov provider.Provider, req provider.Request, p *Preparation, instructions string) (string, core.Usage, error) {
	if !p.IsSplitTurn() {
		summary, usage, err := summarize(ctx, prov, req, p, instructions)
		if err != nil {
			return "", usage, err
		}
		return FinishSummary(summary, p), usage, nil
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg                        sync.WaitGroup
		history, prefix           string
		historyUsage, prefixUsage core.Usage
		historyErr                error
	)
	if len(p.Summarize) > 0 {
		wg.Go(func() {
			history, historyUsage, historyErr = summarize(ctx, prov, req, p, instructions)
			if historyErr != nil {
				cancel()
			}
		})
	} else {
		history = p.PreviousSummary
	}
	system, messages := TurnPrefixRequest(p, instructions)
	prefix, prefixUsage, prefixErr := ask(ctx, prov, req, system, messages, outputLimit(p.Settings.ReserveTokens, 0.5, req.Model))
	if prefixErr != nil {
		cancel()
	}
	wg.Wait()
	usage := historyUsage.Add(prefixUsage)
	// Report the failure that caused the other request's cancellation.
	if historyErr != nil && (prefixErr == nil || errors.Is(prefixErr, context.Canceled)) {
		return "", usage, historyErr
	}
	if prefixErr != nil {
		return "", usage, fmt.Errorf("summarize the start of the current turn: %w", prefixErr)
	}
	return FinishSummary(MergeSummaries(history, prefix), p), usage, nil
}

// summarize runs p's history summary request.
func summarize(ctx context.Context, prov provider.Provider, req provider.Request, p *Preparation, instructions string) (string, core.Usage, error) {
	system, messages := SummaryRequest(p, instructions)
	summary, usage, err := ask(ctx, prov, req, system, messages, outputLimit(p.Settings.ReserveTokens, 0.8, req.Model))
	if err != nil {
		return "", usage, fmt.Errorf("summarize the conversation: %w", err)
	}
	return summary, usage, nil
}

// ask sends one summary request and returns the answer's text and what
// the request used.
func ask(ctx context.Context, prov provider.Provider, req provider.Request, system string, messages []core.Message, maxTokens int) (string, core.Usage, error) {
	req.System = system
	req.Messages = messages
	req.Tools = nil
	req.Thinking = core.ThinkingOff
	req.MaxTokens = maxTokens
	msg, err := prov.Stream(ctx, &req, func(provider.Event) {})
	if msg == nil && err == nil {
		err = errors.New("the provider returned no answer")
	}
	if err == nil && msg != nil && (msg.StopReason == core.StopError || msg.StopReason == core.StopAborted) {
		err = errors.New(msg.ErrorMessage)
		if msg.StopReason == core.StopAborted && ctx.Err() != nil {
			err = ctx.Err()
		}
	}
	var usage core.Usage
	if msg != nil {
		usage = msg.Usage
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			return "", usage, fmt.Errorf("%w: %w", ctxErr, err)
		}
		return "", usage, err
	}
	var parts []string
	for _, c := range msg.Content {
		if c.Type == core.ContentText && c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	text := strings.TrimSpace(strings.Join(parts, "\n"))
	if text == "" {
		return "", usage, ErrEmptySummary
	}
	return text, usage, nil
}

// outputLimit is share of the reserve, capped at the model's own output
// limit when it has one.
func outputLimit(reserve int, share float64, m core.Model) int {
	n := int(share * float64(reserve))
	if m.MaxTokens > 0 && n > m.MaxTokens {
		n = m.MaxTokens
	}
	if n <= 0 {
		return 0
	}
	return n
}
