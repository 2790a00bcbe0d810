package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
)

// Opening a file: every line is indexed and decoded in one pass, a large
// file as two halves at once, then only the active branch stays decoded.

// load indexes and decodes the whole file in one pass, then keeps decoded
// only the active branch. A large file is read as two halves at once.
func (f *File) load() error {
	size := int64(-1)
	if fi, err := f.fh.Stat(); err == nil {
		size = fi.Size()
	}
	parts := []*loader{{spans: f.spans, wantHeader: true}}
	if mid := splitPoint(f.fh, size); mid > 0 {
		second := &loader{spans: f.spans, start: mid}
		done := make(chan struct{})
		go func() {
			defer close(done)
			second.run(io.NewSectionReader(f.fh, mid, size-mid))
		}()
		parts[0].run(io.NewSectionReader(f.fh, 0, mid))
		<-done
		if parts[0].sawHeader {
			parts = append(parts, second)
		} else {
			// The first half was all blank lines: read it all in order.
			parts[0] = &loader{spans: f.spans, wantHeader: true}
			parts[0].run(io.NewSectionReader(f.fh, 0, size))
		}
	} else {
		parts[0].run(io.NewSectionReader(f.fh, 0, math.MaxInt64)) // to the end
	}
	first := parts[0]
	if first.err != nil {
		return first.err
	}
	if !first.sawHeader {
		return fmt.Errorf("%w: no header line", ErrNotSession)
	}
	f.header = first.header
	total := 0
	for _, p := range parts {
		total += len(p.nodes)
	}
	f.nodes = make([]node, 0, total)
	f.byID = make(map[string]int, total)
	for _, p := range parts {
		if p.err != nil {
			return p.err
		}
		for _, w := range p.warnings {
			w.Line += f.lines
			f.warnings = append(f.warnings, w)
		}
		for _, n := range p.nodes {
			n.line += f.lines
			f.byID[n.id] = len(f.nodes)
			f.nodes = append(f.nodes, n)
			// Labels and names apply whichever branch they are on.
			if n.typ == TypeLabel || n.typ == TypeSessionInfo {
				f.noteMeta(n.entry)
			}
		}
		f.lines += p.lr.lineNo
		f.size = p.lr.off
		f.needNewline = p.lr.off > 0 && !p.lr.lastTerminated
	}
	for i := range f.nodes {
		f.nodes[i].parent = f.resolve(&f.nodes[i])
	}
	f.leaf = len(f.nodes) - 1
	err := f.decodePath()
	if size >= parallelLoadMin {
		// Reading a large file leaves megabytes of garbage (and the
		// entries off the active branch): collect it now, before the
		// caller's next allocations make the heap grow past it.
		runtime.GC()
	}
	return err
}

// parallelLoadMin is the size from which a file is read as two halves at
// once (a variable for tests).
var parallelLoadMin int64 = 8 << 20

// splitPoint returns the offset just after the first newline from the
// middle of a file of size bytes, or 0 when the file is read whole.
func splitPoint(r io.ReaderAt, size int64) int64 {
	if size < parallelLoadMin {
		return 0
	}
	buf := make([]byte, 64<<10)
	for off := size / 2; off < size; off += int64(len(buf)) {
		n, _ := r.ReadAt(buf, off)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			if mid := off + int64(i) + 1; mid < size {
				return mid
			}
			return 0
		}
		if n == 0 {
			break
		}
	}
	return 0
}

// loader indexes and decodes the lines of one part of a file, starting at
// offset start; line numbers count from the part's start.
type loader struct {
	spans      *spanReader
	start      int64
	wantHeader bool // the part starts the file: its first line is the header

	dec       decoder
	lr        *lineReader
	sawHeader bool
	header    Header
	nodes     []node
	warnings  []Warning
	err       error
}

func (l *loader) run(r io.Reader) {
	l.lr = newLineReader(r)
	l.lr.off = l.start
	for {
		line, off, terminated, err := l.lr.next()
		if err == io.EOF {
			return
		}
		if err != nil {
			l.err = err
			return
		}
		if isBlank(line) {
			continue
		}
		if l.wantHeader && !l.sawHeader {
			h, herr := l.dec.header(line)
			if herr != nil {
				l.err = fmt.Errorf("%w: line %d: %v", ErrNotSession, l.lr.lineNo, herr)
				return
			}
			if h.Version < 2 {
				l.err = ErrOldVersion
				return
			}
			l.header, l.sawHeader = h, true
			continue
		}
		l.indexLine(line, off, l.lr.lineNo, !terminated)
	}
}

// indexLine adds one entry line to the index, or a warning if it is not
// one. The line is decoded in the same pass (large tool result texts stay
// in the file), since most entries of a session are on its active branch;
// decodePath drops the others.
func (l *loader) indexLine(line []byte, off int64, lineNo int, last bool) {
	l.dec.spill = spillAt(l.spans, off)
	e, err := l.dec.entry(line)
	l.dec.spill = nil
	if err == nil && e.Type == typeSession {
		err = errors.New("a second session header, skipped")
	}
	if err != nil {
		l.warnings = append(l.warnings, Warning{Line: lineNo, Offset: off, Truncated: last, Err: err})
		return
	}
	n := node{id: e.ID, hasParent: e.ParentID != nil, parent: -1, typ: e.Type, line: lineNo, off: off, n: len(line), entry: &e}
	if e.ParentID != nil {
		n.parentID = *e.ParentID
	}
	if l.dec.soft != nil {
		n.warned = true
		l.warnings = append(l.warnings, Warning{Line: lineNo, Offset: off, Kept: true, Err: fmt.Errorf("kept as raw JSON: %w", l.dec.soft)})
	}
	l.nodes = append(l.nodes, n)
}
