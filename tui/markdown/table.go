package markdown

import (
	"bytes"
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// tableWidth returns the width a block that is one pipe table needs to
// show every cell on one line: its widest cell per column, a space on
// either side and a rule between columns. It returns 0 when src is not a
// table alone. Inline markup is counted as written, less the * of
// emphasis (a code span's backticks stand for the padding it is drawn
// with), so the width errs on the wide side and nothing wraps.
func tableWidth(src []byte) int {
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	if len(lines) < 2 || !delimiterRow(lines[1]) {
		return 0
	}
	var cols []int
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if !strings.Contains(l, "|") {
			return 0
		}
		if i == 1 {
			continue
		}
		for c, cell := range splitRow(l) {
			w := ansi.StringWidth(strings.ReplaceAll(strings.TrimSpace(cell), "*", ""))
			if c >= len(cols) {
				cols = append(cols, 0)
			}
			cols[c] = max(cols[c], w)
		}
	}
	if len(cols) == 0 {
		return 0
	}
	total := 3*len(cols) - 1
	for _, w := range cols {
		total += w
	}
	return total
}

// hasTable reports whether md holds a pipe table: a row with a pipe
// followed by a delimiter row.
func hasTable(md string) bool {
	prev := ""
	for l := range strings.SplitSeq(md, "\n") {
		if delimiterRow(l) && strings.Contains(prev, "|") && strings.Contains(l, "|") {
			return true
		}
		prev = l
	}
	return false
}

// delimiterRow reports whether l is a table's second row: |---|:---:|.
func delimiterRow(l string) bool {
	l = strings.TrimSpace(l)
	if !strings.Contains(l, "-") {
		return false
	}
	return strings.Trim(l, "|-: ") == ""
}

// splitRow splits a table row into its cells, honouring \| escapes.
func splitRow(l string) []string {
	l = strings.TrimPrefix(strings.TrimSuffix(l, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case l[i] == '|':
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(l[i])
		}
	}
	return append(cells, cur.String())
}

// termFor returns the glamour renderer for src: for a table narrower than
// the width, one that wraps to the table's own width, so its columns are
// sized to their content rather than stretched across the terminal.
func (r *Renderer) termFor(src []byte) *glamour.TermRenderer {
	if !bytes.Contains(src, []byte("|")) {
		return r.term
	}
	w := tableWidth(src)
	if w == 0 || w >= r.width {
		return r.term
	}
	w = max(w, minWidth)
	if t, ok := r.narrow[w]; ok {
		return t
	}
	t, err := glamour.NewTermRenderer(
		glamour.WithStyles(styleConfig(r.palette)),
		glamour.WithWordWrap(w),
		glamour.WithChromaFormatter(chromaFormatterName(r.palette)),
	)
	if err != nil {
		return r.term
	}
	if r.narrow == nil {
		r.narrow = map[int]*glamour.TermRenderer{}
	}
	r.narrow[w] = t
	return t
}
