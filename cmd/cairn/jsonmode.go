package main

import (
	"bufio"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/rpcmode/pi"
)

// jsonWriter writes pi's `--mode json` stream: a session header line, then
// every event as one JSON line in pi's shapes.
type jsonWriter struct {
	out       *bufio.Writer
	buf       []byte
	err       error
	compat073 bool // pi 0.73's event shapes (--rpc-compat 0.73)
}

func newJSONWriter(out *bufio.Writer, cwd string, compat073 bool) *jsonWriter {
	w := &jsonWriter{out: out, compat073: compat073}
	header := fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":%q,"cwd":`,
		core.NewUUID(), time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	w.buf = core.AppendJSONString(append(w.buf[:0], header...), cwd)
	w.buf = append(w.buf, "}\n"...)
	w.flush()
	return w
}

func (w *jsonWriter) write(e core.Event) {
	if w.err != nil {
		return
	}
	var ok bool
	var err error
	w.buf, ok, err = pi.AppendEvent(w.buf[:0], e, w.compat073)
	if err != nil {
		w.err = fmt.Errorf("encode %s event: %w", e.EventType(), err)
		return
	}
	if !ok {
		return
	}
	w.buf = append(w.buf, '\n')
	w.flush()
}

func (w *jsonWriter) flush() {
	if _, err := w.out.Write(w.buf); err != nil {
		w.err = err
		return
	}
	w.err = w.out.Flush()
}

func (w *jsonWriter) finish() error { return w.err }
