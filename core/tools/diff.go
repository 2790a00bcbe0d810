package tools

import (
	"fmt"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// diffContextLines is how many unchanged lines are shown around a change.
const diffContextLines = 4

// diffPart is a run of lines that are kept ('='), removed ('-') or added ('+').
type diffPart struct {
	op    byte
	lines []string
}

// lineDiff returns the line-level difference between two texts in pi's
// display form: one line per changed or context line, written as the
// operation ('-', '+' or ' '), the line number right-aligned (old numbers for
// removed and context lines, new numbers for added ones), a space and the
// text; a run of skipped unchanged lines shows as "...". It also returns the
// line number in the new text of the first change, or 0 when there is none.
func lineDiff(before, after string) (string, int) {
	parts := diffParts(before, after)
	width := len(fmt.Sprint(max(strings.Count(before, "\n"), strings.Count(after, "\n")) + 1))
	var out []string
	emit := func(op byte, n int, text string) {
		out = append(out, fmt.Sprintf("%c%*d %s", op, width, n, text))
	}
	skip := func() { out = append(out, " "+strings.Repeat(" ", width)+" ...") }

	oldN, newN, first := 1, 1, 0
	lastWasChange := false
	for i, p := range parts {
		if p.op != '=' {
			if first == 0 {
				first = newN
			}
			for _, l := range p.lines {
				if p.op == '+' {
					emit('+', newN, l)
					newN++
				} else {
					emit('-', oldN, l)
					oldN++
				}
			}
			lastWasChange = true
			continue
		}
		context := func(lines []string) {
			for _, l := range lines {
				emit(' ', oldN, l)
				oldN++
				newN++
			}
		}
		skipped := func(n int) {
			if n > 0 {
				skip()
				oldN += n
				newN += n
			}
		}
		nextIsChange := i+1 < len(parts) && parts[i+1].op != '='
		n := len(p.lines)
		switch {
		case lastWasChange && nextIsChange && n <= 2*diffContextLines:
			context(p.lines)
		case lastWasChange && nextIsChange:
			context(p.lines[:diffContextLines])
			skipped(n - 2*diffContextLines)
			context(p.lines[n-diffContextLines:])
		case lastWasChange:
			shown := min(n, diffContextLines)
			context(p.lines[:shown])
			skipped(n - shown)
		case nextIsChange:
			hidden := max(0, n-diffContextLines)
			skipped(hidden)
			context(p.lines[hidden:])
		default:
			oldN += n
			newN += n
		}
		lastWasChange = false
	}
	return strings.Join(out, "\n"), first
}

// diffParts splits the difference between two texts into runs of kept,
// removed and added lines, removals before additions, as jsdiff's diffLines
// does.
func diffParts(before, after string) []diffPart {
	var parts []diffPart
	add := func(op byte, text string) {
		if text == "" {
			return
		}
		lines := strings.Split(text, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if n := len(parts); n > 0 && parts[n-1].op == op {
			parts[n-1].lines = append(parts[n-1].lines, lines...)
			return
		}
		parts = append(parts, diffPart{op, lines})
	}
	edits := mergeAdjacent(udiff.Lines(before, after))
	pos := 0
	for _, e := range edits {
		add('=', before[pos:e.Start])
		add('-', before[e.Start:e.End])
		add('+', e.New)
		pos = e.End
	}
	add('=', before[pos:])
	return parts
}

// mergeAdjacent joins edits that touch, so a change reads as one block of
// removals followed by one block of additions.
func mergeAdjacent(edits []udiff.Edit) []udiff.Edit {
	udiff.SortEdits(edits)
	out := edits[:0]
	for _, e := range edits {
		if n := len(out); n > 0 && out[n-1].End == e.Start {
			out[n-1].End = e.End
			out[n-1].New += e.New
			continue
		}
		out = append(out, e)
	}
	return out
}

// unifiedPatch is the change from before to after as a unified diff of
// path, with three lines of context.
func unifiedPatch(path, before, after string) string {
	name := filepath.ToSlash(path)
	return udiff.Unified(name, name, before, after)
}

// UnifiedDiff is the change from before to after as a unified diff of
// path, with three lines of context: the form edit and write show, for
// front ends showing other changes (a rewind's) the same way.
func UnifiedDiff(path, before, after string) string { return unifiedPatch(path, before, after) }
