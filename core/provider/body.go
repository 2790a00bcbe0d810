package provider

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// StreamedBodyThreshold is the size above which a request body is sent
// while it is written instead of being written whole first. A body up to
// this size (every request of a short conversation) is sent as before:
// whole, with a Content-Length. A larger one (a long conversation replayed
// to a model that does not compact) goes out as WriteJSON produces it, with
// no length (chunked on HTTP/1.1, which every local server takes; plain
// DATA frames on HTTP/2), so sending it holds this much plus one message's
// text, not the whole body twice over. Knowing the length first would mean
// writing the body twice, reading every stored tool result from the
// session file twice per request.
const StreamedBodyThreshold = 1 << 20

// streamedBodyThreshold is StreamedBodyThreshold; tests lower it.
var streamedBodyThreshold = StreamedBodyThreshold

// bodyWriteSize is the buffer between WriteJSON and the pipe to the
// transport, so the writer hands over large pieces.
const bodyWriteSize = 32 << 10

// errBodyClosed ends a body's writer when the transport closes the body
// before reading all of it (an early answer, a cancelled request).
var errBodyClosed = errors.New("request body closed")

// bodyError is the error of a request body that could not be written: a
// value of the wire request that encoding/json refuses. Sending such a
// request again cannot help, so it is never retried.
type bodyError struct{ Err error }

func (e *bodyError) Error() string { return "build request: " + e.Err.Error() }
func (e *bodyError) Unwrap() error { return e.Err }

// openJSONBody starts writing v (WriteJSON) for one attempt of a request.
// It returns a *bytes.Reader and the body's size when the body ended within
// streamedBodyThreshold, and otherwise a *streamedBody and -1. A body that
// cannot be written fails here when the failure comes within the threshold;
// later, the transport's read fails with the *bodyError.
func openJSONBody(v any) (io.Reader, int64, error) {
	pr, pw := io.Pipe()
	go func() {
		bw := bufio.NewWriterSize(pw, bodyWriteSize)
		err := WriteJSON(bw, v)
		if err == nil {
			err = bw.Flush()
		} else if !errors.Is(err, errBodyClosed) {
			err = &bodyError{Err: err}
		}
		pw.CloseWithError(err)
	}()
	var head bytes.Buffer
	_, err := io.CopyN(&head, pr, int64(streamedBodyThreshold)+1)
	switch {
	case errors.Is(err, io.EOF):
		return bytes.NewReader(head.Bytes()), int64(head.Len()), nil
	case err != nil:
		pr.CloseWithError(errBodyClosed)
		return nil, 0, err
	}
	return &streamedBody{Reader: io.MultiReader(&head, pr), pr: pr}, -1, nil
}

// streamedBody is a request body still being written: what was written
// before it was known to be large, then the rest as it comes. Close (the
// transport always closes a request's body) stops the writer.
type streamedBody struct {
	io.Reader
	pr *io.PipeReader
}

func (b *streamedBody) Close() error {
	b.pr.CloseWithError(errBodyClosed)
	return nil
}

// bodyErrorOf returns the *bodyError that ended a request, if one did.
func bodyErrorOf(err error) (*bodyError, bool) {
	var berr *bodyError
	if errors.As(err, &berr) {
		return berr, true
	}
	return nil, false
}
