package markdown

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestTmpCPU(t *testing.T) {
	para := strings.Repeat("Some words in a paragraph with `code` and **bold** text. ", 7)
	code1 := "```go\n" + strings.Repeat("func f(x int) int {\n\treturn x * 2 // double\n}\n", 12) + "```\n"
	code4 := "```go\n" + strings.Repeat("func f(x int) int {\n\treturn x * 2 // double\n}\n", 48) + "```\n"
	bare := "```\n" + strings.Repeat("func f(x int) int {\n\treturn x * 2 // double\n}\n", 12) + "```\n"
	r := New(darkPalette, 100)
	for _, c := range []struct{ n, md string }{{"para400", para}, {"code1k", code1}, {"code4k", code4}, {"bare1k", bare}} {
		r.Render(c.md)
		start := cpuTime()
		n := 50
		for i := 0; i < n; i++ {
			r.Render(c.md)
		}
		fmt.Printf("%s: %v cpu/op\n", c.n, (cpuTime()-start)/time.Duration(n))
	}
}
