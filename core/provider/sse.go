package provider

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxSSEEventSize bounds one server-sent event's data. A larger event is a
// protocol error rather than a reason to exhaust memory.
const MaxSSEEventSize = 64 << 20

// ErrSSEEventTooLong is returned when an event exceeds MaxSSEEventSize.
var ErrSSEEventTooLong = errors.New("sse: event larger than 64 MiB")

// SSEEvent is one dispatched server-sent event. Data joins the event's data
// lines with "\n"; it is only valid until the next call to Next. Event and ID
// are the values given in this event's own block of lines: unlike a browser's
// EventSource, which keeps the last id for reconnecting, nothing here
// reconnects, so an id never carries over to a later event.
type SSEEvent struct {
	Event string
	Data  []byte
	ID    string
}

// SSEDecoder reads server-sent events (the text/event-stream format) from a
// response body. It accepts LF and CRLF line endings, skips comment lines and
// unknown fields, and dispatches a final event that lacks its blank line.
type SSEDecoder struct {
	r       *bufio.Reader
	data    []byte
	line    []byte
	event   []byte
	id      []byte
	name    string // the last dispatched event name, reused to avoid an allocation per event
	hasData bool
	started bool // the first line has been read (and a BOM stripped)
	err     error
}

// NewSSEDecoder returns a decoder reading from r.
func NewSSEDecoder(r io.Reader) *SSEDecoder {
	return &SSEDecoder{r: bufio.NewReaderSize(r, 32<<10)}
}

// Next returns the next event, or io.EOF when the stream ends cleanly. Other
// errors are the reader's (a dropped connection) or ErrSSEEventTooLong.
func (d *SSEDecoder) Next() (SSEEvent, error) {
	if d.err != nil {
		return SSEEvent{}, d.err
	}
	d.resetBlock()
	for {
		line, err := d.readLine()
		if !d.started {
			d.started = true
			// The event-stream format allows one leading byte order mark.
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				// The last line had no terminator: process it, then dispatch.
				d.field(line)
			}
			if err == io.EOF && d.hasData {
				d.err = io.EOF
				return d.dispatch(), nil
			}
			d.err = err
			return SSEEvent{}, err
		}
		if len(line) == 0 {
			if d.hasData {
				return d.dispatch(), nil
			}
			// A blank line ends the block even when it had no data to
			// dispatch; its name and id must not leak into the next event.
			d.resetBlock()
			continue
		}
		d.field(line)
		if len(d.data) > MaxSSEEventSize {
			d.err = ErrSSEEventTooLong
			return SSEEvent{}, d.err
		}
	}
}

// resetBlock forgets the fields of the block being assembled.
func (d *SSEDecoder) resetBlock() {
	d.data = d.data[:0]
	d.event = d.event[:0]
	d.id = d.id[:0]
	d.hasData = false
}

func (d *SSEDecoder) dispatch() SSEEvent {
	if string(d.event) != d.name {
		d.name = string(d.event)
	}
	return SSEEvent{Event: d.name, Data: d.data, ID: string(d.id)}
}

// field applies one non-empty line to the event being assembled.
func (d *SSEDecoder) field(line []byte) {
	if line[0] == ':' {
		return
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		if d.hasData {
			d.data = append(d.data, '\n')
		}
		d.data = append(d.data, value...)
		d.hasData = true
	case "event":
		d.event = append(d.event[:0], value...)
	case "id":
		d.id = append(d.id[:0], value...)
	}
}

// readLine returns one line without its LF or CRLF terminator. The returned
// slice is valid until the next call.
func (d *SSEDecoder) readLine() ([]byte, error) {
	d.line = d.line[:0]
	for {
		chunk, err := d.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			d.line = append(d.line, chunk...)
			if len(d.line) > MaxSSEEventSize {
				return nil, ErrSSEEventTooLong
			}
			continue
		}
		var line []byte
		if len(d.line) == 0 {
			line = chunk
		} else {
			d.line = append(d.line, chunk...)
			line = d.line
		}
		if err != nil {
			if err == io.EOF {
				return trimEOL(line), io.EOF
			}
			return nil, fmt.Errorf("read event stream: %w", err)
		}
		return trimEOL(line), nil
	}
}

func trimEOL(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line
}
