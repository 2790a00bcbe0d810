package editor

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func benchPaths(n int) []string {
	files := make([]string, n)
	for i := range files {
		files[i] = fmt.Sprintf("internal/pkg%03d/sub%02d/file_%05d_handler.go", i%500, i%37, i)
	}
	return withDirs(files)
}

func benchDraft() string {
	return strings.Repeat("a line of a long draft, with a few words on it to wrap\n", 49) + "last line"
}

// benchEditor is an editor holding a 50-line draft and a 20,000-file index.
func benchEditor() Model {
	m := New(Options{Cwd: "/unused"})
	m.SetWidth(100)
	m.s.files.paths, m.s.files.ready = benchPaths(20000), true
	m.SetValue(benchDraft())
	return m
}

// BenchmarkKeystroke is one typed character (or backspace) in a 50-line
// draft, Update and View, with a 20,000-file index loaded.
func BenchmarkKeystroke(b *testing.B) {
	m := benchEditor()
	typed, erase := tea.KeyPressMsg{Code: 'x', Text: "x"}, tea.KeyPressMsg{Code: tea.KeyBackspace}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := typed
		if i%2 == 1 {
			k = erase
		}
		m, _ = m.Update(k)
		_ = m.View()
	}
}

// BenchmarkKeystrokeInFileWord is a keystroke inside "@word": Update starts
// a match (which runs elsewhere) and View draws the popup.
func BenchmarkKeystrokeInFileWord(b *testing.B) {
	m := benchEditor()
	m.InsertText(" @file_0")
	d := &driver{t: b, m: m}
	d.run(m.s.matchFiles("file_0"))
	typed, erase := tea.KeyPressMsg{Code: '1', Text: "1"}, tea.KeyPressMsg{Code: tea.KeyBackspace}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := typed
		if i%2 == 1 {
			k = erase
		}
		m, _ = m.Update(k)
		_ = m.View()
	}
}

// BenchmarkFileMatch is the fuzzy match of a query against 20,000 files,
// from scratch and narrowed from the previous query.
func BenchmarkFileMatch(b *testing.B) {
	paths := benchPaths(20000)
	stop := new(atomic.Bool)
	base := fileMatchJob{query: "hand", paths: paths, stop: stop}.run().(InternalMsg).payload.(fileMatches)
	for _, bm := range []struct {
		name string
		job  fileMatchJob
	}{
		{"one-letter", fileMatchJob{query: "h", paths: paths, stop: stop}},
		{"full", fileMatchJob{query: "handl", paths: paths, stop: stop}},
		{"narrowed", fileMatchJob{query: "handl", paths: paths, cands: base.matched, stop: stop}},
		{"selective", fileMatchJob{query: "p12s3f", paths: paths, stop: stop}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bm.job.run()
			}
		})
	}
}
