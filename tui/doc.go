// Package tui will hold cairn's full-screen Bubble Tea interface: the chat
// transcript with streaming markdown, tool call previews, inline approvals,
// the prompt editor and `!` bash mode. It renders core session events and
// sends commands; it never reaches into the session's state.
//
// An approval never takes keys meant for the editor: one that appears
// while the person types (or with a draft) leaves the keyboard with the
// editor until tab switches to it, and an answer that saves a rule shows
// the rule and where it is kept before enter confirms it.
package tui
