package core

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// toolResultJSON is ToolResultMessage.MarshalJSON: the bytes json.Marshal
// wrote for the message (<, >, & and U+2028/U+2029 escaped as \u003c and
// so on), built by hand. Through json.Marshal a text block was scanned
// again at each level it was nested in, which made a long session's
// history (get_messages) slow to write; here a tool's output is escaped
// once and HTML-escaped once.
func toolResultJSON(m *ToolResultMessage) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(128 + m.textSize())
	b.WriteString(`{"role":"toolResult","toolCallId":`)
	if err := marshalInto(&b, m.ToolCallID); err != nil {
		return nil, err
	}
	b.WriteString(`,"toolName":`)
	if err := marshalInto(&b, m.ToolName); err != nil {
		return nil, err
	}
	b.WriteString(`,"content":[`)
	for i := range m.Content {
		if i > 0 {
			b.WriteByte(',')
		}
		c := &m.Content[i]
		if c.Type != ContentText {
			if err := marshalInto(&b, c); err != nil {
				return nil, err
			}
			continue
		}
		// A text block's MarshalJSON is compact and valid: json.Marshal
		// would only have escaped it for HTML.
		block, err := c.MarshalJSON()
		if err != nil {
			return nil, err
		}
		json.HTMLEscape(&b, block)
	}
	b.WriteByte(']')
	if len(m.Details) > 0 {
		b.WriteString(`,"details":`)
		if err := marshalInto(&b, m.Details); err != nil {
			return nil, err
		}
	}
	b.WriteString(`,"isError":`)
	b.WriteString(strconv.FormatBool(m.IsError))
	b.WriteString(`,"timestamp":`)
	b.WriteString(strconv.FormatInt(m.Timestamp, 10))
	b.WriteByte('}')
	return b.Bytes(), nil
}

// textSize is about the length of the message's texts.
func (m *ToolResultMessage) textSize() int {
	n := 0
	for i := range m.Content {
		n += m.Content[i].TextLen()
	}
	return n
}

// marshalInto appends v as json.Marshal writes it.
func marshalInto(b *bytes.Buffer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(data)
	return nil
}
