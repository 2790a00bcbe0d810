package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxFrameBytes is the longest frame Serve reads (64 MiB, room for a few
// large images in one prompt). A longer line is skipped as it streams in,
// never held whole, and answered with an Invalid Request error.
const MaxFrameBytes = 64 << 20

// The JSON-RPC and ACP error codes cairn sends.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeResourceNotFound = -32002
)

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// errorf builds an error with a code.
func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// kind is what a decoded message is.
type kind uint8

const (
	kindRequest kind = iota + 1
	kindNotification
	kindResponse
)

// message is one decoded JSON-RPC message. ID is the raw id (a string, a
// number or null) for requests and responses.
type message struct {
	kind   kind
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *rpcError
}

// wireMessage is the union of the JSON-RPC shapes, as read.
type wireMessage struct {
	JSONRPC *string          `json:"jsonrpc"`
	ID      json.RawMessage  `json:"id"`
	Method  *string          `json:"method"`
	Params  json.RawMessage  `json:"params"`
	Result  json.RawMessage  `json:"result"`
	Error   *json.RawMessage `json:"error"`
}

// decodeMessage reads one frame. On failure it returns the error to answer
// with and the id to answer to (null when none could be read).
func decodeMessage(frame []byte) (message, json.RawMessage, *rpcError) {
	frame = bytes.TrimSpace(frame)
	if !json.Valid(frame) {
		return message{}, nil, errorf(CodeParseError, "Parse error: the frame is not valid JSON")
	}
	if len(frame) == 0 || frame[0] != '{' {
		return message{}, nil, errorf(CodeInvalidRequest, "Invalid Request: a frame must be one JSON object (batches are not supported)")
	}
	var w wireMessage
	if err := json.Unmarshal(frame, &w); err != nil {
		return message{}, nil, errorf(CodeInvalidRequest, "Invalid Request: %v", err)
	}
	id, idOK := validID(w.ID)
	replyID := id
	if !idOK {
		replyID = nil
	}
	switch {
	case w.JSONRPC == nil || *w.JSONRPC != "2.0":
		return message{}, replyID, errorf(CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`)
	case !idOK:
		return message{}, nil, errorf(CodeInvalidRequest, "Invalid Request: an id must be a string, a number or null")
	}
	if w.Method != nil {
		if *w.Method == "" {
			return message{}, replyID, errorf(CodeInvalidRequest, `Invalid Request: "method" is empty`)
		}
		if len(w.Params) > 0 && w.Params[0] != '{' && w.Params[0] != '[' && !bytes.Equal(w.Params, []byte("null")) {
			return message{}, replyID, errorf(CodeInvalidParams, "Invalid params: params must be an object")
		}
		m := message{kind: kindNotification, Method: *w.Method, Params: w.Params}
		if id != nil {
			m.kind, m.ID = kindRequest, id
		}
		return m, nil, nil
	}
	if id == nil || (w.Result == nil && w.Error == nil) {
		return message{}, replyID, errorf(CodeInvalidRequest, `Invalid Request: a message needs a "method", or an "id" with a "result" or an "error"`)
	}
	m := message{kind: kindResponse, ID: id, Result: w.Result}
	if w.Error != nil {
		var e rpcError
		if json.Unmarshal(*w.Error, &e) != nil {
			e = rpcError{Code: CodeInternalError, Message: "unreadable error object"}
		}
		m.Error = &e
	}
	return m, nil, nil
}

// validID returns the id when it is absent (nil), a string or a number;
// ok is false for any other JSON value. A null id is returned as null.
func validID(raw json.RawMessage) (json.RawMessage, bool) {
	if raw == nil {
		return nil, true
	}
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return raw, true
	case bytes.Equal(raw, []byte("null")):
		return raw, true
	}
	return nil, false
}

// errFrameTooLong reports a line over the frame limit; it was skipped.
var errFrameTooLong = errors.New("frame too long")
