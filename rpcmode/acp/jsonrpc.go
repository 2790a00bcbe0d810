package acp

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// MaxFrameBytes is the longest frame Serve reads (64 MiB, room for a few
// large images in one prompt). A longer line is skipped as it streams in,
// never held whole, and answered with an Invalid Request error.
const MaxFrameBytes = 64 << 20

// The JSON-RPC and ACP error codes cairn sends.
const (
	CodeParseError       = jsonrpc2.ParseError
	CodeInvalidRequest   = jsonrpc2.InvalidRequest
	CodeMethodNotFound   = jsonrpc2.MethodNotFound
	CodeInvalidParams    = jsonrpc2.InvalidParams
	CodeInternalError    = jsonrpc2.InternalError
	CodeResourceNotFound = -32002
	// CodeAuthRequired is ACP's "authentication required": no model
	// provider has credentials.
	CodeAuthRequired = -32000
)

// rpcError is a JSON-RPC error object.
type rpcError = jsonrpc2.Error

// errorf builds an error with a code.
func errorf(code int, format string, args ...any) *rpcError {
	return jsonrpc2.Errorf(code, format, args...)
}

// named words a jsonrpc2 decoding error as ACP's answers are worded: the
// code's name, then what is wrong ("Invalid params: ...").
func named(e *rpcError) *rpcError {
	return errorf(e.Code, "%s: %s", jsonrpc2.CodeName(e.Code), e.Message)
}

// message is one decoded JSON-RPC message.
type message = jsonrpc2.Message

// decodeMessage reads one frame. On failure it returns the error to answer
// with and the id to answer to (null when none could be read).
func decodeMessage(frame []byte) (message, json.RawMessage, *rpcError) {
	m, id, err := jsonrpc2.Decode(frame)
	if err != nil {
		return m, id, named(err)
	}
	return m, nil, nil
}

// decodeParams reads a request's params (an object; absent or null is an
// empty one) into v.
func decodeParams(raw json.RawMessage, v any) *rpcError {
	if err := jsonrpc2.DecodeParams(raw, v); err != nil {
		return named(err)
	}
	return nil
}
