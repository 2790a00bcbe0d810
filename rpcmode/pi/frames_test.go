package pi

import (
	"strings"
	"testing"
)

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
