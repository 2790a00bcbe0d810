//go:build unix

package tools

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// gorootSrc returns $(go env GOROOT)/src, or skips the benchmark.
func gorootSrc(b *testing.B) string {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// benchmarkGrep searches the Go source tree for pattern with a limit high
// enough to visit every file, as `grep -rn` does.
func benchmarkGrep(b *testing.B, pattern string) {
	benchmarkGrepArgs(b, `"pattern":`+strconv.Quote(pattern))
}

// benchmarkGrepArgs is benchmarkGrep with more arguments, given as the
// inside of a JSON object.
func benchmarkGrepArgs(b *testing.B, args string) {
	src := gorootSrc(b)
	grep := NewGrep(src)
	call := core.ToolCall{Name: "grep", Arguments: json.RawMessage(`{"limit":1000000,` + args + `}`)}
	b.ReportAllocs()
	var res core.ToolResult
	cpu := processCPU()
	for b.Loop() {
		var err error
		res, err = grep.Execute(context.Background(), call, nil)
		if err != nil || res.IsError {
			b.Fatal(err, text(res))
		}
	}
	reportCPU(b, processCPU()-cpu)
	// Every match is one line of output; past 50KB the truncation counts them.
	var d GrepDetails
	_ = json.Unmarshal(res.Details, &d)
	matches := strings.Count(text(res), "\n") + 1
	if d.Truncation != nil {
		matches = d.Truncation.TotalLines
	}
	b.ReportMetric(float64(matches), "matches")
}

// BenchmarkGrepGoroot searches $(go env GOROOT)/src for a literal.
func BenchmarkGrepGoroot(b *testing.B) { benchmarkGrep(b, "func main") }

// BenchmarkGrepGorootRegex searches the same tree with a regular
// expression that has no literal prefix.
func BenchmarkGrepGorootRegex(b *testing.B) { benchmarkGrep(b, `\bfunc \w+Main\(`) }

// BenchmarkGrepGorootIgnoreCase searches the same tree for a literal in any
// case.
func BenchmarkGrepGorootIgnoreCase(b *testing.B) {
	benchmarkGrepArgs(b, `"pattern":"func main","ignoreCase":true`)
}

// BenchmarkGrepGorootSystemGrep runs `grep -rn` over the same tree, for
// comparison.
func BenchmarkGrepGorootSystemGrep(b *testing.B) {
	grepPath, err := exec.LookPath("grep")
	if err != nil {
		b.Skip("grep is not installed")
	}
	src := gorootSrc(b)
	b.ReportAllocs()
	var matches int
	var cpu time.Duration
	for b.Loop() {
		cmd := exec.Command(grepPath, "-rn", "func main", src)
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		matches = strings.Count(string(out), "\n")
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(matches), "matches")
}

// processCPU returns the user and system time this process has used. On a
// busy shared machine it measures the work better than the wall clock.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports CPU time per operation in milliseconds.
func reportCPU(b *testing.B, total time.Duration) {
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "cpu-ms/op")
}
