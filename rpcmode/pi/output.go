package pi

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonl"
)

// response is one answer to a command. Its frame has pi's key order:
// id, type, command, success, then data or error.
type response struct {
	id      json.RawMessage // echoed as sent; nil omits the key
	command string          // "" omits the key (a line without a type)
	data    []byte          // encoded payload; nil omits the key
	err     string          // non-empty for a failure
	// stream, when set, is a payload too large to encode first: the
	// writer writes it as it encodes it (see frame).
	stream *streamedData
}

// streamedData is a response payload written in pieces: head, what body
// writes, tail.
type streamedData struct {
	head []byte
	body io.WriterTo
	tail []byte
}

// frame is the response as the writer writes it: a response with a
// streamed payload is written in pieces.
func (r response) frame() jsonl.Frame {
	if r.stream == nil || r.err != "" {
		return jsonl.Frame{Head: r.appendTo(nil)}
	}
	head := r.appendTo(nil)
	head = append(head[:len(head)-1], `,"data":`...)
	head = append(head, r.stream.head...)
	tail := append(slices.Clip(r.stream.tail), '}')
	return jsonl.Frame{Head: head, Body: r.stream.body, Tail: tail}
}

func (r response) appendTo(dst []byte) []byte {
	dst = append(dst, '{')
	if r.id != nil {
		dst = append(dst, `"id":`...)
		dst = append(dst, r.id...)
		dst = append(dst, ',')
	}
	dst = append(dst, `"type":"response"`...)
	if r.command != "" {
		dst = append(dst, `,"command":`...)
		dst = core.AppendJSONString(dst, r.command)
	}
	if r.err != "" {
		dst = append(dst, `,"success":false,"error":`...)
		dst = core.AppendJSONString(dst, r.err)
		return append(dst, '}')
	}
	dst = append(dst, `,"success":true`...)
	if r.data != nil {
		dst = append(dst, `,"data":`...)
		dst = append(dst, r.data...)
	}
	return append(dst, '}')
}

// markKind says what a mark asks of the writer.
type markKind uint8

const (
	// markLine writes a frame of the server's own: a response, an
	// extension UI request, or an event the session does not publish.
	markLine markKind = iota
	// markHold starts holding frames back: a prompt is being accepted and
	// its response must precede its agent_start.
	markHold
	// markRelease writes the held prompt's response, after the frames held
	// before its agent_start and before the others.
	markRelease
	// markCommand starts a prompt that runs an extension command (see
	// extcommand.go).
	markCommand
	// markCommandAnswer gives that prompt's response; immediate when no
	// run follows.
	markCommandAnswer
	// markFilter changes the event filter for the frames after it.
	markFilter
	// markEnd stops the writer.
	markEnd
)

// mark is a frame of the server's own, placed in the server's subscription
// (agent.Subscription.Mark) so that it reaches stdout in order with the
// session's events: a response to set_thinking_level after the
// thinking_level_changed it caused.
type mark struct {
	srv  *server
	kind markKind
	line []byte
	// body, with markLine, is written after line and before tail (a
	// frame written in pieces: see jsonl.Frame).
	body   io.WriterTo
	tail   []byte
	event  string // the event type of line, for the filter; "" for others
	filter eventFilter
	// immediate, with markCommandAnswer, says no run follows.
	immediate bool
}

// EventType implements core.Event; other subscribers ignore marks.
func (mark) EventType() string { return "rpc_frame" }

// eventFilter is set_event_filter's state: which event types are written
// (nil: all) and in which shapes.
type eventFilter struct {
	events []string
	wire   wire
}

func (f *eventFilter) allows(eventType string) bool {
	return f.events == nil || slices.Contains(f.events, eventType)
}

// writer owns stdout: it alone writes frames, one per line, in the order
// the session's event stream delivers events and marks. It flushes when no
// further frame is ready, so bursts of deltas go out in few writes.
type writer struct {
	srv     *server
	out     *bufio.Writer
	filter  eventFilter
	scratch []byte
	err     error

	holding bool
	held    []heldFrame
	command commandAnswer

	// onEvent sees every session event before it is written.
	onEvent func(core.Event)
	// afterEvent sees every session event once it is written and may
	// return a frame to write right after it.
	afterEvent func(core.Event) []byte
}

// heldFrame is a frame kept back while a prompt is accepted. A frame
// written in pieces is kept as its pieces (body is a snapshot taken when
// the command was answered), not written out in memory.
type heldFrame struct {
	line       []byte
	body       io.WriterTo
	tail       []byte
	agentStart bool
}

func newWriter(srv *server, out io.Writer) *writer {
	return &writer{srv: srv, out: bufio.NewWriterSize(out, 64<<10)}
}

// run writes what events delivers until a markEnd of its server. done is
// closed when it returns.
func (w *writer) run(events <-chan core.Event, done chan<- struct{}) {
	defer close(done)
	for {
		var e core.Event
		var ok bool
		select {
		case e, ok = <-events:
		default:
			w.flush()
			e, ok = <-events
		}
		if !ok || w.handle(e) {
			w.flush()
			return
		}
	}
}

// handle writes one event or acts on one mark; it reports the end mark.
func (w *writer) handle(e core.Event) (end bool) {
	m, isMark := e.(mark)
	if !isMark {
		w.event(e)
		if w.afterEvent != nil {
			if line := w.afterEvent(e); line != nil {
				w.emit(line, false)
			}
		}
		return false
	}
	if m.srv != w.srv {
		return false
	}
	switch m.kind {
	case markLine:
		if m.body != nil {
			w.emitFrame(jsonl.Frame{Head: m.line, Body: m.body, Tail: m.tail})
		} else if m.event == "" || w.filter.allows(m.event) {
			w.emit(m.line, false)
		}
	case markHold:
		w.holding = true
	case markCommand:
		w.command = commandAnswer{on: true}
	case markCommandAnswer:
		w.commandAnswered(m.line, m.immediate)
	case markRelease:
		w.release(m.line)
	case markFilter:
		w.filter = m.filter
	case markEnd:
		if w.holding {
			w.release(nil)
		}
		if w.command.resp != nil {
			w.write(w.command.resp)
		}
		return true
	}
	return false
}

// event writes a session event in pi's shape, if pi has one for it.
func (w *writer) event(e core.Event) {
	if w.onEvent != nil {
		w.onEvent(e)
	}
	if w.commandEvent(e) {
		return
	}
	switch e := e.(type) {
	case core.Notice:
		w.emit(notifyFrame(e.Message, e.Level), false)
		return
	case core.Question:
		if line, err := marshal(questionFrame(e)); err == nil {
			w.emit(line, false)
		}
		return
	case core.StatusChanged, core.WidgetChanged, core.TitleChanged, core.EditorTextSet:
		if line, err := marshal(extensionUIFrame(e)); err == nil {
			w.emit(line, false)
		}
		return
	}
	_, agentStart := e.(core.AgentStart)
	if !w.filter.allows(wireName(e, w.filter.wire)) {
		if agentStart && w.holding {
			// Filtered out, agent_start still marks where a held
			// prompt's response goes: before the run's events.
			w.held = append(w.held, heldFrame{agentStart: true})
		}
		return
	}
	line, ok, err := appendEvent(w.scratch[:0], e, w.filter.wire)
	w.scratch = line[:0]
	if err != nil || !ok {
		return
	}
	w.emit(line, agentStart)
}

// emit writes one frame, or holds a copy of it while a prompt is accepted.
func (w *writer) emit(line []byte, agentStart bool) {
	if w.holding {
		w.held = append(w.held, heldFrame{line: slices.Clone(line), agentStart: agentStart})
		return
	}
	w.write(line)
}

// emitFrame writes a frame in pieces, or holds its pieces while a prompt
// is accepted.
func (w *writer) emitFrame(f jsonl.Frame) {
	if w.holding {
		w.held = append(w.held, heldFrame{line: slices.Clone(f.Head), body: f.Body, tail: f.Tail})
		return
	}
	w.writeFrame(f)
}

// release ends holding: frames held before the first agent_start, then the
// prompt's response, then the rest.
func (w *writer) release(resp []byte) {
	w.holding = false
	i := slices.IndexFunc(w.held, func(h heldFrame) bool { return h.agentStart })
	if i < 0 {
		i = len(w.held)
	}
	for _, h := range w.held[:i] {
		w.writeHeld(h)
	}
	if resp != nil {
		w.write(resp)
	}
	for _, h := range w.held[i:] {
		if h.line != nil { // nil: a filtered agent_start's place
			w.writeHeld(h)
		}
	}
	w.held = nil
}

// writeHeld writes a frame that was held, whole or in its pieces.
func (w *writer) writeHeld(h heldFrame) {
	if h.body != nil {
		w.writeFrame(jsonl.Frame{Head: h.line, Body: h.body, Tail: h.tail})
		return
	}
	w.write(h.line)
}

// writeFrame writes a frame in pieces. Nothing else is written meanwhile:
// this goroutine alone writes, and events wait in the subscription. A
// payload cut short (a message that cannot be encoded) still ends as a
// valid line, and a notification after it says so.
func (w *writer) writeFrame(f jsonl.Frame) {
	if w.err != nil {
		return
	}
	bodyErr, err := f.Write(w.out)
	if err == nil {
		err = w.out.WriteByte('\n')
	}
	if err != nil {
		w.fail(err)
		return
	}
	if bodyErr != nil {
		w.write(notifyFrame("cairn could not write the whole answer; it was cut short: "+bodyErr.Error(), core.NotifyError))
	}
}

func (w *writer) write(line []byte) {
	if w.err != nil {
		return
	}
	if _, err := w.out.Write(line); err != nil {
		w.fail(err)
		return
	}
	if err := w.out.WriteByte('\n'); err != nil {
		w.fail(err)
	}
}

func (w *writer) flush() {
	if w.err == nil {
		if err := w.out.Flush(); err != nil {
			w.fail(err)
		}
	}
}

// fail records the first write error and shuts the server down: nobody is
// reading any more.
func (w *writer) fail(err error) {
	w.err = err
	w.srv.writeFailed(err)
}

// wireName is the type an event's frame has: pi 0.87 writes automatic
// compactions as compaction_start and compaction_end, like manual ones.
func wireName(e core.Event, w wire) string {
	if !w.v073 {
		switch e.(type) {
		case core.AutoCompactionStart:
			return "compaction_start"
		case core.AutoCompactionEnd:
			return "compaction_end"
		}
	}
	return e.EventType()
}
