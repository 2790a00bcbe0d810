package toolview

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/lsp"
	"github.com/cairn-dev/cairn/core/tools"
)

// diffLimit is how many diff lines a collapsed edit box shows.
const diffLimit = 20

func editTitle(v *view) (string, string) {
	title := "edit " + v.args.str("path")
	diff := v.diff()
	if diff == "" {
		return title, ""
	}
	added, removed := diffStats(diff)
	return title, "+" + strconv.Itoa(added) + " -" + strconv.Itoa(removed)
}

// diff returns the edit's numbered diff: the one the tool reported once it
// ran, the preview before, or "" when there is neither.
// The details are decoded once per view: the header and the body both need
// the diff.
func (v *view) diff() string {
	switch v.state {
	case Done:
		if !v.diffRead {
			var d tools.EditDetails
			v.details(&d)
			v.diffText, v.diffRead = d.Diff, true
		}
		return v.diffText
	case Pending, Running:
		return v.PreviewDiff
	}
	return ""
}

// editBody shows the edit's diff. Without one (the arguments are still
// arriving, or the preview is not ready) it shows the replacements as they
// stand, and when the preview failed, why the edit would fail.
func editBody(v *view, b *box) {
	if diff := v.diff(); diff != "" {
		diffBlock(v, b, diff)
		diagnosticsBlock(v, b)
		return
	}
	if v.state != Streaming && v.PreviewError != "" {
		// It quotes the model's path or text: escaped, not dropped.
		b.wrapped(escape.VisibleLines(v.PreviewError), v.p.Warning, b.limit(errorLimit))
		return
	}
	if v.state == Streaming || v.state == Pending || v.state == Running {
		replacementsBlock(v, b)
	}
}

// diffStats counts the added and removed lines of a numbered diff.
func diffStats(diff string) (added, removed int) {
	for len(diff) > 0 {
		switch diff[0] {
		case '+':
			added++
		case '-':
			removed++
		}
		i := strings.IndexByte(diff, '\n')
		if i < 0 {
			break
		}
		diff = diff[i+1:]
	}
	return added, removed
}

// diffBlock draws the head of a numbered diff (see tools.EditDetails): two
// gutters, the line's number in the old file and in the new one (a removed
// line has only the first, an added line only the second), then the
// operation and the text in the colour of the operation; a run of
// unchanged lines left out shows as an ellipsis. The tool's diff numbers
// unchanged lines in the old file and added ones in the new, which read as
// one column jumps back and forth; two columns never do.
func diffBlock(v *view, b *box, diff string) {
	lines := headLines(diff, b.limit(diffLimit))
	rows := make([]diffRow, len(lines))
	width, delta := 1, 0
	for i, l := range lines {
		r := parseDiffLine(l)
		switch r.op {
		case '+':
			r.new = r.n
			delta++
		case '-':
			r.old = r.n
			delta--
		case ' ':
			r.old, r.new = r.n, r.n+delta
		}
		width = max(width, len(strconv.Itoa(r.old)), len(strconv.Itoa(r.new)))
		rows[i] = r
	}
	for _, r := range rows {
		diffLine(v, b, r, width)
	}
	b.elided(countLines(diff)-len(lines), false)
}

// diffRow is one line of a numbered diff taken apart: its operation ('+',
// '-', ' ', or 0 for a run of unchanged lines left out, or for a line of
// another shape), the number the tool gave it, the numbers shown in the
// old and new gutters (0: none) and its text.
type diffRow struct {
	op            byte
	n, old, new   int
	text, unknown string
	blank         bool // an empty line, kept as one
}

func parseDiffLine(line string) diffRow {
	if line == "" {
		return diffRow{blank: true}
	}
	rest := line[1:]
	trimmed := strings.TrimLeft(rest, " ")
	end := strings.IndexByte(trimmed, ' ')
	if trimmed == "..." {
		return diffRow{}
	}
	n, err := strconv.Atoi(trimmed[:max(end, 0)])
	if end < 0 || err != nil || !strings.ContainsRune("+- ", rune(line[0])) {
		return diffRow{unknown: escape.VisibleLines(line)}
	}
	// The diff holds what the model wrote: its control characters are
	// shown, not acted on or dropped.
	return diffRow{op: line[0], n: n, text: cleanLine(escape.VisibleLines(trimmed[end+1:]))}
}

func diffLine(v *view, b *box, r diffRow, width int) {
	gutterWidth := 2*width + 2
	switch {
	case r.blank:
		b.add("", 0)
		return
	case r.unknown != "":
		b.text(r.unknown, v.p.DiffContext)
		return
	case r.op == 0:
		// A skipped run of unchanged lines.
		t, w := fitPlain(strings.Repeat(" ", gutterWidth)+ellipsis, b.inner)
		b.add(v.p.Dim.render(t), w)
		return
	}
	var style paint
	switch r.op {
	case '+':
		style = v.p.DiffAdded
	case '-':
		style = v.p.DiffRemoved
	default:
		style = v.p.DiffContext
	}
	avail := b.inner - gutterWidth
	if avail < 4 {
		b.text(string(r.op)+" "+r.text, style)
		return
	}
	number := func(n int) string {
		if n == 0 {
			return strings.Repeat(" ", width)
		}
		s := strconv.Itoa(n)
		return strings.Repeat(" ", width-len(s)) + s
	}
	gutter := v.p.LineNumber.render(number(r.old)+" "+number(r.new)) + " "
	lead := strings.Repeat(" ", gutterWidth)
	// Diff lines wrap, never cut: what is approved or reviewed is all of
	// the change. Continuations sit under the text, past the gutter.
	s, room := string(r.op)+" "+r.text, avail
	for first := true; first || s != ""; first = false {
		part, rest := cutLine(s, room)
		if first {
			b.add(gutter+style.render(part), gutterWidth+cells(part))
		} else {
			b.add(lead+"  "+style.render(part), gutterWidth+2+cells(part))
		}
		s, room = rest, avail-2
	}
}

// replacementsBlock shows an edit's replacements as they stand in its
// arguments, each old text as removed lines and new text as added ones,
// without line numbers: what can be shown before the file is consulted.
func replacementsBlock(v *view, b *box) {
	type pair struct{ old, new string }
	var pairs []pair
	for _, e := range editReplacements(v.args) {
		pairs = append(pairs, pair{e.str("oldText"), e.str("newText")})
	}
	if old := v.args.str("oldText"); old != "" {
		pairs = append(pairs, pair{old, v.args.str("newText")})
	}
	budget := b.limit(diffLimit)
	left := 0
	for i, p := range pairs {
		if i > 0 && budget > 0 {
			b.add(v.p.Dim.render(ellipsis), 1)
			budget--
		}
		for _, side := range []struct {
			text  string
			op    string
			style paint
		}{{p.old, "-", v.p.DiffRemoved}, {p.new, "+", v.p.DiffAdded}} {
			lines := headLines(side.text, budget)
			for _, l := range lines {
				b.text(side.op+" "+l, side.style)
			}
			budget -= len(lines)
			left += countLines(side.text) - len(lines)
		}
	}
	b.elided(left, false)
}

// editReplacements reads the edits argument, an array of objects or, as
// some models send it, that array written as a JSON string.
func editReplacements(a args) []args {
	raw := a["edits"]
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = completeJSON([]byte(s))
	}
	var edits []args
	if json.Unmarshal(raw, &edits) != nil {
		return nil
	}
	return edits
}

// diagnosticsBlock shows, in the error colour, the errors a language
// server found in the file after the call (the lines under
// lsp.DetailsKey in its details), under the diff or the written text.
func diagnosticsBlock(v *view, b *box) {
	if v.state != Done {
		return
	}
	var d map[string]json.RawMessage
	var lines []string
	if !v.details(&d) || json.Unmarshal(d[lsp.DetailsKey], &lines) != nil || len(lines) == 0 {
		return
	}
	// The lines are the server's words, escaped when the result was made.
	b.wrapped(strings.Join(lines, "\n"), v.p.Error, b.limit(headLimit+2))
}
