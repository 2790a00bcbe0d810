package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// diagsOf makes diagnostics from text: one per line, "e" or "w" then the
// message.
func diagsOf(text string) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for i, l := range strings.Split(text, "\n") {
		if l == "" {
			continue
		}
		sev := protocol.DiagnosticSeverityError
		if l[0] == 'w' {
			sev = protocol.DiagnosticSeverityWarning
		}
		out = append(out, protocol.Diagnostic{Severity: sev, Message: l[1:], Range: protocol.Range{Start: protocol.Position{Line: uint32(i)}}})
	}
	return out
}

// FuzzIntroduced: what introduced reports are errors of after, no more of
// a kind than after has beyond before, and nothing when nothing changed.
func FuzzIntroduced(f *testing.F) {
	f.Add("ea\neb\nwc", "ea\neb\neb\nwc\ned")
	f.Add("", "ex")
	f.Add("ex\nex", "ex")
	f.Fuzz(func(t *testing.T, before, after string) {
		b, a := diagsOf(before), diagsOf(after)
		got := introduced(Baseline{known: true, list: b}, a)
		count := func(list []protocol.Diagnostic) map[key]int {
			m := map[key]int{}
			for _, d := range list {
				m[keyOf(d)]++
			}
			return m
		}
		cb, ca, cg := count(b), count(a), count(got)
		for k, n := range cg {
			if k.severity != protocol.DiagnosticSeverityError || n != ca[k]-cb[k] {
				t.Fatalf("%v reported %d times; before %d, after %d", k, n, cb[k], ca[k])
			}
		}
		for k, n := range ca {
			if k.severity == protocol.DiagnosticSeverityError && n > cb[k] && cg[k] != n-cb[k] {
				t.Fatalf("%v: %d new, reported %d", k, n-cb[k], cg[k])
			}
		}
		if len(introduced(Baseline{known: true, list: a}, a)) != 0 {
			t.Fatal("unchanged diagnostics reported as new")
		}
	})
}
