// Package editor is cairn's prompt editor: the multi-line input at the bottom
// of the TUI. It grows with its content up to a maximum height and then
// scrolls, keeps a persistent prompt history, completes file paths after `@`
// and commands after `/`, keeps large pastes intact behind short markers,
// and reports whether the input is a `!` shell command.
//
// The editor is a Bubble Tea component in the style of the bubbles package:
// a Model with Update and View. It does no I/O inside Update; loading and
// appending history, listing files and fuzzy matching run in tea.Cmds whose
// results come back as InternalMsg values, which the parent passes to Update.
// What the parent must act on arrives as SubmitMsg and WarningMsg.
//
// Pastes: a paste of more than 10 lines or 1,000 characters is kept aside
// and shown as a marker such as "[paste #1 +120 lines]" or
// "[paste #2 1,342 chars]"; the marker moves and deletes as one character,
// and Value and SubmitMsg carry the pasted text byte for byte, except that
// CRLF and lone CR become LF. Smaller pastes are inserted as if typed: tabs
// and line breaks kept (CRLF and CR as LF), other control characters
// dropped.
//
// Images: AttachImage puts an image in the draft as a marker such as
// "[image #1 shot.png]", which moves and deletes as one character. Value
// and SubmitMsg.Text carry the label where the marker stands, and
// SubmitMsg.Images the images still in the draft; SetDraft gives a draft
// back as text and images, turning labels into markers again. Reading the
// image is the parent's work.
//
// History is a JSON-lines file, one {"text": "..."} object per line,
// newest last, capped at Options.HistoryLimit entries, with no entry
// repeating the one before it.
//
// The editor keeps its own text buffer rather than wrapping bubbles'
// textarea: textarea re-renders and re-hashes every line of the draft on
// each key press, which costs milliseconds for a long draft, while this
// buffer re-wraps only the edited line and renders only the visible rows.
package editor
