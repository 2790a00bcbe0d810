package compaction

import (
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
)

// Settings configure compaction. They are pi's compaction settings, with the
// same names in settings.json.
type Settings struct {
	// Enabled turns automatic compaction on; /compact works either way.
	Enabled bool `json:"enabled"`
	// ReserveTokens is the room kept free for the model's answer: compaction
	// starts when the context leaves less than this. The summary request's
	// output limit is derived from it.
	ReserveTokens int `json:"reserveTokens"`
	// KeepRecentTokens is roughly how much of the newest conversation is
	// kept verbatim.
	KeepRecentTokens int `json:"keepRecentTokens"`
}

// DefaultSettings returns pi's defaults: enabled, 16,384 tokens reserved and
// 20,000 tokens kept.
func DefaultSettings() Settings {
	return Settings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}
}

// ShouldCompact reports whether a context of contextTokens leaves less than
// s.ReserveTokens of a window of contextWindow tokens, with automatic
// compaction enabled. An unknown window (zero or less) never triggers it.
func ShouldCompact(contextTokens, contextWindow int, s Settings) bool {
	if !s.Enabled || contextWindow <= 0 {
		return false
	}
	return contextTokens > contextWindow-s.ReserveTokens
}

// imageChars is what one image counts for in estimates: 4,800 characters,
// that is 1,200 tokens, as pi counts it.
const imageChars = 4800

// EstimateTokens guesses how many tokens a message takes in the context, at
// four characters a token (rounded up) and a fixed 1,200 tokens an image. It
// errs on the high side for English text and code. Messages that never reach
// the model (a `!!` command, an unknown role) count nothing.
func EstimateTokens(m core.Message) int {
	var chars int
	switch m := m.(type) {
	case *core.UserMessage:
		chars = contentChars(m.Content)
	case *core.AssistantMessage:
		for _, c := range m.Content {
			switch c.Type {
			case core.ContentText:
				chars += utf8.RuneCountInString(c.Text)
			case core.ContentThinking:
				chars += utf8.RuneCountInString(c.Thinking)
			case core.ContentToolCall:
				chars += utf8.RuneCountInString(c.Name) + utf8.RuneCount(c.Arguments)
			}
		}
	case *core.ToolResultMessage:
		chars = contentChars(m.Content)
	case *core.CustomMessage:
		chars = contentChars(m.Content)
	case *core.BashExecutionMessage:
		if m.ExcludeFromContext {
			return 0
		}
		chars = utf8.RuneCountInString(m.Command) + utf8.RuneCountInString(m.Output)
	case *core.CompactionSummaryMessage:
		chars = utf8.RuneCountInString(m.Summary)
	case *core.BranchSummaryMessage:
		chars = utf8.RuneCountInString(m.Summary)
	}
	return (chars + 3) / 4
}

func contentChars(content []core.Content) int {
	var n int
	for i := range content {
		switch c := &content[i]; c.Type {
		case core.ContentText:
			if c.Stored != nil {
				n += c.Stored.Len() // bytes: not read back to count runes
			} else {
				n += utf8.RuneCountInString(c.Text)
			}
		case core.ContentImage:
			n += imageChars
		}
	}
	return n
}

// ContextTokens is how large the conversation is as the model sees it. Like
// pi, it trusts the usage the provider reported for the newest assistant
// message that completed (input, output and cache tokens: that request's
// context plus its answer) and adds estimates for the messages after it;
// without such a message it estimates everything.
//
// Usage recorded before the conversation's leading compaction summary
// measured the conversation before it was compacted, so it is ignored.
func ContextTokens(messages []core.Message) int {
	var compactedAt int64
	if s := leadingSummary(messages); s != nil {
		compactedAt = s.Timestamp
	}
	for i := len(messages) - 1; i >= 0; i-- {
		a, ok := messages[i].(*core.AssistantMessage)
		if !ok || a.StopReason == core.StopError || a.StopReason == core.StopAborted {
			continue
		}
		if compactedAt != 0 && a.Timestamp <= compactedAt {
			break
		}
		used := usageTokens(a.Usage)
		if used == 0 {
			continue
		}
		for _, m := range messages[i+1:] {
			used += EstimateTokens(m)
		}
		return used
	}
	total := 0
	for _, m := range messages {
		total += EstimateTokens(m)
	}
	return total
}

// usageTokens is the context one request filled: its total when the
// provider gave one, else the sum of the parts.
func usageTokens(u core.Usage) int {
	if u.TotalTokens > 0 {
		return u.TotalTokens
	}
	return u.Input + u.Output + u.CacheRead + u.CacheWrite
}

// leadingSummary is the compaction summary a compacted conversation starts
// with, after any system messages (pi 0.87's checkpoint), or nil.
func leadingSummary(messages []core.Message) *core.CompactionSummaryMessage {
	for _, m := range messages {
		switch m := m.(type) {
		case *core.SystemMessage:
			continue
		case *core.CompactionSummaryMessage:
			return m
		}
		return nil
	}
	return nil
}

// EstimateContext estimates the tokens of messages by their text alone,
// as pi's estimatedTokensAfter does for a freshly compacted context.
func EstimateContext(messages []core.Message) int {
	total := 0
	for _, m := range messages {
		total += EstimateTokens(m)
	}
	return total
}
