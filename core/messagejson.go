package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// MessagesJSON is a conversation to be written as a JSON array without
// building the array in memory: WriteTo encodes one message, writes it and
// goes on to the next, reading a message's stored texts (Content.Stored)
// back only while that message is written. A front end answering with a
// long session's whole history (pi's get_messages, synaps's) holds one
// message at a time, not the history.
//
// The bytes are those encoding/json writes for the slice with HTML
// escaping off (json.Encoder.SetEscapeHTML(false)), as JavaScript's
// JSON.stringify leaves <, > and & alone.
type MessagesJSON []Message

// Check reports the first message that cannot be encoded, reading no
// stored text (a stored text always encodes: FullText never fails). A
// front end calls it before it starts writing, so that it can still
// answer with an error rather than with an array cut short.
func (ms MessagesJSON) Check() error {
	var e messageEncoder
	for i, m := range ms {
		if _, err := e.encode(withoutStored(m)); err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
	}
	return nil
}

// WriteTo implements io.WriterTo: it writes the array to w, one message at
// a time. A text that can no longer be read from its session file is
// written as the note Content.FullText returns. Should a message fail to
// encode (Check would have said so), the array is closed before it, so
// what was written is still valid JSON, and the error names the message.
func (ms MessagesJSON) WriteTo(w io.Writer) (int64, error) {
	cw := countingWriter{w: w}
	var e messageEncoder
	var encErr error
	cw.write([]byte{'['})
	for i, m := range ms {
		b, err := e.encode(m)
		if err != nil {
			encErr = fmt.Errorf("message %d: %w", i, err)
			break
		}
		if i > 0 {
			cw.write([]byte{','})
		}
		cw.write(b)
		if cw.err != nil {
			return cw.n, cw.err
		}
	}
	cw.write([]byte{']'})
	if cw.err != nil {
		return cw.n, cw.err
	}
	return cw.n, encErr
}

// messageEncoder encodes one message at a time into a buffer it reuses.
type messageEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// encode returns m's JSON, valid until the next call.
func (e *messageEncoder) encode(m Message) ([]byte, error) {
	// The provider roles' MarshalJSON writes what json.Marshal wrote,
	// compact already: encoding/json would only scan it again (a long
	// tool output twice over), so it is called directly.
	switch m := m.(type) {
	case *ToolResultMessage:
		if m != nil {
			return m.MarshalJSON()
		}
	case *AssistantMessage:
		if m != nil {
			return m.MarshalJSON()
		}
	case *UserMessage:
		if m != nil {
			return m.MarshalJSON()
		}
	}
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	e.buf.Reset()
	if err := e.enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.buf.Bytes(), []byte{'\n'}), nil
}

// countingWriter writes to w until the first error, counting the bytes.
type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countingWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
}

// withoutStored returns m with its stored texts left empty (a copy), or m
// itself when it has none: what Check encodes.
func withoutStored(m Message) Message {
	switch m := m.(type) {
	case *UserMessage:
		if m != nil && HasStored(m.Content) {
			c := *m
			c.Content = blankStored(m.Content)
			return &c
		}
	case *AssistantMessage:
		if m != nil && HasStored(m.Content) {
			c := *m
			c.Content = blankStored(m.Content)
			return &c
		}
	case *ToolResultMessage:
		if m != nil && HasStored(m.Content) {
			c := *m
			c.Content = blankStored(m.Content)
			return &c
		}
	case *CustomMessage:
		if m != nil && HasStored(m.Content) {
			c := *m
			c.Content = blankStored(m.Content)
			return &c
		}
	}
	return m
}

// blankStored is a copy of blocks whose stored texts are empty texts.
func blankStored(blocks []Content) []Content {
	out := slices.Clone(blocks)
	for i := range out {
		out[i].Stored = nil
	}
	return out
}
