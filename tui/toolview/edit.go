package toolview

import (
	"encoding/json"
	"strconv"
	"strings"

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
		return
	}
	if v.state != Streaming && v.PreviewError != "" {
		b.wrapped(v.PreviewError, v.p.Warning, b.limit(errorLimit))
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

// diffBlock draws the head of a numbered diff (see tools.EditDetails): the
// line number in its gutter, then the operation and the text in the colour
// of the operation; a run of unchanged lines left out shows as an ellipsis.
func diffBlock(v *view, b *box, diff string) {
	lines := headLines(diff, b.limit(diffLimit))
	for _, l := range lines {
		diffLine(v, b, l)
	}
	b.elided(countLines(diff)-len(lines), false)
}

func diffLine(v *view, b *box, line string) {
	if line == "" {
		b.add("", 0)
		return
	}
	rest := line[1:]
	trimmed := strings.TrimLeft(rest, " ")
	end := strings.IndexByte(trimmed, ' ')
	if trimmed == "..." || end < 0 {
		// A skipped run of unchanged lines.
		field := max(len(rest)-len(trimmed)-1, 0)
		t, w := fitPlain(strings.Repeat(" ", field+3)+ellipsis, b.inner)
		b.add(v.p.Dim.render(t), w)
		return
	}
	number := rest[:len(rest)-len(trimmed)+end]
	text := cleanLine(trimmed[end+1:])
	var style paint
	switch line[0] {
	case '+':
		style = v.p.DiffAdded
	case '-':
		style = v.p.DiffRemoved
	default:
		style = v.p.DiffContext
	}
	avail := b.inner - len(number) - 1
	if avail < 4 {
		b.text(line[:1]+" "+text, style)
		return
	}
	// Diff lines wrap, never cut: what is approved or reviewed is all of
	// the change. Continuations sit under the text, past the gutter.
	gutter := v.p.LineNumber.render(number) + " "
	lead := strings.Repeat(" ", len(number)+1)
	s, width := line[:1]+" "+text, avail
	for first := true; first || s != ""; first = false {
		part, rest := cutLine(s, width)
		if first {
			b.add(gutter+style.render(part), len(number)+1+cells(part))
		} else {
			b.add(lead+"  "+style.render(part), len(lead)+2+cells(part))
		}
		s, width = rest, avail-2
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
