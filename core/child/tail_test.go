package child

import (
	"strings"
	"testing"
)

func TestTailKeepsTheLastLines(t *testing.T) {
	var tl Tail
	for i := range 3000 {
		_, _ = tl.Write([]byte(strings.Repeat("x", i%7) + "line\n"))
	}
	_, _ = tl.Write([]byte("second to last\nlast\n\n"))
	if got := tl.LastLines(2); got != "second to last\nlast" {
		t.Fatalf("LastLines(2) = %q", got)
	}
	if len(tl.buf) > 2*TailBytes {
		t.Fatalf("kept %d bytes", len(tl.buf))
	}
}
