package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
)

// remoteTerminal is a terminal attached over the socket (`cairn attach`):
// keys arrive in frames beside its size changes, and what is drawn goes
// straight back.
type remoteTerminal struct {
	hello terminalHello
	// In is the terminal's keys.
	In io.Reader
	// Out is where the screen is drawn.
	Out io.Writer
	// Sizes delivers the terminal's new size, columns and rows.
	Sizes <-chan [2]int
	// done is closed when the terminal's side ended.
	done <-chan struct{}
}

// The frames a terminal client sends: a type byte, a 4-byte big-endian
// length, then the payload.
const (
	frameKeys   = 'k' // payload: bytes typed
	frameResize = 'r' // payload: columns and rows, 2 bytes each
)

// maxTerminalFrame bounds one frame (a paste is split by the client).
const maxTerminalFrame = 1 << 20

// newRemoteTerminal reads the client's frames from in: keys to In, sizes
// to Sizes. A malformed frame ends the terminal.
func newRemoteTerminal(hello terminalHello, in io.Reader, c net.Conn) remoteTerminal {
	keysR, keysW := io.Pipe()
	sizes := make(chan [2]int, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := readTerminalFrames(in, keysW, sizes)
		if err == nil {
			err = io.EOF
		}
		keysW.CloseWithError(err)
	}()
	return remoteTerminal{hello: hello, In: keysR, Out: c, Sizes: sizes, done: done}
}

// readTerminalFrames demultiplexes the client's frames until in ends.
func readTerminalFrames(in io.Reader, keys io.Writer, sizes chan<- [2]int) error {
	r := bufio.NewReader(in)
	var head [5]byte
	buf := make([]byte, 0, 4096)
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		n := binary.BigEndian.Uint32(head[1:])
		if n > maxTerminalFrame {
			return fmt.Errorf("a terminal frame of %d bytes is over the limit of %d", n, maxTerminalFrame)
		}
		if int(n) > cap(buf) {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return err
		}
		switch head[0] {
		case frameKeys:
			if _, err := keys.Write(buf); err != nil {
				return err
			}
		case frameResize:
			if n != 4 {
				return fmt.Errorf("a resize frame has %d bytes, not 4", n)
			}
			size := [2]int{int(binary.BigEndian.Uint16(buf)), int(binary.BigEndian.Uint16(buf[2:]))}
			select {
			case sizes <- size:
			default: // a burst of resizes: the next one will say the last size
			}
		default:
			return fmt.Errorf("unknown terminal frame type %q", head[0])
		}
	}
}

// writeTerminalFrame writes one client frame.
func writeTerminalFrame(w io.Writer, kind byte, payload []byte) error {
	var head [5]byte
	head[0] = kind
	binary.BigEndian.PutUint32(head[1:], uint32(len(payload)))
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}
