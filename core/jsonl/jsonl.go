// Package jsonl reads the line-framed input of cairn's headless protocols
// (pi rpc, ACP, aionrs, synaps, OpenAgent JSON-RPC): one frame per line,
// with a size limit enforced while reading, so an oversized or endless line
// never sits whole in memory. ReadUntil and Served are the rest of a
// Serve loop every stdio adapter shares: read until told to stop, and end
// with the write error, else the read error, the input's end being none.
// On the output side, Frame is a line written in pieces, for an answer too
// large to build in memory first (a long session's history).
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Reader splits a byte stream into lines: at '\n' only (never at U+2028 or
// U+2029), with one trailing '\r' removed; a last line without a newline
// still counts. A line longer than the limit is reported as too long and
// skipped; reading resumes after its newline. The Reader holds at most
// about the limit in memory.
type Reader struct {
	r         *bufio.Reader
	max       int
	prefix    int
	skipBlank bool
	buf       []byte
	eof       bool
}

// NewReader reads lines of at most max bytes (not counting the line
// ending) from r. max must be positive.
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		panic("jsonl: the line limit must be positive")
	}
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// KeepPrefix makes Next return up to n first bytes of a line that is too
// long (by default none), for example to find the id of a request to
// refuse. It returns the Reader.
func (l *Reader) KeepPrefix(n int) *Reader {
	l.prefix = max(0, min(n, l.max))
	return l
}

// SkipBlank makes Next pass over lines that hold only white space (JSON-RPC
// peers send them between frames). It returns the Reader.
func (l *Reader) SkipBlank() *Reader {
	l.skipBlank = true
	return l
}

// Next returns the next line without its line ending; it is valid until
// the following call. When the line was longer than the limit, tooLong is
// set and line holds only the prefix KeepPrefix asked for. At the end of
// the input err is io.EOF; other read errors are returned as they are.
func (l *Reader) Next() (line []byte, tooLong bool, err error) {
	for {
		line, tooLong, err = l.next()
		if err != nil || tooLong || !l.skipBlank || len(bytes.TrimSpace(line)) > 0 {
			return line, tooLong, err
		}
	}
}

func (l *Reader) next() (line []byte, tooLong bool, err error) {
	if l.eof {
		return nil, false, io.EOF
	}
	if cap(l.buf) > 4<<20 {
		// Do not keep one huge line's buffer alive.
		l.buf = nil
	}
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		content := bytes.TrimSuffix(chunk, []byte{'\n'})
		switch {
		case tooLong:
			// Skipping: keep nothing more.
		case len(l.buf)+len(content) > l.max+1:
			// One byte of slack: a '\r' before the '\n' is not content.
			tooLong = true
			keep := min(l.prefix-len(l.buf), len(content))
			if keep > 0 {
				l.buf = append(l.buf, content[:keep]...)
			}
			l.buf = l.buf[:min(len(l.buf), l.prefix)]
		default:
			l.buf = append(l.buf, content...)
		}
		switch {
		case err == nil:
			line, tooLong = l.finish(tooLong)
			return line, tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			l.eof = true
			if len(l.buf) == 0 && !tooLong && len(chunk) == 0 {
				return nil, false, io.EOF
			}
			line, tooLong = l.finish(tooLong)
			return line, tooLong, nil
		default:
			return nil, false, err
		}
	}
}

// finish removes a '\r' line ending and applies the limit to what is left.
func (l *Reader) finish(tooLong bool) ([]byte, bool) {
	if tooLong {
		return l.buf, true
	}
	line := bytes.TrimSuffix(l.buf, []byte{'\r'})
	if len(line) > l.max {
		// One byte over, and it was not a '\r'.
		return line[:min(len(line), l.prefix)], true
	}
	return line, false
}
