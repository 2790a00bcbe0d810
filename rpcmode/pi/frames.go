package pi

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxFrameBytes is the longest command line Serve accepts: 64 MiB, room for
// a prompt with several large images. A longer line is answered with an
// error and skipped up to the next newline.
const MaxFrameBytes = 64 << 20

// idPrefixBytes is how much of an oversized frame is kept to find its id.
const idPrefixBytes = 64 << 10

// frameReader splits a byte stream into frames as pi's jsonl reader does:
// at '\n' only (never at U+2028 or U+2029), with one trailing '\r' removed,
// and a last frame that has no newline still counts. Frames longer than max
// bytes are reported as too long and skipped; reading resumes at the next
// newline. It never holds more than about max bytes.
type frameReader struct {
	r   *bufio.Reader
	max int
	buf []byte
	eof bool
}

func newFrameReader(r io.Reader, max int) *frameReader {
	if max <= 0 {
		max = MaxFrameBytes
	}
	return &frameReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next frame without its line ending. When the frame was
// longer than the limit, tooLong is set and frame holds only its first bytes.
// The frame is valid until the next call. At the end of the input err is
// io.EOF; other read errors are returned as they are.
func (f *frameReader) next() (frame []byte, tooLong bool, err error) {
	if f.eof {
		return nil, false, io.EOF
	}
	if cap(f.buf) > 4<<20 {
		// Do not keep a huge buffer alive after one huge frame.
		f.buf = nil
	}
	f.buf = f.buf[:0]
	for {
		chunk, err := f.r.ReadSlice('\n')
		content := bytes.TrimSuffix(chunk, []byte{'\n'})
		switch {
		case tooLong:
			// Skipping: keep nothing more.
		case len(f.buf)+len(content) > f.max+1:
			// One byte of slack: a '\r' before the '\n' is not content.
			tooLong = true
			keep := min(idPrefixBytes-len(f.buf), len(content))
			if keep > 0 {
				f.buf = append(f.buf, content[:keep]...)
			}
		default:
			f.buf = append(f.buf, content...)
		}
		switch {
		case err == nil:
			frame, tooLong = f.finish(tooLong)
			return frame, tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			f.eof = true
			if len(f.buf) == 0 && !tooLong && len(chunk) == 0 {
				return nil, false, io.EOF
			}
			frame, tooLong = f.finish(tooLong)
			return frame, tooLong, nil
		default:
			return nil, false, err
		}
	}
}

// finish removes a '\r' line ending and applies the limit to what is left.
func (f *frameReader) finish(tooLong bool) ([]byte, bool) {
	if tooLong {
		return f.buf, true
	}
	frame := bytes.TrimSuffix(f.buf, []byte{'\r'})
	if len(frame) > f.max {
		// One byte over, and it was not a '\r'.
		return frame[:min(len(frame), idPrefixBytes)], true
	}
	return frame, false
}
