package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// MaxShown is how many diagnostics a report lists before saying how many
// more there are.
const MaxShown = 10

// key is what makes two diagnostics the same one, wherever they are: an
// edit moves lines, so positions are left out.
type key struct {
	severity protocol.DiagnosticSeverity
	source   string
	message  string
}

func keyOf(d protocol.Diagnostic) key {
	return key{severity: severity(d), source: d.Source, message: d.Message}
}

// severity is d's severity, an error when the server left it out (as
// LSP says a client may read it).
func severity(d protocol.Diagnostic) protocol.DiagnosticSeverity {
	if d.Severity == 0 {
		return protocol.DiagnosticSeverityError
	}
	return d.Severity
}

// introduced returns the errors in after that before did not have, each
// counted: a message found twice after and once before is new once (the
// later occurrence). An unknown baseline makes every error new.
func introduced(before Baseline, after []protocol.Diagnostic) []protocol.Diagnostic {
	had := map[key]int{}
	if before.known {
		for _, d := range before.list {
			had[keyOf(d)]++
		}
	}
	var out []protocol.Diagnostic
	for _, d := range sortedDiagnostics(after) {
		if severity(d) != protocol.DiagnosticSeverityError {
			continue
		}
		k := keyOf(d)
		if had[k] > 0 {
			had[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// countErrors counts the errors in list.
func countErrors(list []protocol.Diagnostic) int {
	n := 0
	for _, d := range list {
		if severity(d) == protocol.DiagnosticSeverityError {
			n++
		}
	}
	return n
}

// sortedDiagnostics returns list ordered by position.
func sortedDiagnostics(list []protocol.Diagnostic) []protocol.Diagnostic {
	out := slices.Clone(list)
	slices.SortStableFunc(out, func(a, b protocol.Diagnostic) int {
		if a.Range.Start.Line != b.Range.Start.Line {
			return int(a.Range.Start.Line) - int(b.Range.Start.Line)
		}
		return int(a.Range.Start.Character) - int(b.Range.Start.Character)
	})
	return out
}

// sortFiles orders files by path.
func sortFiles(files []FileDiagnostics) {
	slices.SortFunc(files, func(a, b FileDiagnostics) int { return strings.Compare(a.Path, b.Path) })
}

// Line writes one diagnostic as "file:line:col: severity: message
// [source]", with the file relative to dir when inside it and lines and
// columns counted from 1. What the server wrote is shown escaped.
func Line(dir, path string, d protocol.Diagnostic) string {
	name := path
	if dir != "" && toolpath.Within(path, dir) {
		if rel, err := filepath.Rel(dir, path); err == nil {
			name = rel
		}
	}
	text := fmt.Sprintf("%s:%d:%d: %s: %s", filepath.ToSlash(name), d.Range.Start.Line+1, d.Range.Start.Character+1,
		severityName(severity(d)), strings.Join(strings.Fields(d.Message), " "))
	if d.Source != "" {
		text += " [" + d.Source + "]"
	}
	return escape.Visible(text)
}

// severityName is how a line names a severity.
func severityName(s protocol.DiagnosticSeverity) string {
	switch s {
	case protocol.DiagnosticSeverityWarning:
		return "warning"
	case protocol.DiagnosticSeverityInformation:
		return "info"
	case protocol.DiagnosticSeverityHint:
		return "hint"
	}
	return "error"
}

// Lines writes at most MaxShown diagnostics of one file, one a line, and
// then how many more there are.
func Lines(dir, path string, list []protocol.Diagnostic) []string {
	var out []string
	for i, d := range list {
		if i == MaxShown {
			out = append(out, fmt.Sprintf("... and %d more", len(list)-MaxShown))
			break
		}
		out = append(out, Line(dir, path, d))
	}
	return out
}

// Text is the note appended to an edit's result for the model: the errors
// the edit introduced, capped, or why the server could not say. It is ""
// when there is nothing to tell.
func (r Report) Text(dir string) string {
	if r.Problem != "" {
		return "Diagnostics: " + escape.Visible(r.Problem)
	}
	if len(r.New) == 0 {
		return ""
	}
	head := fmt.Sprintf("The language server (%s) reports %d new error(s) in this file after the edit:", r.Server, len(r.New))
	return head + "\n" + strings.Join(Lines(dir, r.Path, r.New), "\n")
}
