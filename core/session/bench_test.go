package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// writeBigSession writes a session of about size bytes: a long main branch
// of user prompts, long assistant answers (code with quotes, backslashes
// and non-ASCII) and tool results, with a side branch of about a tenth of
// the size forking off in the middle. The main branch is written last, so
// its tip is the leaf. It returns the number of entries on the main branch.
func writeBigSession(tb testing.TB, path string, size int) int {
	tb.Helper()
	fh, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	w := bufio.NewWriterSize(fh, 1<<20)
	w.Write(appendHeader(nil, Header{Version: Version, ID: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", Timestamp: ts, Cwd: "/home/u/proj"}))
	w.WriteByte('\n')

	chunk := "func f(x int) string {\n\tif x > 0 {\n\t\treturn \"positive \\\\ é ✓\"\n\t}\n\treturn `raw`\n}\n"
	answer := strings.Repeat(chunk, 16_000/len(chunk))
	output := strings.Repeat("ok  \tgithub.com/x/y\t0.01s\n", 200)
	var written, n, mainLen int
	var buf []byte
	parent := ""
	emit := func(p Payload) {
		n++
		e := Entry{Type: p.EntryType(), ID: fmt.Sprintf("%08x", n), Timestamp: ts, Payload: p}
		if parent != "" {
			e.ParentID = &parent
		}
		var err error
		if buf, err = appendEntry(buf[:0], &e); err != nil {
			tb.Fatal(err)
		}
		buf = append(buf, '\n')
		w.Write(buf)
		written += len(buf)
		parent = e.ID
	}
	turn := func(i int) {
		emit(&MessageEntry{&core.UserMessage{Content: []core.Content{core.TextBlock("Please refactor step " + strconv.Itoa(i))}, Timestamp: int64(i)}})
		emit(&MessageEntry{&core.AssistantMessage{Content: []core.Content{
			{Type: core.ContentThinking, Thinking: "Thinking about step " + strconv.Itoa(i), ThinkingSignature: "c2lnbmF0dXJl"},
			core.TextBlock(answer),
			{Type: core.ContentToolCall, ID: "call_" + strconv.Itoa(i), Name: "bash", Arguments: json.RawMessage(`{"command":"go test ./..."}`)},
		}, API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5",
			Usage: core.Usage{Input: 1000 + i, Output: 4000, TotalTokens: 5000 + i}, StopReason: core.StopToolUse, Timestamp: int64(i)}})
		emit(&MessageEntry{&core.ToolResultMessage{ToolCallID: "call_" + strconv.Itoa(i), ToolName: "bash",
			Content: []core.Content{core.TextBlock(output)}, Timestamp: int64(i)}})
		mainLen += 3
	}
	emit(&ModelChangeEntry{Provider: "anthropic", ModelID: "claude-sonnet-4-5"})
	emit(&ThinkingLevelChangeEntry{ThinkingLevel: core.ThinkingMedium})
	mainLen = 2
	i := 0
	for written < size*45/100 {
		turn(i)
		i++
	}
	fork, forkLen := parent, mainLen
	for written < size*55/100 {
		turn(i)
		i++
	}
	mainTip, tipLen := parent, mainLen
	parent, mainLen = fork, forkLen // the side branch
	for written < size*65/100 {
		turn(i)
		i++
	}
	parent, mainLen = mainTip, tipLen
	for written < size {
		turn(i)
		i++
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return mainLen
}

// peakHeap samples the heap in use until stopped, keeping the maximum.
type peakHeap struct {
	stop chan struct{}
	done sync.WaitGroup
	max  uint64
}

func startPeakHeap() *peakHeap {
	p := &peakHeap{stop: make(chan struct{})}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			p.max = max(p.max, s[0].Value.Uint64())
			select {
			case <-p.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *peakHeap) end() uint64 {
	close(p.stop)
	p.done.Wait()
	return p.max
}

// cpuTime is the CPU time the process has used (user and system), which a
// busy machine does not inflate as it does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS resets the kernel's peak-RSS counter (Linux), reporting
// whether it could.
func resetPeakRSS() bool { return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil }

func peakRSS() uint64 {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkOpen100MB resumes a 100 MB session: Open (index everything,
// decode the active branch) and Context. Budget: under 1 s, memory under
// twice the file.
func BenchmarkOpen100MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	mainLen := writeBigSession(b, path, 100<<20)
	benchOpen(b, path, func(f *File, ctx Context) {
		if got := len(f.ActiveBranch()); got != mainLen || len(ctx.Messages) != mainLen-2 || len(f.Warnings()) != 0 {
			b.Fatalf("active branch %d entries (want %d), %d messages, warnings %v", got, mainLen, len(ctx.Messages), f.Warnings())
		}
	})
}

// BenchmarkOpen128MBLargeResults resumes the session of issue 31's
// measurement: 10,000 messages, 2,500 of them bash results of 50 KB, about
// 130 MB in all. The large results stay in the file, so the heap holds
// only the conversation around them. Budget (with the TUI's start-up):
// resume under 150 ms in under 40 MiB.
func BenchmarkOpen128MBLargeResults(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large-results.jsonl")
	writeLargeResultSession(b, path, 2500, 50_000)
	check := func(f *File, ctx Context) {
		if len(ctx.Messages) != 10_000 || len(f.Warnings()) != 0 {
			b.Fatalf("%d messages, warnings %v", len(ctx.Messages), f.Warnings())
		}
		last := resultOf(b, ctx.Messages, "call_2499")
		if last.Content[0].Stored == nil || last.Content[0].TextLen() < 50_000 {
			b.Fatal("the last large result is not kept in the file")
		}
	}
	// Read as two halves at once (the default), and in order.
	for _, c := range []struct {
		name string
		min  int64
	}{{"halves", parallelLoadMin}, {"in-order", 1 << 62}} {
		b.Run(c.name, func(b *testing.B) {
			old := parallelLoadMin
			parallelLoadMin = c.min
			defer func() { parallelLoadMin = old }()
			benchOpen(b, path, check)
		})
	}
}

// writeLargeResultSession writes n exchanges: a question, a bash call, its
// result of size bytes of test output, and an answer.
func writeLargeResultSession(tb testing.TB, path string, n, size int) {
	tb.Helper()
	fh, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	w := bufio.NewWriterSize(fh, 1<<20)
	w.Write(appendHeader(nil, Header{Version: Version, ID: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c", Timestamp: ts, Cwd: "/home/u/proj"}))
	w.WriteByte('\n')
	var buf []byte
	parent, seq := "", 0
	emit := func(m core.Message) {
		seq++
		e := Entry{Type: TypeMessage, ID: fmt.Sprintf("%08x", seq), Timestamp: ts, Payload: &MessageEntry{m}}
		if parent != "" {
			e.ParentID = &parent
		}
		var err error
		if buf, err = appendEntry(buf[:0], &e); err != nil {
			tb.Fatal(err)
		}
		w.Write(append(buf, '\n'))
		parent = e.ID
	}
	output := bigOutput(size)[:size]
	for i := range n {
		id := "call_" + strconv.Itoa(i)
		emit(&core.UserMessage{Content: []core.Content{core.TextBlock("Question " + strconv.Itoa(i) + ": does case " + strconv.Itoa(i) + " pass?")}, Timestamp: int64(i)})
		emit(&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: "bash", Arguments: json.RawMessage(`{"command":"go test ./..."}`)}},
			API: "openai-completions", Provider: "openai", Model: "gpt-5", Usage: core.Usage{Input: 100 + i, Output: 20, TotalTokens: 120 + i}, StopReason: core.StopToolUse, Timestamp: int64(i)})
		emit(toolResult(id, output))
		emit(&core.AssistantMessage{Content: []core.Content{core.TextBlock("Case " + strconv.Itoa(i) + " passes: every step printed **ok**.")},
			API: "openai-completions", Provider: "openai", Model: "gpt-5", Usage: core.Usage{Input: 200 + i, Output: 40, TotalTokens: 240 + i}, StopReason: core.StopEnd, Timestamp: int64(i)})
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
}

// benchOpen measures Open and Context of the session at path, checking
// each result with check, and reports time, peak and live heap and peak
// RSS.
func benchOpen(b *testing.B, path string, check func(*File, Context)) {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	size := float64(fi.Size())
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	var heapMax, rssMax, liveMax uint64
	var cpuTotal time.Duration
	rssOK := true
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		runtime.GC()
		rssOK = resetPeakRSS() && rssOK
		peak := startPeakHeap()
		cpu0 := cpuTime()
		b.StartTimer()

		f, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ctx := f.Context()

		b.StopTimer()
		cpuTotal += cpuTime() - cpu0
		heapMax = max(heapMax, peak.end())
		rssMax = max(rssMax, peakRSS())
		check(f, ctx)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		liveMax = max(liveMax, ms.HeapAlloc)
		runtime.KeepAlive(f)
		f.Close()
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(size/1e6, "file-MB")
	b.ReportMetric(float64(cpuTotal.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(heapMax)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(heapMax)/size, "peak-heap/file")
	b.ReportMetric(float64(liveMax)/1e6, "live-heap-MB")
	if rssOK {
		b.ReportMetric(float64(rssMax)/1e6, "peak-RSS-MB")
	}
}

// TestBigSessionGenerator checks the benchmark's file on a small scale.
func TestBigSessionGenerator(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	mainLen := writeBigSession(t, path, 2<<20)
	f := mustOpen(t, path)
	if got := len(f.ActiveBranch()); got != mainLen || len(f.Warnings()) != 0 {
		t.Fatalf("active branch %d, want %d; warnings %v", got, mainLen, f.Warnings())
	}
	if len(f.Nodes()) <= mainLen {
		t.Error("no side branch")
	}
	data, _ := os.ReadFile(path)
	if bytes.Count(data, []byte("\n")) != len(f.Nodes())+1 {
		t.Error("line count mismatch")
	}
}

// BenchmarkDecodeLine decodes one 1 MB assistant message line of code (an
// escape every few bytes), the worst case for the string scanner.
func BenchmarkDecodeLine(b *testing.B) {
	chunk := "func f(x int) string {\n\tif x > 0 {\n\t\treturn \"positive \\\\ é ✓\"\n\t}\n\treturn `raw`\n}\n"
	e := Entry{Type: TypeMessage, ID: "aaaaaaaa", Timestamp: ts, Payload: &MessageEntry{assistant(strings.Repeat(chunk, (1<<20)/len(chunk)))}}
	line, err := appendEntry(nil, &e)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	var d decoder
	for range b.N {
		if _, err := d.entry(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexLine validates a 1 MB line and reads its id and parent, as
// Open does for every line.
func BenchmarkIndexLine(b *testing.B) {
	chunk := "func f(x int) string {\n\tif x > 0 {\n\t\treturn \"positive \\\\ é ✓\"\n\t}\n\treturn `raw`\n}\n"
	e := Entry{Type: TypeMessage, ID: "aaaaaaaa", Timestamp: ts, Payload: &MessageEntry{assistant(strings.Repeat(chunk, (1<<20)/len(chunk)))}}
	line, err := appendEntry(nil, &e)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	var d decoder
	for range b.N {
		if _, err := d.head(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDescribeLargeResults lists a session of 500 exchanges with a
// 50 KB result each (25 MB) as /resume and ACP's session/list do: read
// (only the lines' types decoded), and again while it is unchanged.
func BenchmarkDescribeLargeResults(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large-results.jsonl")
	writeLargeResultSession(b, path, 500, 50_000)
	b.Run("read", func(b *testing.B) {
		b.SetBytes(fileSize(b, path))
		for b.Loop() {
			clear(described.entries)
			if info, err := describe(path); err != nil || info.MessageCount != 2000 {
				b.Fatalf("%+v, %v", info, err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			if info, err := describe(path); err != nil || info.MessageCount != 2000 {
				b.Fatalf("%+v, %v", info, err)
			}
		}
	})
}

func fileSize(tb testing.TB, path string) int64 {
	tb.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return fi.Size()
}
