package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// makeTree writes n small files, 100 to a directory, under root.
func makeTree(b *testing.B, root string, n int) []string {
	b.Helper()
	var files []string
	for i := range n {
		d := filepath.Join(root, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("e%02d", i/1000))
		if i%100 == 0 {
			must(b, os.MkdirAll(d, 0o755))
		}
		p := filepath.Join(d, fmt.Sprintf("f%05d.go", i))
		must(b, os.WriteFile(p, []byte(fmt.Sprintf("package p // file %d\n", i)), 0o644))
		files = append(files, p)
	}
	return files
}

// benchmarkPrompt measures one prompt's checkpoint (the scan and record
// taken before a prompt) on a tree of n files of which 5 changed since
// the last one.
func benchmarkPrompt(b *testing.B, n int) {
	root := b.TempDir()
	files := makeTree(b, root, n)
	s, err := Open(Options{Project: root, Dir: b.TempDir()})
	must(b, err)
	ctx := context.Background()
	if _, err := s.Record(ctx, PhaseBefore, ""); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		for k := range 5 {
			p := files[(i*7919+k*104729)%len(files)]
			must(b, os.WriteFile(p, []byte(fmt.Sprintf("changed %d %d\n", i, k)), 0o644))
		}
		b.StartTimer()
		if _, err := s.Record(ctx, PhaseBefore, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckpoint10k(b *testing.B)  { benchmarkPrompt(b, 10_000) }
func BenchmarkCheckpoint100k(b *testing.B) { benchmarkPrompt(b, 100_000) }

// BenchmarkScanUnchanged10k is the scan alone: nothing changed.
func BenchmarkScanUnchanged10k(b *testing.B) {
	root := b.TempDir()
	makeTree(b, root, 10_000)
	s, err := Open(Options{Project: root, Dir: b.TempDir()})
	must(b, err)
	ctx := context.Background()
	if _, err := s.Record(ctx, PhaseBefore, ""); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.mu.Lock()
		_, _, err := s.scanLocked(ctx)
		s.mu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
	}
}
