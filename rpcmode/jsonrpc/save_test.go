package jsonrpc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWholeLines(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	cases := []struct {
		name, text string
		want       int
	}{
		{"empty", "", 0},
		{"whole lines", "a\nb\n", 4},
		{"a line being appended", "a\nb\npart", 4},
		{"no newline at all", "part", 4},
		{"the last newline far from the end", "a\n" + long, 2},
		{"a long last line", long + "\n" + "tail", len(long) + 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got, err := wholeLines(f); err != nil || got != int64(tc.want) {
				t.Errorf("wholeLines = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func FuzzWholeLines(f *testing.F) {
	f.Add([]byte("a\nb"), uint(3))
	f.Add([]byte(""), uint(0))
	f.Add([]byte("no newline"), uint(40000))
	f.Fuzz(func(t *testing.T, text []byte, pad uint) {
		// pad pushes the last newline past the 32 KiB window.
		text = append(text, bytes.Repeat([]byte{'x'}, int(pad%(70<<10)))...)
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, text, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		want := int64(len(text))
		if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
			want = int64(i + 1)
		}
		if got, err := wholeLines(f); err != nil || got != want {
			t.Fatalf("wholeLines = %d, %v; want %d", got, err, want)
		}
	})
}
