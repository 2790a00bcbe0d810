// Package termimage turns a terminal screen captured as text with SGR
// escapes (what `tmux capture-pane -p -e` prints) into an image: Parse
// reads the text into a grid of styled cells, and Render draws the cells
// with a monospace font (Go Mono, embedded, with installed fonts as
// fallbacks), the 16, 256 and true colours, bold, faint, italic, underline,
// strike-through and reverse video. Box-drawing, block and braille
// characters are drawn as shapes so that lines join across cells.
package termimage
