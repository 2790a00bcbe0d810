// Package export writes a session as one self-contained HTML page: the
// conversation of the current branch with its tool calls and results,
// thinking, bash executions, compaction summaries and images, the other
// branches collapsed under it, and the system prompt, tool list and token
// usage when known. It backs /export in the TUI, `--export`, and the rpc
// command export_html.
//
// The page needs nothing but itself: its CSS is inline, images are data:
// URIs, markdown is rendered to HTML here (github.com/yuin/goldmark) with
// code highlighted by chroma, and it carries no script at all. Everything a
// session holds is escaped: raw HTML in a model's answer is dropped, and a
// Content-Security-Policy forbids scripts and remote loads as a second line
// of defence.
//
// HTML streams: it writes each message as it goes, so exporting a large
// session costs time and memory in proportion to its size.
package export
