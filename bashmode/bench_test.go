package bashmode

import (
	"bytes"
	"fmt"
	"testing"
)

// mixedOutput is about size bytes of output as builds and tests print it:
// plain and coloured lines, UTF-8, tabs, progress bars redrawn with \r and
// ESC[K, and blocks redrawn from above with ESC[nA.
func mixedOutput(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		switch i % 8 {
		case 0, 1, 2:
			fmt.Fprintf(&b, "src/module_%d/file_%d.go:%d:%d: plain diagnostic text line number %d\r\n", i%97, i, i%500, i%80, i)
		case 3:
			fmt.Fprintf(&b, "\x1b[1m\x1b[32m   Compiling\x1b[0m crate-%d v0.%d.0 (\x1b[36m/work/crate\x1b[0m)\r\n", i, i%10)
		case 4:
			fmt.Fprintf(&b, "naïve café 日本語のテキスト %d\tcol\tcol\r\n", i)
		case 5:
			for p := 0; p <= 100; p += 20 {
				fmt.Fprintf(&b, "\r\x1b[KDownloading [%-20s] %3d%%", bytes.Repeat([]byte{'='}, p/5), p)
			}
			b.WriteString("\r\n")
		case 6:
			fmt.Fprintf(&b, "\x1b[38;5;%dm%d passed\x1b[0m, \x1b[38;2;200;%d;0m%d failed\x1b[0m\r\n", i%256, i, i%256, i%7)
		case 7:
			fmt.Fprintf(&b, "#1 step one\r\n#2 step two\r\n\x1b[2A\x1b[K#1 step one DONE\r\n\x1b[K#2 step two DONE %d\r\n", i)
		}
	}
	return b.Bytes()
}

// BenchmarkTermMixed measures the model's throughput on 10 MB of mixed
// output written in 32 KB chunks, as the reader does.
func BenchmarkTermMixed(b *testing.B) {
	data := mixedOutput(10 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		t := NewTerm(120, 40, DefaultMaxLines)
		for off := 0; off < len(data); off += readChunk {
			_, _ = t.Write(data[off:min(off+readChunk, len(data))])
		}
	}
}

// BenchmarkTermProgress measures a progress bar redrawn 100,000 times on
// one line with \r and ESC[K.
func BenchmarkTermProgress(b *testing.B) {
	var buf bytes.Buffer
	const updates = 100_000
	for i := range updates {
		pct := i * 100 / updates
		fmt.Fprintf(&buf, "\r\x1b[K\x1b[36m[%-50s]\x1b[0m %3d%% %6d/%d", bytes.Repeat([]byte{'#'}, pct/2), pct, i, updates)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		t := NewTerm(120, 40, DefaultMaxLines)
		for off := 0; off < len(data); off += readChunk {
			_, _ = t.Write(data[off:min(off+readChunk, len(data))])
		}
		if s := t.Snapshot(); len(s.Lines) != 1 {
			b.Fatalf("%d lines", len(s.Lines))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*updates), "ns/update")
}

// BenchmarkTermFrame measures what the TUI pays per frame: a chunk of
// output on a full screen, then the last 40 rows.
func BenchmarkTermFrame(b *testing.B) {
	t := NewTerm(120, 40, DefaultMaxLines)
	_, _ = t.Write(mixedOutput(1 << 20))
	chunk := []byte("\r\x1b[K\x1b[32mbuilding\x1b[0m step 42 of 100")
	b.ReportAllocs()
	for b.Loop() {
		_, _ = t.Write(chunk)
		_ = t.Tail(40)
	}
}
