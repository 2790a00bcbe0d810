package pi

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestFrameReader(t *testing.T) {
	type frame struct {
		text    string
		tooLong bool
	}
	cases := []struct {
		name  string
		input string
		max   int
		want  []frame
	}{
		{"lf", "a\nbb\n", 10, []frame{{"a", false}, {"bb", false}}},
		{"crlf", "a\r\nbb\r\n", 10, []frame{{"a", false}, {"bb", false}}},
		{"last line without newline", "a\nbb", 10, []frame{{"a", false}, {"bb", false}}},
		{"blank lines are frames", "\n\r\n", 10, []frame{{"", false}, {"", false}}},
		{"only one cr is removed", "a\r\r\n", 10, []frame{{"a\r", false}}},
		{"unicode line separators do not split", "a\u2028b\u2029c\n", 20, []frame{{"a\u2028b\u2029c", false}}},
		{"at the limit", "0123456789\n", 10, []frame{{"0123456789", false}}},
		{"at the limit with cr", "0123456789\r\n", 10, []frame{{"0123456789", false}}},
		{"one over", "0123456789x\nok\n", 10, []frame{{"0123456789x", true}, {"ok", false}}},
		{"far over, resynced", strings.Repeat("y", 100) + "\nok", 10, []frame{{strings.Repeat("y", 100), true}, {"ok", false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fr := newFrameReader(iotest.OneByteReader(strings.NewReader(c.input)), c.max)
			var got []frame
			for {
				f, tooLong, err := fr.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, frame{string(f), tooLong})
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("frame %d: got %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestFrameReaderReportsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	fr := newFrameReader(iotest.ErrReader(boom), 10)
	if _, _, err := fr.next(); !errors.Is(err, boom) {
		t.Errorf("got %v, want %v", err, boom)
	}
}

func TestTruncateTail(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		b.WriteString(strings.Repeat("x", 3) + "\n")
	}
	out, cut := truncateTail(b.String(), 2000, 50*1024)
	if !cut || strings.Count(out, "\n") != 1999 {
		t.Errorf("kept %d lines (cut %v)", strings.Count(out, "\n"), cut)
	}
	long := strings.Repeat("é", 40000) // one 80,000-byte line
	out, cut = truncateTail(long, 2000, 50*1024)
	if !cut || len(out) > 50*1024 || !strings.HasSuffix(long, out) || !strings.HasPrefix(out, "é") {
		t.Errorf("long line: kept %d bytes (cut %v)", len(out), cut)
	}
}
