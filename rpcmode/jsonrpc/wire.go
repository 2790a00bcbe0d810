package jsonrpc

import (
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// MaxMessageBytes is the longest line a client may send: the spec's 10 MB.
// A longer line is answered with -32600 and skipped without being held in
// memory.
const MaxMessageBytes = 10 << 20

// The error codes of JSON-RPC 2.0 and of the OpenAgent-Terminal spec.
const (
	CodeParseError       = jsonrpc2.ParseError
	CodeInvalidRequest   = jsonrpc2.InvalidRequest
	CodeMethodNotFound   = jsonrpc2.MethodNotFound
	CodeInvalidParams    = jsonrpc2.InvalidParams
	CodeInternalError    = jsonrpc2.InternalError
	CodeAgentError       = -32000
	CodeModelError       = -32001
	CodeToolError        = -32002
	CodeTimeout          = -32003
	CodeCancelled        = -32004
	CodePermissionDenied = -32005
)

// Error is a JSON-RPC error object.
type Error = jsonrpc2.Error

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
// returns the error to answer with and, when the line carries a usable id,
// a request holding that id (else the answer's id is null).
func decodeRequest(line []byte) (request, *Error) {
	m, id, err := jsonrpc2.Decode(line)
	switch {
	case err != nil:
		return request{ID: id}, errorf(err.Code, "%s", err.Message)
	case m.Kind == jsonrpc2.Response:
		return request{ID: m.ID}, errorf(CodeInvalidRequest, "a client sends requests, not responses")
	}
	return request{ID: m.ID, Method: m.Method, Params: m.Params}, nil
}

// decodeParams reads a request's params (an object) into v; absent params
// leave v as it is.
func decodeParams(params json.RawMessage, v any) *Error {
	if err := jsonrpc2.DecodeParams(params, v); err != nil {
		return errorf(err.Code, "%s", err.Message)
	}
	return nil
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
