package jsonl

import "io"

// Frame is one output line of a headless protocol written in pieces, for
// an answer too large to build in memory first (a long session's whole
// history): Head, then what Body writes, then Tail. The newline after it
// is the writer's. The writer holds its output for the whole frame, so
// nothing else is written inside it.
type Frame struct {
	Head []byte
	Body io.WriterTo
	Tail []byte
}

// Write writes the frame to w. A write error stops it (writeErr). An
// error of Body's own (bodyErr) does not: Body is expected to leave what
// it wrote valid (core.MessagesJSON closes its array), so Tail is still
// written and the line stays whole; the caller reports bodyErr after it.
func (f Frame) Write(w io.Writer) (bodyErr, writeErr error) {
	ew := &errWriter{w: w}
	ew.Write(f.Head)
	if ew.err != nil {
		return nil, ew.err
	}
	if f.Body != nil {
		_, bodyErr = f.Body.WriteTo(ew)
		if ew.err != nil {
			return nil, ew.err
		}
	}
	ew.Write(f.Tail)
	return bodyErr, ew.err
}

// errWriter passes writes on to w until the first error, which it keeps.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
