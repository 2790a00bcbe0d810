package termimage

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// ColorMode says how a Color is given.
type ColorMode uint8

// The ways a terminal colour is given.
const (
	// ColorDefault is the terminal's default foreground or background.
	ColorDefault ColorMode = iota
	// ColorIndexed is one of the 256 palette colours (0-15 are the theme's).
	ColorIndexed
	// ColorRGB is a true colour.
	ColorRGB
)

// Color is a cell's foreground or background as the program asked for it;
// the renderer's Theme turns it into pixels.
type Color struct {
	Mode    ColorMode
	Index   uint8
	R, G, B uint8
}

// Style is the look of a cell, as set by SGR escapes.
type Style struct {
	FG, BG    Color
	Bold      bool
	Faint     bool
	Italic    bool
	Underline bool
	Reverse   bool
	Strike    bool
	Hidden    bool
}

// Cell is one character cell. A wide character takes two cells: the first
// holds the text with Width 2, the second is a continuation with Width 0.
// Blank cells have Text " ".
type Cell struct {
	Text  string
	Width int
	Style Style
}

// Screen is a grid of cells, one slice per row, every row Cols cells long.
type Screen struct {
	Cols, Rows int
	Cells      [][]Cell
}

// Parse reads terminal text with SGR escapes, one screen row per line (as
// `tmux capture-pane -p -e` prints it), into a Screen. The style carries
// over from one line to the next, as tmux writes it. Escapes other than SGR
// are dropped. cols and rows fix the grid's size (rows beyond it are cut,
// short ones padded with blanks); 0 means as wide as the widest line, or as
// many rows as there are lines.
func Parse(r io.Reader, cols, rows int) (*Screen, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	var lines [][]Cell
	var st Style
	for sc.Scan() {
		lines = append(lines, parseLine(sc.Text(), &st))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read terminal text: %w", err)
	}
	if cols <= 0 {
		for _, l := range lines {
			cols = max(cols, len(l))
		}
		cols = max(cols, 1)
	}
	if rows <= 0 {
		rows = max(len(lines), 1)
	}
	s := &Screen{Cols: cols, Rows: rows, Cells: make([][]Cell, rows)}
	for y := range rows {
		row := make([]Cell, cols)
		var line []Cell
		if y < len(lines) {
			line = lines[y]
		}
		for x := range cols {
			switch {
			case x < len(line):
				row[x] = line[x]
			default:
				row[x] = Cell{Text: " ", Width: 1}
			}
		}
		// A wide character cut by the right edge becomes a blank.
		if cols > 0 && row[cols-1].Width == 2 {
			row[cols-1] = Cell{Text: " ", Width: 1, Style: row[cols-1].Style}
		}
		s.Cells[y] = row
	}
	return s, nil
}

// ParseString is Parse for text already in memory.
func ParseString(text string, cols, rows int) (*Screen, error) {
	return Parse(strings.NewReader(text), cols, rows)
}

// parseLine turns one line into cells, updating st with every SGR escape.
func parseLine(line string, st *Style) []Cell {
	var cells []Cell
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			i += escape(line[i:], st)
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		i += size
		switch {
		case r == '\t':
			for n := 8 - len(cells)%8; n > 0; n-- {
				cells = append(cells, Cell{Text: " ", Width: 1, Style: *st})
			}
			continue
		case r < 0x20 || r == 0x7f:
			continue
		}
		w := runewidth.RuneWidth(r)
		if w == 0 {
			// A combining mark or joiner belongs to the cell before it.
			if j := lastText(cells); j >= 0 {
				cells[j].Text += string(r)
			}
			continue
		}
		cells = append(cells, Cell{Text: string(r), Width: w, Style: *st})
		if w == 2 {
			cells = append(cells, Cell{Width: 0, Style: *st})
		}
	}
	return cells
}

// lastText is the index of the last cell that holds text, or -1.
func lastText(cells []Cell) int {
	for j := len(cells) - 1; j >= 0; j-- {
		if cells[j].Width > 0 {
			return j
		}
	}
	return -1
}

// escape consumes the escape sequence at the start of s and returns its
// length; a CSI ending in m is applied to st.
func escape(s string, st *Style) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if c := s[j]; c >= 0x40 && c <= 0x7e {
				if c == 'm' {
					applySGR(s[2:j], st)
				}
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^':
		// A string ends with BEL or ESC \.
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}
