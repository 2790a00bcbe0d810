package jsonl

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

type line struct {
	text    string
	tooLong bool
}

func readAll(t *testing.T, r *Reader) []line {
	t.Helper()
	var got []line
	for {
		l, tooLong, err := r.Next()
		if errors.Is(err, io.EOF) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line{string(l), tooLong})
	}
}

func TestReader(t *testing.T) {
	cases := []struct {
		name   string
		input  string
		max    int
		prefix int
		want   []line
	}{
		{"lf", "a\nbb\n", 10, 0, []line{{"a", false}, {"bb", false}}},
		{"crlf", "a\r\nbb\r\n", 10, 0, []line{{"a", false}, {"bb", false}}},
		{"last line without newline", "a\nbb", 10, 0, []line{{"a", false}, {"bb", false}}},
		{"blank lines are lines", "\n\r\n", 10, 0, []line{{"", false}, {"", false}}},
		{"only one cr is removed", "a\r\r\n", 10, 0, []line{{"a\r", false}}},
		{"unicode line separators do not split", "a\u2028b\u2029c\n", 20, 0, []line{{"a\u2028b\u2029c", false}}},
		{"at the limit", "0123456789\n", 10, 0, []line{{"0123456789", false}}},
		{"at the limit with cr", "0123456789\r\n", 10, 0, []line{{"0123456789", false}}},
		{"one over", "0123456789x\nok\n", 10, 0, []line{{"", true}, {"ok", false}}},
		{"one over, with a prefix", "0123456789x\nok\n", 10, 4, []line{{"0123", true}, {"ok", false}}},
		{"far over, resynced", strings.Repeat("y", 100) + "\nok", 10, 0, []line{{"", true}, {"ok", false}}},
		{"far over, prefix kept", strings.Repeat("y", 100) + "\nok", 10, 3, []line{{"yyy", true}, {"ok", false}}},
		{"over at the end of input", "ok\n" + strings.Repeat("z", 30), 10, 0, []line{{"ok", false}, {"", true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := readAll(t, NewReader(iotest.OneByteReader(strings.NewReader(c.input)), c.max).KeepPrefix(c.prefix))
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("line %d: got %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestReaderSkipsBlankLines(t *testing.T) {
	got := readAll(t, NewReader(strings.NewReader("\n  \r\n{}\n\t\n[]"), 10).SkipBlank())
	if len(got) != 2 || got[0] != (line{"{}", false}) || got[1] != (line{"[]", false}) {
		t.Errorf("got %+v", got)
	}
}

func TestReaderReportsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	if _, _, err := NewReader(iotest.ErrReader(boom), 10).Next(); !errors.Is(err, boom) {
		t.Errorf("got %v, want %v", err, boom)
	}
}

// endless is n bytes of 'x'.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	for i := range k {
		p[i] = 'x'
	}
	e.n -= k
	return k, nil
}

// TestReaderDoesNotHoldLongLines reads a 64 MiB line with a 1 MiB limit:
// the line is refused, the next one is read, and the buffer never grew
// past the limit.
func TestReaderDoesNotHoldLongLines(t *testing.T) {
	r := NewReader(io.MultiReader(&endless{n: 64 << 20}, strings.NewReader("\n{\"ok\":1}\n")), 1<<20).KeepPrefix(100)
	l, tooLong, err := r.Next()
	if err != nil || !tooLong || len(l) != 100 {
		t.Fatalf("got %d bytes, tooLong %v, err %v", len(l), tooLong, err)
	}
	if cap(r.buf) > 2<<20 {
		t.Errorf("the buffer grew to %d bytes", cap(r.buf))
	}
	l, tooLong, err = r.Next()
	if err != nil || tooLong || string(l) != `{"ok":1}` {
		t.Errorf("after the long line: %q %v %v", l, tooLong, err)
	}
}

// FuzzReader checks the Reader against a plain split of its input: the
// same lines in the same order, the long ones flagged and cut to the
// prefix, whatever the limit.
func FuzzReader(f *testing.F) {
	f.Add([]byte("a\nbb\r\n\nccc"), 2, 1, false)
	f.Add([]byte("\r\r\n\n\r"), 1, 0, true)
	f.Add([]byte(strings.Repeat("x", 300)+"\n{}"), 64, 8, false)
	f.Add([]byte(" \n"+strings.Repeat(" ", 70)+"\n\t\r\nend"), 64, 0, true)
	f.Fuzz(func(t *testing.T, in []byte, max, prefix int, skipBlank bool) {
		max = 1 + abs(max)%512
		prefix = abs(prefix) % 600
		r := NewReader(iotest.HalfReader(bytes.NewReader(in)), max).KeepPrefix(prefix)
		if skipBlank {
			r.SkipBlank()
		}
		got := readAll(t, r)
		parts := bytes.Split(in, []byte{'\n'})
		if len(parts) > 0 && len(parts[len(parts)-1]) == 0 {
			parts = parts[:len(parts)-1]
		}
		if skipBlank {
			// Blank lines are skipped, unless too long to look at.
			kept := parts[:0:0]
			for _, p := range parts {
				if c := bytes.TrimSuffix(p, []byte{'\r'}); len(c) > max || len(bytes.TrimSpace(c)) > 0 {
					kept = append(kept, p)
				}
			}
			parts = kept
		}
		if len(got) != len(parts) {
			t.Fatalf("%d lines, want %d", len(got), len(parts))
		}
		keep := min(prefix, max)
		for i, p := range parts {
			p = bytes.TrimSuffix(p, []byte{'\r'})
			want := line{string(p), false}
			if len(p) > max {
				want = line{string(p[:keep]), true}
			}
			if got[i] != want {
				t.Fatalf("line %d: got %+v, want %+v", i, got[i], want)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
