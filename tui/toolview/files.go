package toolview

import (
	"github.com/charmbracelet/x/ansi"

	"strconv"
	"strings"
)

func readTitle(v *view) (string, string) {
	title := "read " + v.args.str("path")
	offset, hasOffset := v.args.num("offset")
	limit, hasLimit := v.args.num("limit")
	first := max(int(offset), 1)
	switch {
	case hasLimit && limit >= 1:
		title += ":" + strconv.Itoa(first) + "-" + strconv.Itoa(first+int(limit)-1)
	case hasOffset && first > 1:
		title += ":" + strconv.Itoa(first) + "-end"
	}
	if v.state != Done || v.Result == nil {
		return title, ""
	}
	if imgs := v.images(); len(imgs) > 0 {
		return title, ""
	}
	content, _ := readContent(v.resultText())
	return title, plural(countLines(content), "line", "lines")
}

// readBody shows the head of the text read, highlighted and numbered from
// the offset, and the tool's note on what it left out; an image shows as
// its type.
func readBody(v *view, b *box) {
	if v.state != Done || v.Result == nil {
		return
	}
	if imgs := v.images(); len(imgs) > 0 {
		for _, mime := range imgs {
			b.text("["+mime+"]", v.p.Muted)
		}
		return
	}
	content, note := readContent(v.resultText())
	offset, _ := v.args.num("offset")
	codeBlock(v, b, v.args.str("path"), content, max(int(offset), 1))
	if note != "" {
		b.text(note, v.p.Muted)
	}
}

// readContent returns the text a read result holds and the tool's note.
// Text cut short before the end of the file does not end with the file's
// line break, so a line break at its end is an empty last line, kept here
// by adding the break the line counting drops.
func readContent(text string) (content, note string) {
	content, note = splitReadNote(text)
	if note != "" && strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return content, note
}

// splitReadNote takes the read tool's closing note (what was left out and
// how to read on) off the text it read. The note is a bracketed paragraph
// the tool appends after a blank line; a file that merely ends in brackets
// keeps them.
func splitReadNote(text string) (content, note string) {
	i := strings.LastIndex(text, "\n\n[")
	start := i + 2
	if i < 0 {
		start = 0
	}
	n := text[start:]
	if !strings.HasSuffix(n, "]") || strings.Contains(n, "\n") || !isReadNote(n) {
		return text, ""
	}
	if i < 0 {
		return "", strings.Trim(n, "[]")
	}
	return text[:i], strings.Trim(n, "[]")
}

// isReadNote reports whether a bracketed line is one the read tool writes.
func isReadNote(n string) bool {
	if strings.HasPrefix(n, "[Showing lines ") || strings.HasPrefix(n, "[Line ") {
		return true
	}
	digits := strings.TrimLeft(n[1:], "0123456789")
	return len(digits) < len(n)-1 && strings.HasPrefix(digits, " more lines in file.")
}

func writeTitle(v *view) (string, string) {
	title := "write " + v.args.str("path")
	if !v.args.has("content") {
		return title, ""
	}
	content := v.args.str("content")
	return title, humanSize(len(content)) + ", " + plural(countLines(content), "line", "lines")
}

// writeBody shows the head of the content to be written, from the
// arguments, so it is there while the model writes it and while the call
// waits for approval.
func writeBody(v *view, b *box) {
	codeBlock(v, b, v.args.str("path"), v.args.str("content"), 1)
	diagnosticsBlock(v, b)
}

// codeBlock shows the head of a file's text, highlighted for its name, each
// line numbered counting from first, and how many lines are left out.
func codeBlock(v *view, b *box, path, text string, first int) {
	lines := headLines(text, b.limit(headLimit))
	for i, l := range lines {
		lines[i] = cleanLine(l)
	}
	hl := highlight(path, lines, v.st)
	numWidth := len(strconv.Itoa(first + len(lines) - 1))
	avail := b.inner - numWidth - 1
	gutter := avail >= 8
	if !gutter {
		avail = b.inner
	}
	for i, l := range lines {
		if b.expanded && avail >= 4 && cells(l) > avail {
			// Expanded, a long line wraps under its number.
			code := v.p.Output.render(l)
			if hl != nil {
				code = hl[i]
			}
			b.wrapCode(code, numWidth, gutter, v.p.LineNumber, first+i, avail)
			continue
		}
		code, w := fitPlain(l, avail)
		switch {
		case hl == nil:
			code = v.p.Output.render(code)
		case code == l:
			code = hl[i]
		default:
			// Cut the highlighted line as the plain one was cut.
			code = ansi.Truncate(hl[i], avail, ellipsis)
		}
		if gutter {
			num := strconv.Itoa(first + i)
			code = v.p.LineNumber.render(strings.Repeat(" ", numWidth-len(num))+num) + " " + code
			w += numWidth + 1
		}
		b.add(code, w)
	}
	b.elided(countLines(text)-len(lines), false)
}

// wrapCode appends one numbered line of styled code wrapped to avail
// cells, its continuations under the code with an empty gutter.
func (b *box) wrapCode(code string, numWidth int, gutter bool, number paint, n, avail int) {
	lead, pad := "", ""
	if gutter {
		num := strconv.Itoa(n)
		lead = number.render(strings.Repeat(" ", numWidth-len(num))+num) + " "
		pad = strings.Repeat(" ", numWidth+1)
	}
	for i, part := range strings.Split(ansi.Wrap(code, avail, ""), "\n") {
		g := pad
		if i == 0 {
			g = lead
		}
		b.add(g+part, len(pad)+ansi.StringWidth(part))
	}
}
