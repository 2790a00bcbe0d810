// Package markdown renders assistant answers for cairn's transcript: markdown
// through glamour with code blocks highlighted by chroma, coloured from a
// theme's Palette, without glamour's document margin or trailing padding.
//
// A Renderer renders whole texts for one palette and width; a Cache keeps
// the few Renderers in use. A Stream renders an answer that is still
// arriving: it cuts the text into top-level blocks at blank lines, renders
// each finished block once and keeps the result, and re-renders only the
// last, still open block when asked for a view. Appending a delta therefore
// costs the same however long the answer already is. A block ends as soon
// as the line after its blank line, even incomplete, can only start a new
// block. A long paragraph or fenced code block that is still open is cut
// into chunks rendered once each; ViewPieces hands those (Held) apart from
// the growing chunk (Open), so a caller that keeps lines pays per frame
// only for the growing chunk. A paragraph of plain words (ASCII letters,
// digits and . , ; : ? one space apart) is drawn without glamour, by greedy
// wrapping between the line prefix and suffix glamour uses, byte for byte
// as glamour draws it. RenderPlain wraps text that is not markdown, such as
// thinking blocks.
//
// A Stream's view equals Renderer.Render of the same text, line for line and
// escape for escape, with these exceptions:
//
//   - A link reference definition ("[1]: https://...") only serves links in
//     its own block, so "[text][1]" in an earlier paragraph shows as typed.
//   - While a fenced code block streams, its finished lines are highlighted
//     in chunks of a few lines, so a string or comment spanning a chunk
//     boundary may be coloured as code until the fence closes.
//
// Lists are kept in one block with their loose items and nested code. A
// tight list whose items start at the margin with inline text (the lists
// models write) is cut, while it streams, into chunks of a few items
// rendered once each, which draws the same lines as rendering it whole;
// any other list is rendered whole on every view while it streams, and so
// are tables and quotes, which are rarely long.
//
// Differences from glamour's own output: no margin and no blank lines around
// the document, no padding after the last visible cell of a line, tabs
// expanded to four columns, fenced code without a language shown as plain
// text rather than guessed, and level-one headings drawn like the others
// ("# Title") instead of on a fixed purple badge.
package markdown
