// Package tui holds cairn's full-screen Bubble Tea interface: the chat
// transcript with streaming markdown, tool call previews, inline approvals,
// the prompt editor and `!` bash mode. It renders core session events and
// sends commands; it never reaches into the session's state.
//
// Drawing costs what changed, not what is on screen or in the history. One
// frame clock (frameClock) decides when View draws: at once after a key or
// any other change, and for streamed deltas at most once per frameInterval
// (40 ms), so a fast stream costs one drawing per frame however many deltas
// it brings; in between View returns the last frame. Session events are
// passed on as they come (no batching in time), and a text delta is
// appended to its answer's markdown stream. Finished items are drawn once
// per width and kept; only the items on screen are drawn at all. A
// streaming answer keeps the lines of its finished blocks and of its open
// block's finished chunks, so a frame draws only the open chunk (see
// markdown.Stream.ViewPieces). Bubble Tea then parses the frame and
// writes the lines that differ from the last one.
//
// An approval never takes keys meant for the editor: one that appears
// while the person types (or with a draft) leaves the keyboard with the
// editor until tab switches to it, and an answer that saves a rule shows
// the rule and where it is kept before enter confirms it.
package tui
