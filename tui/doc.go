// Package tui will hold cairn's full-screen Bubble Tea interface: the chat
// transcript with streaming markdown, tool call previews, inline approvals,
// the prompt editor and `!` bash mode. It renders core session events and
// sends commands; it never reaches into the session's state.
package tui
