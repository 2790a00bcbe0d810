package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxMessageBytes is the longest line a client may send: the spec's 10 MB.
// A longer line is answered with -32600 and skipped without being held in
// memory.
const MaxMessageBytes = 10 << 20

// The error codes of JSON-RPC 2.0 and of the OpenAgent-Terminal spec.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeAgentError       = -32000
	CodeModelError       = -32001
	CodeToolError        = -32002
	CodeTimeout          = -32003
	CodeCancelled        = -32004
	CodePermissionDenied = -32005
)

// Error is a JSON-RPC error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// errorf builds an Error whose data is a sentence saying what went wrong.
func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: codeMessage(code), Data: fmt.Sprintf(format, args...)}
}

// codeMessage is the spec's message for code.
func codeMessage(code int) string {
	switch code {
	case CodeParseError:
		return "Parse error"
	case CodeInvalidRequest:
		return "Invalid Request"
	case CodeMethodNotFound:
		return "Method not found"
	case CodeInvalidParams:
		return "Invalid params"
	case CodeAgentError:
		return "Agent error"
	case CodeModelError:
		return "Model error"
	case CodeToolError:
		return "Tool error"
	case CodeTimeout:
		return "Timeout"
	case CodeCancelled:
		return "Cancelled"
	case CodePermissionDenied:
		return "Permission denied"
	}
	return "Internal error"
}

// errTooLong is frameReader's report of a line over its limit.
var errTooLong = errors.New("message too long")

// request is one decoded JSON-RPC request or notification.
type request struct {
	// ID is the request's id as sent (a number, a string or null); nil for
	// a notification.
	ID     json.RawMessage
	Method string
	// Params is an object, an array, or nil when absent.
	Params json.RawMessage
}

// notification reports whether the request wants no response.
func (r request) notification() bool { return r.ID == nil }

// decodeRequest reads one line as a JSON-RPC 2.0 request. On failure it
// returns the error to answer with and, when the line is an object that
// carries a usable id, that id (else the answer's id is null).
func decodeRequest(line []byte) (request, *Error) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return request{}, errorf(CodeParseError, "the message is not valid JSON")
	}
	switch line[0] {
	case '{':
	case '[':
		return request{}, errorf(CodeInvalidRequest, "batch requests are not supported: send one request per line")
	default:
		return request{}, errorf(CodeInvalidRequest, "a request must be a JSON object")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return request{}, errorf(CodeParseError, "the message is not valid JSON: %v", err)
	}
	var req request
	if raw, ok := fields["id"]; ok {
		if !validID(raw) {
			return request{}, errorf(CodeInvalidRequest, "id must be a number, a string or null")
		}
		req.ID = raw
	}
	var version string
	if err := json.Unmarshal(fields["jsonrpc"], &version); err != nil || version != "2.0" {
		return req, errorf(CodeInvalidRequest, `"jsonrpc" must be "2.0"`)
	}
	raw, ok := fields["method"]
	if !ok || json.Unmarshal(raw, &req.Method) != nil || req.Method == "" {
		return req, errorf(CodeInvalidRequest, `"method" must be a non-empty string`)
	}
	if p, ok := fields["params"]; ok {
		switch p[0] {
		case '{', '[':
			req.Params = p
		default:
			return req, errorf(CodeInvalidRequest, `"params" must be an object or an array`)
		}
	}
	return req, nil
}

// validID reports whether raw (valid JSON) is an id JSON-RPC allows.
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	case bytes.Equal(raw, []byte("null")):
		return true
	}
	return false
}

// decodeParams reads a request's params (an object) into v; absent params
// leave v as it is.
func decodeParams(params json.RawMessage, v any) *Error {
	if params == nil {
		return nil
	}
	if params[0] != '{' {
		return errorf(CodeInvalidParams, "params must be an object")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errorf(CodeInvalidParams, "%v", paramError(err))
	}
	return nil
}

// paramError words a decoding error for the person reading the response.
func paramError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	return err.Error()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "struct", "map":
		return "an object"
	case "slice":
		return "an array"
	}
	return "a number"
}

// nullID is the id of a response to a request whose id could not be read.
var nullID = json.RawMessage("null")

// response is a JSON-RPC response.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// notification is a JSON-RPC notification.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// encodeLine marshals v as one line with its newline. Values built here
// always encode; a failure is reported as an internal error frame.
func encodeLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInternalError, "encode a message: %v", err)})
	}
	return append(b, '\n')
}
