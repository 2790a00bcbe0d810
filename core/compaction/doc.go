// Package compaction shortens a conversation that has grown too long for the
// model's context window: it replaces the older part with a structured
// summary written by the model and keeps the most recent messages verbatim.
//
// The package holds everything compaction needs except persistence and
// events, which belong to the agent:
//
//   - measuring a conversation (EstimateTokens, ContextTokens) and deciding
//     when to compact (ShouldCompact) or whether a failed request overflowed
//     the window (IsContextOverflow);
//   - choosing what to keep (FindCutPoint) and gathering what to summarise
//     (Prepare), including the files the summarised part read and changed;
//   - the summary requests (SummaryRequest, TurnPrefixRequest), their merge
//     (MergeSummaries) and the file lists appended to the result
//     (FinishSummary);
//   - Compact, which runs those requests against a provider.
//
// The rules follow pi's compaction (shared/reference/pi.md §3): a cut never
// separates a tool result from its call, a single turn too large to keep is
// split and its beginning summarised on its own, and a second compaction
// updates the previous summary instead of starting over. The prompt wording
// is cairn's own.
package compaction
