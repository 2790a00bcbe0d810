package toolview

import (
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core/tools"
)

// The texts the search tools give when they found nothing.
var emptyResults = map[string]string{
	"No matches found":                "no matches",
	"No files found matching pattern": "no files",
	"(empty directory)":               "empty",
}

func searchTitle(v *view) (string, string) {
	var title string
	var meta []string
	path := v.args.str("path")
	switch v.Name {
	case "grep":
		title = "grep " + strconv.Quote(v.args.str("pattern"))
		if v.args.flag("ignoreCase") {
			meta = append(meta, "-i")
		}
		if v.args.flag("literal") {
			meta = append(meta, "literal")
		}
		if n, ok := v.args.num("context"); ok && n > 0 {
			meta = append(meta, "context "+trimFloat(n))
		}
	case "find":
		title = "find " + strconv.Quote(v.args.str("pattern"))
	default:
		title = "ls"
		if path == "" {
			path = "."
		}
	}
	if path != "" {
		if v.Name == "ls" {
			title += " " + path
		} else {
			title += " in " + path
		}
	}
	if g := v.args.str("glob"); g != "" && v.Name == "grep" {
		title += " (" + g + ")"
	}
	if v.state == Done && v.Result != nil {
		meta = append(meta, v.searchCount())
	}
	return title, strings.Join(meta, " · ")
}

// searchResults splits a search result into its lines of results and the
// notes on what was left out, which it words for people from the details.
func (v *view) searchResults() (results string, notes []string) {
	text := v.resultText()
	if _, ok := emptyResults[text]; ok {
		return "", nil
	}
	var limit, limitKind string
	var trunc *tools.Truncation
	switch v.Name {
	case "grep":
		var d tools.GrepDetails
		if v.details(&d) {
			limit, limitKind, trunc = strconv.Itoa(d.MatchLimitReached), "matches", d.Truncation
			if d.LinesTruncated {
				notes = append(notes, "long lines shortened")
			}
			if d.MatchLimitReached == 0 {
				limit = ""
			}
		}
	case "find":
		var d tools.FindDetails
		if v.details(&d) && d.ResultLimitReached > 0 {
			limit, limitKind = strconv.Itoa(d.ResultLimitReached), "results"
		}
		trunc = d.Truncation
	case "ls":
		var d tools.LsDetails
		if v.details(&d) && d.EntryLimitReached > 0 {
			limit, limitKind = strconv.Itoa(d.EntryLimitReached), "entries"
		}
		trunc = d.Truncation
	}
	if limit != "" {
		notes = append([]string{"stopped at " + limit + " " + limitKind}, notes...)
	}
	if trunc != nil && trunc.Truncated {
		notes = append(notes, "output cut at "+humanSize(trunc.MaxBytes))
	}
	if len(notes) > 0 {
		// The tool appended its own note for the model after a blank line.
		if i := strings.LastIndex(text, "\n\n["); i >= 0 {
			text = text[:i]
		}
	}
	return text, notes
}

// searchCount says how much a search found: matches and files for grep,
// paths for find, entries for ls.
func (v *view) searchCount() string {
	if empty, ok := emptyResults[v.resultText()]; ok {
		return empty
	}
	results, _ := v.searchResults()
	switch v.Name {
	case "grep":
		files := map[string]bool{}
		matches := 0
		for _, l := range strings.Split(trimNewline(results), "\n") {
			if path, _, ok := grepMatch(l); ok {
				matches++
				files[path] = true
			}
		}
		return plural(matches, "match", "matches") + " in " + plural(len(files), "file", "files")
	case "find":
		return plural(countLines(results), "path", "paths")
	}
	return plural(countLines(results), "entry", "entries")
}

// searchBody shows the first results and the notes on what was left out.
func searchBody(v *view, b *box) {
	if v.state != Done || v.Result == nil {
		return
	}
	results, notes := v.searchResults()
	lines := headLines(results, b.limit(headLimit))
	for _, l := range lines {
		if v.Name != "grep" {
			b.text(l, v.p.Output)
			continue
		}
		if _, text, ok := grepMatch(l); ok {
			prefix, pw := fitPlain(cleanLine(l[:len(l)-len(text)]), b.inner)
			t, tw := fitPlain(cleanLine(text), b.inner-pw)
			b.add(v.p.Muted.render(prefix)+v.p.Output.render(t), pw+tw)
		} else {
			b.text(l, v.p.Dim)
		}
	}
	b.elided(countLines(results)-len(lines), false)
	for _, n := range notes {
		b.text(n, v.p.Muted)
	}
}

// grepMatch takes apart a grep match line, "path:N: text", returning the
// path and the text; context lines ("path-N- text") and anything else do
// not match.
func grepMatch(line string) (path, text string, ok bool) {
	for i := 0; i < len(line); i++ {
		sep := line[i]
		if sep != ':' && sep != '-' {
			continue
		}
		j := i + 1
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j == i+1 || j >= len(line) || line[j] != sep {
			continue
		}
		// The second separator is followed by a space, or ends an empty line.
		if j+1 < len(line) && line[j+1] != ' ' {
			continue
		}
		if sep == '-' {
			return "", "", false
		}
		return line[:i], strings.TrimPrefix(line[j+1:], " "), true
	}
	return "", "", false
}
