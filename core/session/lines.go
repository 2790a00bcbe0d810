package session

import (
	"bufio"
	"io"
)

// readBufferSize is the read buffer for indexing: lines longer than this
// are assembled in a separate, reused buffer.
const readBufferSize = 256 << 10

// lineReader splits a file into lines of any length.
type lineReader struct {
	r              *bufio.Reader
	long           []byte
	off            int64 // offset of the next line
	lineNo         int
	lastTerminated bool
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBufferSize), lastTerminated: true}
}

// next returns the next line without its newline (valid until the next
// call), its offset and whether it ended with a newline. It returns io.EOF
// when no bytes are left.
func (lr *lineReader) next() (line []byte, off int64, terminated bool, err error) {
	b, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = lr.r.ReadSlice('\n')
			lr.long = append(lr.long, b...)
		}
		b = lr.long
	}
	switch {
	case err == nil:
	case err == io.EOF && len(b) > 0:
		err = nil
	default:
		return nil, lr.off, false, err
	}
	off = lr.off
	lr.off += int64(len(b))
	lr.lineNo++
	terminated = b[len(b)-1] == '\n'
	lr.lastTerminated = terminated
	if terminated {
		b = b[:len(b)-1]
	}
	return b, off, terminated, nil
}
