// Package jsonrpc2 holds what cairn's JSON-RPC 2.0 adapters (ACP over stdio,
// OpenAgent's socket) share: the error object and its standard codes, and a
// strict decoder for one message (a request, a notification or a response)
// that says exactly what is wrong with a bad one. Framing is core/jsonl's.
package jsonrpc2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// The standard JSON-RPC 2.0 error codes.
const (
	ParseError     = -32700
	InvalidRequest = -32600
	MethodNotFound = -32601
	InvalidParams  = -32602
	InternalError  = -32603
)

// Error is a JSON-RPC error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// Errorf builds an error whose message is the formatted sentence.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Echo is s as an error message may repeat it: at most 80 bytes (cut at a
// rune boundary, "…" added), so a client that sends a 10 MB method name
// does not get 10 MB back.
func Echo(s string) string {
	const limit = 80
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// CodeName is the specification's name for a standard code ("Parse
// error", "Invalid Request", ...), or "" for any other code.
func CodeName(code int) string {
	switch code {
	case ParseError:
		return "Parse error"
	case InvalidRequest:
		return "Invalid Request"
	case MethodNotFound:
		return "Method not found"
	case InvalidParams:
		return "Invalid params"
	case InternalError:
		return "Internal error"
	}
	return ""
}

// Kind is what a decoded message is.
type Kind uint8

// The kinds of message.
const (
	Request Kind = iota + 1
	Notification
	Response
)

// Message is one decoded JSON-RPC message.
type Message struct {
	Kind Kind
	// ID is the id as sent (a string, a number or null) of a request or a
	// response; nil for a notification.
	ID     json.RawMessage
	Method string
	// Params is an object or an array; nil when absent or null.
	Params json.RawMessage
	// Result and Error are a response's.
	Result json.RawMessage
	Error  *Error
}

// Decode reads one line. On failure it returns an error with the code to
// answer with and a sentence (without the code's name) saying what is
// wrong, and the id to answer to: the message's when it could be read,
// else nil (answer with a null id). Batches are refused.
func Decode(line []byte) (Message, json.RawMessage, *Error) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return Message{}, nil, Errorf(ParseError, "the line is not valid JSON")
	}
	switch line[0] {
	case '{':
	case '[':
		return Message{}, nil, Errorf(InvalidRequest, "batches are not supported: send one message per line")
	default:
		return Message{}, nil, Errorf(InvalidRequest, "a message must be a JSON object")
	}
	// A map, not a struct: member names are case-sensitive ("METHOD" is
	// not "method"), which encoding/json's struct decoding is not.
	var w map[string]json.RawMessage
	if err := json.Unmarshal(line, &w); err != nil {
		return Message{}, nil, Errorf(InvalidRequest, "%v", err)
	}
	id, hasID := w["id"]
	if hasID && !ValidID(id) {
		return Message{}, nil, Errorf(InvalidRequest, "an id must be a string, a number or null")
	}
	var version string
	if json.Unmarshal(w["jsonrpc"], &version) != nil || version != "2.0" {
		return Message{}, id, Errorf(InvalidRequest, `"jsonrpc" must be "2.0"`)
	}
	if raw, ok := w["method"]; ok {
		m := Message{Kind: Notification}
		if json.Unmarshal(raw, &m.Method) != nil || m.Method == "" {
			return Message{}, id, Errorf(InvalidRequest, `"method" must be a non-empty string`)
		}
		if hasID {
			m.Kind, m.ID = Request, id
		}
		switch p := w["params"]; {
		case p == nil || bytes.Equal(p, []byte("null")):
		case p[0] == '{' || p[0] == '[':
			m.Params = p
		default:
			return Message{}, id, Errorf(InvalidRequest, `"params" must be an object or an array`)
		}
		return m, nil, nil
	}
	result, hasResult := w["result"]
	rawErr, hasErr := w["error"]
	if !hasID || (!hasResult && !hasErr) {
		return Message{}, id, Errorf(InvalidRequest, `a message needs a "method", or an "id" with a "result" or an "error"`)
	}
	m := Message{Kind: Response, ID: id, Result: result}
	if hasErr {
		var e Error
		if json.Unmarshal(rawErr, &e) != nil {
			e = Error{Code: InternalError, Message: "unreadable error object"}
		}
		m.Error = &e
	}
	return m, nil, nil
}

// ValidID reports whether raw (valid JSON) is an id JSON-RPC allows: a
// string, a number or null.
func ValidID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	}
	return bytes.Equal(raw, []byte("null"))
}

// DecodeParams reads a request's params, which must be an object, into v;
// absent params leave v as it is. The error's sentence names the member
// that has the wrong type.
func DecodeParams(params json.RawMessage, v any) *Error {
	if params == nil || bytes.Equal(params, []byte("null")) {
		return nil
	}
	if params[0] != '{' {
		return Errorf(InvalidParams, "params must be an object")
	}
	if err := json.Unmarshal(params, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Errorf(InvalidParams, "%s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
		}
		return Errorf(InvalidParams, "%v", err)
	}
	return nil
}

// jsonKind names the JSON kind a Go kind decodes from.
func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	}
	return "a number"
}
