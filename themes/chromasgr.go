package themes

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// sgrFormatter is a chroma formatter that writes each colour of a theme's
// chroma style as the theme gives it: a palette index as that index
// ("\x1b[35m", "\x1b[38;5;139m"), so that the colours hand-picked for 256
// and 16 colours reach the terminal as chosen, and a "#rrggbb" as 24-bit
// colour, as chroma's terminal16m formatter writes it. (A style holds only
// RGB, and lowering an index's RGB again is not exact: on 16 colours
// light grey (7) came back as white and dark grey (8) as light grey.)
// Like terminal16m, it ends its attributes at each line break and starts
// them again on the next line.
type sgrFormatter struct {
	// index maps the RGB of each palette colour the theme uses to its SGR
	// parameters.
	index map[chroma.Colour]string
}

// newSGRFormatter makes the formatter for the theme's resolved values.
func newSGRFormatter(values []value) *sgrFormatter {
	f := &sgrFormatter{index: map[chroma.Colour]string{}}
	for _, v := range values {
		if v.kind != kindIndex {
			continue
		}
		r, g, b, _ := v.rgb()
		key := chroma.NewColour(r, g, b)
		if _, ok := f.index[key]; ok {
			continue // two indexes of one colour look alike; keep the first
		}
		f.index[key] = indexParams(v.index)
	}
	return f
}

// indexParams is the SGR foreground parameters of palette colour n.
func indexParams(n uint8) string {
	switch {
	case n < 8:
		return strconv.Itoa(30 + int(n))
	case n < 16:
		return strconv.Itoa(90 + int(n) - 8)
	default:
		return "38;5;" + strconv.Itoa(int(n))
	}
}

// colour is the SGR that sets c as the foreground.
func (f *sgrFormatter) colour(c chroma.Colour) string {
	if p, ok := f.index[c]; ok {
		return "\x1b[" + p + "m"
	}
	return fmt.Sprintf("\x1b[38;2;%d;%d;%dm", c.Red(), c.Green(), c.Blue())
}

// Format implements chroma.Formatter.
func (f *sgrFormatter) Format(w io.Writer, style *chroma.Style, it chroma.Iterator) error {
	var sb strings.Builder
	for token := it(); token != chroma.EOF; token = it() {
		entry := style.Get(token.Type)
		if entry.IsZero() {
			sb.WriteString(token.Value)
			continue
		}
		var pen strings.Builder
		if entry.Bold == chroma.Yes {
			pen.WriteString("\x1b[1m")
		}
		if entry.Underline == chroma.Yes {
			pen.WriteString("\x1b[4m")
		}
		if entry.Italic == chroma.Yes {
			pen.WriteString("\x1b[3m")
		}
		if entry.Colour.IsSet() {
			pen.WriteString(f.colour(entry.Colour))
		}
		writePen(&sb, pen.String(), token.Value)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// writePen writes text in pen, ending the pen before each line break
// ("\n" or "\r\n") and starting it again after, byte for byte as chroma's
// terminal16m formatter does.
func writePen(sb *strings.Builder, pen, text string) {
	if pen == "" {
		sb.WriteString(text)
		return
	}
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		line, brk := text[:i], "\n"
		if strings.HasSuffix(line, "\r") {
			line, brk = line[:len(line)-1], "\r\n"
		}
		sb.WriteString(pen)
		sb.WriteString(line)
		sb.WriteString("\x1b[0m")
		sb.WriteString(brk)
		text = text[i+1:]
	}
	if text != "" {
		sb.WriteString(pen)
		sb.WriteString(text)
		sb.WriteString("\x1b[0m")
	}
}
