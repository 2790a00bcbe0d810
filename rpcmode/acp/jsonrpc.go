package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// frameReader splits input into lines, refusing lines over a limit without
// holding them: it keeps reading to the newline and drops the bytes.
type frameReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func newFrameReader(r io.Reader, max int) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next non-empty line without its line ending. It returns
// errFrameTooLong for a line over the limit (and is ready for the next
// one), and io.EOF at the end of input; a last line without a newline is
// still returned.
func (f *frameReader) next() ([]byte, error) {
	for {
		f.buf = f.buf[:0]
		tooLong := false
		for {
			chunk, err := f.r.ReadSlice('\n')
			if !tooLong {
				if len(f.buf)+len(chunk) > f.max+2 { // +2: the line ending
					tooLong = true
					f.buf = f.buf[:0]
				} else {
					f.buf = append(f.buf, chunk...)
				}
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && (err != io.EOF || (len(f.buf) == 0 && !tooLong)) {
				return nil, err
			}
			break
		}
		if tooLong {
			return nil, errFrameTooLong
		}
		line := bytes.TrimSuffix(bytes.TrimSuffix(f.buf, []byte("\n")), []byte("\r"))
		if len(line) > f.max {
			return nil, errFrameTooLong
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		return line, nil
	}
}
