package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// command is one decoded command line: its id (compact JSON, nil when it
// had none), its type, and every field as raw JSON for the handler to read.
type command struct {
	id     json.RawMessage
	typ    string
	fields map[string]json.RawMessage
}

// errParse marks errors in the line itself (not JSON, not an object, too
// long), which are answered as pi answers them: command "parse".
var errParse = errors.New("Failed to parse command")

// decodeCommand parses one frame. The error of a frame that is not a single
// JSON object wraps errParse; cmd.id is filled in whenever an id could be
// found, so even such an answer reaches the right request. A missing or
// ill-typed "type" is a *fieldError.
func decodeCommand(frame []byte) (cmd command, err error) {
	line := bytes.TrimSpace(frame)
	if len(line) > 0 && line[0] != '{' {
		if json.Valid(line) {
			return cmd, fmt.Errorf("%w: a command must be a JSON object, not %s", errParse, jsonKind(line))
		}
		return cmd, fmt.Errorf("%w: the line is not JSON: send one JSON object per line", errParse)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&cmd.fields); err != nil {
		cmd.id = recoverID(line)
		return cmd, fmt.Errorf("%w: %s", errParse, syntaxMessage(err))
	}
	if rest := bytes.TrimSpace(line[dec.InputOffset():]); len(rest) > 0 {
		cmd.id = compactID(cmd.fields["id"])
		return cmd, fmt.Errorf("%w: more than one JSON value on the line (the second starts at byte %d): send one command per line", errParse, len(line)-len(rest)+1)
	}
	cmd.id = compactID(cmd.fields["id"])
	raw, ok := cmd.fields["type"]
	if !ok || isNull(raw) {
		return cmd, &fieldError{field: "type", want: "a string naming the command"}
	}
	if err := json.Unmarshal(raw, &cmd.typ); err != nil {
		return cmd, &fieldError{field: "type", want: "a string naming the command", got: jsonKind(raw)}
	}
	return cmd, nil
}

// syntaxMessage words a JSON decoding error for a person.
func syntaxMessage(err error) string {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "invalid JSON: the line ends inside a value"
	}
	return "invalid JSON: " + err.Error()
}

// recoverID finds the "id" of a line that is not valid JSON as a whole,
// reading its top-level members in order until one fails to parse.
func recoverID(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key == "id" {
			return compactID(value)
		}
	}
	return nil
}

// compactID returns an id as it is echoed: compact JSON, nil when absent.
func compactID(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil
	}
	return b.Bytes()
}

// jsonKind names the JSON type of a value for error messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// fieldError is a command field that is missing or has the wrong type or
// value. Its message names the field and says what it should be.
type fieldError struct {
	field string
	want  string // "a string", `"steer" or "followUp"`, ...
	got   string // what was sent; "" when the field is missing
}

func (e *fieldError) Error() string {
	if e.got == "" {
		return fmt.Sprintf("field %q is required: %s", e.field, e.want)
	}
	return fmt.Sprintf("field %q must be %s, not %s", e.field, e.want, e.got)
}

// present returns a field's raw value; null counts as absent, as
// JavaScript clients send null and undefined alike.
func (c *command) present(name string) (json.RawMessage, bool) {
	raw, ok := c.fields[name]
	if !ok || isNull(raw) {
		return nil, false
	}
	return raw, true
}

// str reads a required string field.
func (c *command) str(name string) (string, error) {
	s, ok, err := c.optStr(name)
	if err == nil && !ok {
		err = &fieldError{field: name, want: "a string"}
	}
	return s, err
}

// optStr reads an optional string field; ok reports whether it was sent.
func (c *command) optStr(name string) (s string, ok bool, err error) {
	raw, ok := c.present(name)
	if !ok {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, &fieldError{field: name, want: "a string", got: jsonKind(raw)}
	}
	return s, true, nil
}

// boolean reads a required boolean field.
func (c *command) boolean(name string) (bool, error) {
	v, ok, err := c.optBool(name)
	if err == nil && !ok {
		err = &fieldError{field: name, want: "true or false"}
	}
	return v, err
}

// optBool reads an optional boolean field.
func (c *command) optBool(name string) (v bool, ok bool, err error) {
	raw, ok := c.present(name)
	if !ok {
		return false, false, nil
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return false, false, &fieldError{field: name, want: "true or false", got: jsonKind(raw)}
	}
	return v, true, nil
}

// oneOf reads a required string field that must be one of values.
func (c *command) oneOf(name string, values ...string) (string, error) {
	s, ok, err := c.optOneOf(name, values...)
	if err == nil && !ok {
		err = &fieldError{field: name, want: quoteList(values)}
	}
	return s, err
}

// optOneOf reads an optional string field that must be one of values.
func (c *command) optOneOf(name string, values ...string) (string, bool, error) {
	s, ok, err := c.optStr(name)
	if err != nil || !ok {
		if fe, isField := err.(*fieldError); isField {
			fe.want = quoteList(values)
		}
		return "", false, err
	}
	for _, v := range values {
		if s == v {
			return s, true, nil
		}
	}
	return "", false, &fieldError{field: name, want: quoteList(values), got: fmt.Sprintf("%q", s)}
}

func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// stringList reads an optional array of strings.
func (c *command) stringList(name string) (list []string, ok bool, err error) {
	raw, ok := c.present(name)
	if !ok {
		return nil, false, nil
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, false, &fieldError{field: name, want: "an array of strings", got: jsonKind(raw)}
	}
	return list, true, nil
}

// imageWire is pi's ImageContent.
type imageWire struct {
	Type     *string `json:"type"`
	Data     *string `json:"data"`
	MimeType *string `json:"mimeType"`
}

// images reads the optional "images" field: pi's ImageContent objects.
func (c *command) images() ([]core.Content, error) {
	raw, ok := c.present("images")
	if !ok {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, &fieldError{field: "images", want: `an array of {"type":"image","data":<base64>,"mimeType":...} objects`, got: jsonKind(raw)}
	}
	out := make([]core.Content, 0, len(list))
	for i, item := range list {
		name := fmt.Sprintf("images[%d]", i)
		var w imageWire
		if err := json.Unmarshal(item, &w); err != nil {
			return nil, &fieldError{field: name, want: `an object {"type":"image","data":<base64>,"mimeType":...}`, got: jsonKind(item)}
		}
		switch {
		case w.Type != nil && *w.Type != "image":
			return nil, &fieldError{field: name + ".type", want: `"image"`, got: fmt.Sprintf("%q", *w.Type)}
		case w.Data == nil || *w.Data == "":
			return nil, &fieldError{field: name + ".data", want: "the image as a base64 string"}
		case w.MimeType == nil || *w.MimeType == "":
			return nil, &fieldError{field: name + ".mimeType", want: `a MIME type such as "image/png"`}
		}
		out = append(out, core.ImageBlock(*w.Data, *w.MimeType))
	}
	return out, nil
}
