package provider

import "github.com/cairn-dev/cairn/core"

// Text is a string of a wire request that may still be in the session
// file: a tool result's text (core.Content.Stored) is read back only when
// the request is written (WriteJSON), so a request replaying a long
// conversation holds references until then, and one result's text at a
// time while it is written. It encodes as the JSON string of the text it
// stands for, so a wire field changes type, never bytes. The zero value is
// the empty string.
type Text struct {
	s string
	// blocks, when set, hold text that is read when needed: the text is
	// ResultText(blocks).
	blocks []core.Content
}

// TextOf is the Text of s.
func TextOf(s string) Text { return Text{s: s} }

// ResultTextOf is ResultText(blocks), read from the session file only when
// it is written.
func ResultTextOf(blocks []core.Content) Text {
	if !core.HasStored(blocks) {
		return Text{s: ResultText(blocks)}
	}
	return Text{blocks: blocks}
}

// BlockText is the text of one text block, read from the session file only
// when it is written.
func BlockText(b *core.Content) Text {
	if b.Stored == nil {
		return Text{s: b.Text}
	}
	return Text{blocks: []core.Content{*b}}
}

// IsZero reports whether t is empty, without reading anything back: a
// text kept in the session file is a large one, and one that can no longer
// be read comes back as a note saying so (core.Content.FullText), so it is
// never empty. encoding/json's omitzero uses it.
func (t Text) IsZero() bool { return t.blocks == nil && t.s == "" }

// String returns the text, reading it back when it is stored.
func (t Text) String() string {
	if t.blocks == nil {
		return t.s
	}
	return ResultText(t.blocks)
}

// MarshalJSON encodes the text as a JSON string, as encoding/json encodes a
// string, leaving <, > and & as they are (EncodeJSON's choice).
func (t Text) MarshalJSON() ([]byte, error) { return EncodeJSON(t.String()) }
