package core

import (
	"bytes"
	"encoding/json"
	"fmt"
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
}

// TextBlock returns a text content block.
func TextBlock(text string) Content { return Content{Type: ContentText, Text: text} }

// ImageBlock returns an image content block from base64 data.
func ImageBlock(data, mimeType string) Content {
	return Content{Type: ContentImage, Data: data, MimeType: mimeType}
}

// emptyObject is the arguments value of a tool call that has none.
var emptyObject = json.RawMessage(`{}`)

// MarshalJSON writes the block in pi's shape for its type.
func (c Content) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	writeString(&b, string(c.Type))
	switch c.Type {
	case ContentText:
		b.WriteString(`,"text":`)
		writeString(&b, c.Text)
		if c.TextSignature != "" {
			b.WriteString(`,"textSignature":`)
			writeString(&b, c.TextSignature)
		}
	case ContentThinking:
		b.WriteString(`,"thinking":`)
		writeString(&b, c.Thinking)
		if c.ThinkingSignature != "" {
			b.WriteString(`,"thinkingSignature":`)
			writeString(&b, c.ThinkingSignature)
		}
		if c.Redacted {
			b.WriteString(`,"redacted":true`)
		}
	case ContentImage:
		b.WriteString(`,"data":`)
		writeString(&b, c.Data)
		b.WriteString(`,"mimeType":`)
		writeString(&b, c.MimeType)
	case ContentToolCall:
		b.WriteString(`,"id":`)
		writeString(&b, c.ID)
		b.WriteString(`,"name":`)
		writeString(&b, c.Name)
		b.WriteString(`,"arguments":`)
		args := c.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = emptyObject
		}
		b.Write(args)
		if c.ThoughtSignature != "" {
			b.WriteString(`,"thoughtSignature":`)
			writeString(&b, c.ThoughtSignature)
		}
	default:
		return nil, fmt.Errorf("content block has unknown type %q", c.Type)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
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
