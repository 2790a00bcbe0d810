package bashmode

import (
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// parseState is where the parser is in an escape sequence.
type parseState uint8

const (
	stateGround    parseState = iota
	stateEscape               // after ESC
	stateEscInter             // ESC followed by intermediate bytes (charset designations)
	stateCSI                  // ESC [ ... up to the final byte
	stateString               // OSC, DCS, SOS, PM or APC: skipped up to its terminator
	stateStringEsc            // ESC inside a string: ST if a backslash follows
)

// maxCSI bounds the parameter bytes kept for one control sequence; longer
// sequences are read to their end and ignored.
const maxCSI = 64

// parser turns a byte stream into the Term's operations. It keeps what it
// needs across writes: an unfinished UTF-8 character and the escape
// sequence under way.
type parser struct {
	state    parseState
	isOSC    bool // the string under way ends at BEL too
	seq      [maxCSI]byte
	nseq     int
	overflow bool
	carry    [utf8.UTFMax]byte
	ncarry   int
}

func (p *parser) feed(t *Term, b []byte) {
	b = p.finishCarry(t, b)
	for i := 0; i < len(b); {
		c := b[i]
		if p.state != stateGround {
			p.step(t, c)
			i++
			continue
		}
		switch {
		case c >= 0x20 && c < 0x7f:
			j := i + 1
			for j < len(b) && b[j] >= 0x20 && b[j] < 0x7f {
				j++
			}
			t.printASCII(b[i:j])
			i = j
		case c < 0x20 || c == 0x7f:
			t.control(p, c)
			i++
		case !utf8.FullRune(b[i:]):
			p.ncarry = copy(p.carry[:], b[i:])
			return
		default:
			r, size := utf8.DecodeRune(b[i:])
			t.printRune(r)
			i += size
		}
	}
}

// finishCarry completes a character split across writes and returns what
// is left of b.
func (p *parser) finishCarry(t *Term, b []byte) []byte {
	for p.ncarry > 0 && len(b) > 0 {
		var tmp [2 * utf8.UTFMax]byte
		n := copy(tmp[:], p.carry[:p.ncarry])
		m := copy(tmp[n:], b[:min(len(b), utf8.UTFMax)])
		buf := tmp[:n+m]
		if !utf8.FullRune(buf) {
			p.ncarry = copy(p.carry[:], buf)
			return nil
		}
		r, size := utf8.DecodeRune(buf)
		t.printRune(r)
		if size > n {
			p.ncarry = 0
			return b[size-n:]
		}
		// An invalid byte: the bytes after it are looked at afresh.
		p.ncarry = copy(p.carry[:], p.carry[size:p.ncarry])
	}
	return b
}

// step advances an escape sequence by one byte.
func (p *parser) step(t *Term, c byte) {
	switch p.state {
	case stateEscape:
		p.escape(t, c)
	case stateEscInter:
		switch {
		case c < 0x20:
			p.c0InSequence(t, c)
		case c >= 0x30 && c < 0x7f:
			p.state = stateGround
		}
	case stateCSI:
		switch {
		case c >= 0x40 && c < 0x7f:
			p.state = stateGround
			if !p.overflow {
				t.csi(p.seq[:p.nseq], c)
			}
		case c >= 0x20 && c < 0x40:
			if p.nseq < maxCSI {
				p.seq[p.nseq] = c
				p.nseq++
			} else {
				p.overflow = true
			}
		case c < 0x20:
			p.c0InSequence(t, c)
		}
	case stateString:
		switch c {
		case 0x1b:
			p.state = stateStringEsc
		case 0x07:
			if p.isOSC {
				p.state = stateGround
			}
		case 0x18, 0x1a:
			p.state = stateGround
		}
	case stateStringEsc:
		if c == '\\' {
			p.state = stateGround
			return
		}
		p.state = stateEscape
		p.escape(t, c)
	}
}

// c0InSequence handles a control character met inside a sequence: ESC
// starts a new one, CAN and SUB abandon it, the others act as usual.
func (p *parser) c0InSequence(t *Term, c byte) {
	switch c {
	case 0x1b:
		p.begin(stateEscape)
	case 0x18, 0x1a:
		p.state = stateGround
	default:
		t.control(p, c)
	}
}

func (p *parser) begin(s parseState) {
	p.state, p.nseq, p.overflow = s, 0, false
}

// escape handles the byte after ESC.
func (p *parser) escape(t *Term, c byte) {
	switch {
	case c == '[':
		p.begin(stateCSI)
	case c == ']':
		p.begin(stateString)
		p.isOSC = true
	case c == 'P' || c == 'X' || c == '^' || c == '_':
		p.begin(stateString)
		p.isOSC = false
	case c >= 0x20 && c < 0x30:
		p.state = stateEscInter
	case c < 0x20:
		p.c0InSequence(t, c)
	default:
		p.state = stateGround
		t.escFinal(c)
	}
}

// control acts on a C0 control character in the text.
func (t *Term) control(p *parser, c byte) {
	switch c {
	case '\r':
		t.curCol, t.wrapNext = 0, false
	case '\n', '\v', '\f':
		t.lineFeed()
	case '\b':
		if t.wrapNext {
			t.wrapNext = false
		} else {
			t.moveCol(t.curCol - 1)
		}
	case '\t':
		if !t.wrapNext {
			t.moveCol((t.curCol/8 + 1) * 8)
		}
	case 0x1b:
		p.begin(stateEscape)
	}
}

// escFinal acts on the two-byte escape sequences the model knows.
func (t *Term) escFinal(c byte) {
	switch c {
	case '7':
		t.saveCursor()
	case '8':
		t.restoreCursor()
	case 'D': // index: down a row
		col := t.curCol
		t.lineFeed()
		t.moveCol(col)
	case 'E': // next line
		t.lineFeed()
	case 'M': // reverse index: up a row
		t.moveRow(-1)
	}
}

// csi acts on a control sequence; private and unknown ones are dropped.
func (t *Term) csi(seq []byte, final byte) {
	if len(seq) > 0 && seq[0] == '?' && (final == 'h' || final == 'l') {
		t.setPrivateModes(seq[1:], final == 'h')
		return
	}
	for _, c := range seq {
		if c >= 0x3c && c <= 0x3f || c < 0x30 {
			return // private parameters (?, >, <, =) or intermediates
		}
	}
	n := firstParam(seq)
	count := max(n, 1)
	switch final {
	case 'm':
		st := t.pen
		applySGR(&st, seq)
		t.setPen(st)
	case 'A':
		t.moveRow(-count)
	case 'B':
		t.moveRow(count)
	case 'C':
		t.moveCol(t.curCol + count)
	case 'D':
		t.moveCol(t.curCol - count)
	case 'E':
		t.moveRow(count)
		t.curCol = 0
	case 'F':
		t.moveRow(-count)
		t.curCol = 0
	case 'G', '`':
		t.moveCol(count - 1)
	case 'K':
		t.eraseLine(n)
	case 'J':
		if n == 0 {
			t.eraseBelow()
		}
	case 'X':
		t.blank(t.cur(), t.curCol, t.curCol+count)
		t.wrapNext = false
	case 'P':
		t.deleteChars(count)
		t.wrapNext = false
	case '@':
		t.insertBlanks(count)
		t.wrapNext = false
	case 's':
		if len(seq) == 0 {
			t.saveCursor()
		}
	case 'u':
		if len(seq) == 0 {
			t.restoreCursor()
		}
	}
}

// firstParam reads the first number of a control sequence; missing reads
// as 0. Huge values are capped.
func firstParam(seq []byte) int {
	n := 0
	for _, c := range seq {
		if c < '0' || c > '9' {
			break
		}
		if n < 1<<20 {
			n = n*10 + int(c-'0')
		}
	}
	return n
}

// printASCII prints a run of printable ASCII characters.
func (t *Term) printASCII(run []byte) {
	for i := 0; i < len(run); {
		rw := t.cur()
		if t.wrapNext || t.penRow != t.curRow || t.curCol != len(rw.cells) {
			t.print(rune(run[i]), 1)
			i++
			continue
		}
		// The common case, written out: appending at the end of the row.
		k := min(t.cols-t.curCol, len(run)-i)
		for _, c := range run[i : i+k] {
			rw.cells = append(rw.cells, cell{r: rune(c), style: t.penIdx})
		}
		rw.dirty = true
		i += k
		t.curCol += k
		if t.curCol >= t.cols {
			t.curCol, t.wrapNext = t.cols-1, true
		}
	}
}

// printRune prints a non-ASCII character; invalid input arrives as
// utf8.RuneError and is shown as such. C1 controls are dropped.
func (t *Term) printRune(r rune) {
	if r >= 0x80 && r < 0xa0 {
		return
	}
	w := 1
	if r != utf8.RuneError {
		w = min(displaywidth.Rune(r), 2)
	}
	t.print(r, w)
}
