package extension

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
)

// Limits on what an extension may write to cairn.
const (
	// MaxFrameBytes is the largest message an extension may send; a
	// longer line cuts it off as soon as it passes the limit.
	MaxFrameBytes = 16 << 20
	// floodBurst and floodRate bound its output over time: it may write
	// floodBurst bytes at once, and floodRate bytes a second after that.
	floodBurst = 32 << 20
	floodRate  = 4 << 20
	// maxBadFrames is how many unreadable lines in a row cut it off.
	maxBadFrames = 8
)

// ErrFrameTooLong and ErrFlood say why an extension was cut off.
var (
	ErrFrameTooLong = fmt.Errorf("sent a message longer than %d MiB", MaxFrameBytes>>20)
	ErrFlood        = errors.New("wrote more output than cairn reads (over 4 MiB a second)")
)

// guard reads an extension's stdout and fails, cutting it off, when a
// line grows past MaxFrameBytes or the output passes its byte budget, so
// neither an endless line nor a flood of them ever reaches cairn's memory
// or its time.
type guard struct {
	r    io.Reader
	now  func() time.Time
	line int // bytes since the last newline
	// budget is the bytes the extension may still write now; it refills
	// at floodRate up to floodBurst.
	budget float64
	last   time.Time
}

func newGuard(r io.Reader, now func() time.Time) *guard {
	return &guard{r: r, now: now, budget: floodBurst, last: now()}
}

func (g *guard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if n == 0 {
		return n, err
	}
	t := g.now()
	g.budget = min(floodBurst, g.budget+t.Sub(g.last).Seconds()*floodRate) - float64(n)
	g.last = t
	if g.budget < 0 {
		return 0, ErrFlood
	}
	chunk := p[:n]
	if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
		g.line = n - i - 1
	} else {
		g.line += n
	}
	if g.line > MaxFrameBytes+1 {
		return 0, ErrFrameTooLong
	}
	return n, err
}
