package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// makeTree writes n small files, 100 to a directory, under root.
func makeTree(b testing.TB, root string, n int) []string {
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
	var cpu time.Duration
	ops := 0
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		for k := range 5 {
			p := files[(i*7919+k*104729)%len(files)]
			must(b, os.WriteFile(p, []byte(fmt.Sprintf("changed %d %d\n", i, k)), 0o644))
		}
		b.StartTimer()
		c0 := cpuTime()
		if _, err := s.Record(ctx, PhaseBefore, ""); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		ops++
	}
	// CPU time is what a checkpoint costs whatever else the machine runs.
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(ops), "cpu-ms/op")
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

// copyTree copies the regular files under from (leaving .git out) to to.
func copyTree(b *testing.B, from, to string) []string {
	b.Helper()
	var files []string
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != from && (d.Name() == ".git" || d.Name() == "node_modules") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, dst)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	must(b, err)
	return files
}

// BenchmarkStoreSizeReplay replays 100 prompts on a copy of this
// repository: each edits three files, and every tenth also adds one and
// removes one, with a checkpoint before and after each prompt. It reports
// the store's size on disk and the repository's.
func BenchmarkStoreSizeReplay(b *testing.B) {
	for b.Loop() {
		root := b.TempDir()
		files := copyTree(b, "../..", root)
		var repo int64
		for _, f := range files {
			if info, err := os.Stat(f); err == nil {
				repo += info.Size()
			}
		}
		s, err := Open(Options{Project: root, Dir: b.TempDir()})
		must(b, err)
		ctx := context.Background()
		for i := range 100 {
			_, err := s.Record(ctx, PhaseBefore, "")
			must(b, err)
			for k := range 3 {
				f := files[(i*7919+k*104729)%len(files)]
				fh, err := os.OpenFile(f, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
				must(b, err)
				_, _ = fmt.Fprintf(fh, "// prompt %d edit %d\n", i, k)
				_ = fh.Close()
			}
			if i%10 == 0 {
				must(b, os.WriteFile(filepath.Join(root, fmt.Sprintf("new%d.go", i)), []byte("package x\n"), 0o644))
				_ = os.Remove(files[(i*31)%len(files)])
			}
			_, err = s.Record(ctx, PhaseAfter, "")
			must(b, err)
		}
		size, err := s.Size()
		must(b, err)
		b.ReportMetric(float64(repo)/1e6, "repo-MB")
		b.ReportMetric(float64(size)/1e6, "store-MB")
		b.ReportMetric(float64(len(files)), "files")
	}
}
