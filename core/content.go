package core

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/jsonscan"
)

// ContentType names the kind of a Content block, using pi's wire names.
type ContentType string

// The content block kinds a message can hold.
const (
	ContentText     ContentType = "text"
	ContentThinking ContentType = "thinking"
	ContentImage    ContentType = "image"
	ContentToolCall ContentType = "toolCall"
)

// Content is one block of a message: text, thinking, an image or a tool call.
// Only the fields of its Type are meaningful; JSON encoding writes exactly
// those fields, in pi's order, so a text block with empty text still carries
// "text":"".
type Content struct {
	Type ContentType

	// Text is the text of a text block.
	Text string
	// TextSignature is provider replay state for a text block (for example an
	// OpenAI Responses message id).
	TextSignature string

	// Thinking is the reasoning text of a thinking block.
	Thinking string
	// ThinkingSignature is the opaque token a provider needs to accept the
	// thinking block again on the next request (Anthropic's signature, an
	// OpenAI Responses encrypted reasoning item).
	ThinkingSignature string
	// Redacted marks a thinking block whose text the provider withheld.
	Redacted bool

	// Data is the base64 payload of an image block and MimeType its type.
	Data     string
	MimeType string

	// ID, Name and Arguments describe a tool call. Arguments is always a JSON
	// object; ThoughtSignature is Gemini's replay token for the call.
	ID               string
	Name             string
	Arguments        json.RawMessage
	ThoughtSignature string
	// Stored, when set, holds the text of a text block out of memory (a
	// span of a session file) and Text is empty: read it with FullText.
	// Only large tool results are kept this way, so a long session does not
	// hold every command's output in memory.
	Stored StoredText

	// InvalidArguments holds the argument text that arrived for a tool
	// call when it was not a JSON object (Arguments is then {}), so the
	// call is answered with an error quoting it instead of running. It is
	// not written anywhere.
	InvalidArguments string
}

// StoredText is the text of a block kept out of memory, read back when it
// is needed. Implementations are safe for concurrent use.
type StoredText interface {
	// Load reads the text back.
	Load() (string, error)
	// Len is the text's length in bytes, or a bound slightly above it; it
	// is for estimates (tokens, sizes) that must not read the text.
	Len() int
}

// FullText returns the text of a text block, reading it back when it is
// stored out of memory. Text that can no longer be read (the session file
// was cut short or removed) comes back as a note saying so, never as
// nothing.
func (c *Content) FullText() string {
	if c.Stored == nil {
		return c.Text
	}
	s, err := c.Stored.Load()
	if err != nil {
		return "[cairn could not read this output back from the session file: " + err.Error() + "]"
	}
	return s
}

// TextLen is the length in bytes of a text block's text, without reading
// stored text back (for stored text it may be slightly above the length).
func (c *Content) TextLen() int {
	if c.Stored != nil {
		return c.Stored.Len()
	}
	return len(c.Text)
}

// HasStored reports whether a block of blocks has its text stored out of
// memory.
func HasStored(blocks []Content) bool { return storedIndex(blocks) >= 0 }

func storedIndex(blocks []Content) int {
	return slices.IndexFunc(blocks, func(c Content) bool { return c.Stored != nil })
}

// LoadedContent returns blocks with every stored text read back into Text:
// blocks itself when none is stored, otherwise a copy.
func LoadedContent(blocks []Content) []Content {
	i := storedIndex(blocks)
	if i < 0 {
		return blocks
	}
	out := slices.Clone(blocks)
	for j := i; j < len(out); j++ {
		if out[j].Stored != nil {
			out[j].Text, out[j].Stored = out[j].FullText(), nil
		}
	}
	return out
}

// TextBlock returns a text content block.
func TextBlock(text string) Content { return Content{Type: ContentText, Text: text} }

// PlainText is blocks for a reader that shows only text (a host's tool
// output view): the text blocks one per line, each image as
// "[image <mime type>]".
func PlainText(blocks []Content) string {
	var b strings.Builder
	for _, c := range blocks {
		var s string
		switch c.Type {
		case ContentText:
			s = c.FullText()
		case ContentImage:
			s = "[image " + c.MimeType + "]"
		default:
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

// ImageBlock returns an image content block from base64 data.
func ImageBlock(data, mimeType string) Content {
	return Content{Type: ContentImage, Data: data, MimeType: mimeType}
}

// emptyObject is the arguments value of a tool call that has none.
var emptyObject = json.RawMessage(`{}`)

// MarshalJSON writes the block in pi's shape for its type.
func (c Content) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 64), `{"type":`...)
	b = jsonscan.AppendString(b, string(c.Type))
	switch c.Type {
	case ContentText:
		text := c.FullText()
		// Room for the text at once: a long tool output grown by doubling
		// costs more than escaping it.
		b = slices.Grow(b, len(text)+len(c.TextSignature)+32)
		b = appendMember(b, "text", text)
		b = appendNonEmpty(b, "textSignature", c.TextSignature)
	case ContentThinking:
		b = appendMember(b, "thinking", c.Thinking)
		b = appendNonEmpty(b, "thinkingSignature", c.ThinkingSignature)
		if c.Redacted {
			b = append(b, `,"redacted":true`...)
		}
	case ContentImage:
		b = appendMember(b, "data", c.Data)
		b = appendMember(b, "mimeType", c.MimeType)
	case ContentToolCall:
		b = appendMember(b, "id", c.ID)
		b = appendMember(b, "name", c.Name)
		args := c.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = emptyObject
		}
		b = append(append(b, `,"arguments":`...), args...)
		b = appendNonEmpty(b, "thoughtSignature", c.ThoughtSignature)
	default:
		return nil, fmt.Errorf("content block has unknown type %q", c.Type)
	}
	return append(b, '}'), nil
}

// appendMember appends a comma and the member key: value, value a string.
func appendMember(b []byte, key, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return jsonscan.AppendString(b, value)
}

// appendNonEmpty appends the member key: value unless value is empty, as
// pi leaves out optional strings.
func appendNonEmpty(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	return appendMember(b, key, value)
}

// UnmarshalJSON reads a block written by cairn or pi. Unknown block types are
// an error naming the type.
func (c *Content) UnmarshalJSON(data []byte) error {
	block, err := decodeWhole(data, func(s *jsonscan.Scanner) (Content, error) { return readBlock(s, nil) })
	if err != nil {
		return err
	}
	*c = block
	return nil
}
