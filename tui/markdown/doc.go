// Package markdown renders assistant answers for cairn's transcript: markdown
// through glamour with code blocks highlighted by chroma, coloured from a
// theme's Palette, without glamour's document margin or trailing padding.
//
// A Renderer renders whole texts. A Stream renders an answer that is still
// arriving: it cuts the text into top-level blocks at blank lines, renders
// each finished block once and keeps the result, and re-renders only the last,
// still open block when asked for a view. Appending a delta therefore costs
// the same however long the answer already is.
//
// RenderPlain wraps text that is not markdown, such as thinking blocks.
package markdown
