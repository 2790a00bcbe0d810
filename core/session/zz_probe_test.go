package session

import (
	"path/filepath"
	"testing"
)

func BenchmarkProbeOpen(b *testing.B) {
	for _, dir := range []string{"/tmp/tb/small", "/tmp/tb/big"} {
		m, _ := filepath.Glob(dir + "/*.jsonl")
		b.Run(filepath.Base(dir), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f, err := Open(m[0])
				if err != nil {
					b.Fatal(err)
				}
				_ = f.Context()
				f.Close()
			}
		})
	}
}
