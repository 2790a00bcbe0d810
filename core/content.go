package core

import (
	"encoding/json"
	"fmt"
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
	// InvalidArguments holds the argument text that arrived for a tool
	// call when it was not a JSON object (Arguments is then {}), so the
	// call is answered with an error quoting it instead of running. It is
	// not written anywhere.
	InvalidArguments string
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
			s = c.Text
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
		b = appendMember(b, "text", c.Text)
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
	block, err := decodeWhole(data, readBlock)
	if err != nil {
		return err
	}
	*c = block
	return nil
}
