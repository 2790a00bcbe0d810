package synaps

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxFrameBytes is the longest inbound line the protocol allows: 1 MiB,
// not counting its line ending.
const MaxFrameBytes = 1 << 20

// lineReader splits input into lines at '\n' (one trailing '\r' is
// dropped). A line longer than max is reported as too long and skipped up
// to its newline without being kept: memory stays bounded by max.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
	eof bool
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = MaxFrameBytes
	}
	return &lineReader{r: bufio.NewReaderSize(r, 32<<10), max: max}
}

// next returns the next line, valid until the next call. tooLong reports
// a line over the limit, whose content is then not returned. At the end of
// input err is io.EOF.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	if l.eof {
		return nil, false, io.EOF
	}
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		content := bytes.TrimSuffix(chunk, []byte{'\n'})
		if !tooLong {
			// One spare byte: a '\r' before the newline is not content.
			if len(l.buf)+len(content) > l.max+1 {
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, content...)
			}
		}
		switch {
		case err == nil:
			return l.finish(tooLong)
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			l.eof = true
			if len(chunk) == 0 && len(l.buf) == 0 && !tooLong {
				return nil, false, io.EOF
			}
			return l.finish(tooLong)
		default:
			return nil, false, err
		}
	}
}

func (l *lineReader) finish(tooLong bool) ([]byte, bool, error) {
	if tooLong {
		return nil, true, nil
	}
	line := bytes.TrimSuffix(l.buf, []byte{'\r'})
	if len(line) > l.max {
		return nil, true, nil
	}
	return line, false, nil
}
