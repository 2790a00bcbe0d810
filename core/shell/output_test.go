package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func newTestOutput(t *testing.T, opts OutputOptions) *Output {
	t.Helper()
	if opts.TempDir == "" {
		opts.TempDir = t.TempDir()
	}
	o := NewOutput(opts)
	t.Cleanup(func() { o.Close() })
	return o
}

func write(o *Output, chunks ...string) {
	for _, c := range chunks {
		o.Write([]byte(c))
	}
}

func TestOutputWithinLimits(t *testing.T) {
	o := newTestOutput(t, OutputOptions{})
	write(o, "one\n", "two\n")
	got := o.Tail()
	if got.Text != "one\ntwo\n" || got.Truncated || got.By != NoLimit || got.FullOutputPath != "" || got.TotalLines != 2 || got.TotalBytes != 8 {
		t.Errorf("tail %+v", got)
	}
	if entries, _ := os.ReadDir(o.tempDir); len(entries) != 0 {
		t.Errorf("%d files for output within the limits", len(entries))
	}
}

// Past a limit the tail is the last lines and a file holds everything, from
// the first byte.
func TestOutputSpillsTheWholeOutput(t *testing.T) {
	o := newTestOutput(t, OutputOptions{MaxLines: 10, MaxBytes: 1000})
	var all strings.Builder
	for i := 1; i <= 30; i++ {
		line := fmt.Sprintf("\x1b[1mline %d\x1b[m\n", i)
		all.WriteString(line)
		o.Write([]byte(line))
	}
	got := o.Tail()
	var want strings.Builder
	for i := 21; i <= 30; i++ {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	// As pi: the last 10 lines, without the final newline, of 30.
	if got.Text != strings.TrimSuffix(want.String(), "\n") || !got.Truncated || got.By != LineLimit || got.Lines != 10 || got.TotalLines != 30 {
		t.Errorf("tail %+v", got)
	}
	if dir, name := filepath.Split(got.FullOutputPath); filepath.Clean(dir) != o.tempDir || !regexp.MustCompile(`^cairn-bash-[0-9a-f]{16}\.log$`).MatchString(name) {
		t.Errorf("full output path %q", got.FullOutputPath)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(got.FullOutputPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(full) != all.String() {
		t.Errorf("full output %q, want the output as written", full)
	}
}

// A long output keeps bounded memory and a tail that starts at a line, and
// a last line longer than the byte limit keeps its end.
func TestOutputTail(t *testing.T) {
	t.Run("many lines", func(t *testing.T) {
		o := newTestOutput(t, OutputOptions{MaxLines: 5, MaxBytes: 100})
		for i := 1; i <= 10000; i++ {
			fmt.Fprintf(o, "%d\n", i)
		}
		if got := o.Tail(); got.Text != "9996\n9997\n9998\n9999\n10000" || got.By != LineLimit || got.TotalLines != 10000 {
			t.Errorf("tail %+v", got)
		}
		if len(o.tail) > 4*o.maxBytes {
			t.Errorf("kept %d bytes for a limit of %d", len(o.tail), o.maxBytes)
		}
	})
	t.Run("long last line", func(t *testing.T) {
		o := newTestOutput(t, OutputOptions{MaxBytes: 100})
		write(o, "first\n", strings.Repeat("a", 50), strings.Repeat("b", 300))
		got := o.Tail()
		if got.Text != strings.Repeat("b", 100) || !got.LastLinePartial || got.By != ByteLimit || got.LastLineBytes != 350 {
			t.Errorf("tail %+v", got)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		o := newTestOutput(t, OutputOptions{MaxBytes: 9})
		write(o, "aaaa\nbbbb\ncccc\n")
		if got := o.Tail(); got.Text != "bbbb\ncccc" || got.By != ByteLimit || got.TotalBytes != 15 || got.TotalLines != 3 {
			t.Errorf("tail %+v", got)
		}
	})
}

func TestOutputLiveCallbackAndChanged(t *testing.T) {
	var seen strings.Builder
	o := newTestOutput(t, OutputOptions{OnWrite: func(p []byte) { seen.Write(p) }})
	select {
	case <-o.Changed():
		t.Fatal("changed before any write")
	default:
	}
	write(o, "a\x1b[31m", "b\r\n")
	if seen.String() != "a\x1b[31mb\r\n" {
		t.Errorf("live output %q, want it raw", seen.String())
	}
	select {
	case <-o.Changed():
	default:
		t.Error("no change signalled")
	}
	if got := o.Tail().Text; got != "ab\n" {
		t.Errorf("tail %q", got)
	}
}

func TestOutputWithoutAFile(t *testing.T) {
	o := newTestOutput(t, OutputOptions{MaxLines: 1, TempDir: filepath.Join(t.TempDir(), "missing")})
	write(o, "a\nb\nc\n")
	if got := o.Tail(); !got.Truncated || got.FullOutputPath != "" || got.Text != "c" {
		t.Errorf("tail %+v", got)
	}
}
