package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// goroutineTB lets a client goroutine fail the test: Fatal records the
// failure and ends that goroutine only.
type goroutineTB struct{ testing.TB }

func (g goroutineTB) Fatal(args ...any) {
	g.TB.Error(args...)
	runtime.Goexit()
}

func (g goroutineTB) Fatalf(format string, args ...any) {
	g.TB.Errorf(format, args...)
	runtime.Goexit()
}

// countFDs counts this process's open file descriptors.
func countFDs(t testing.TB) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count file descriptors: %v", err)
	}
	return len(entries)
}

// settle waits, within waitLimit, until ok holds, letting goroutines that
// are ending run; it reports whether ok held.
func settle(ok func() bool) bool {
	deadline := time.Now().Add(waitLimit)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		runtime.Gosched()
		time.Sleep(5 * time.Millisecond) // a poll interval, not a wait for an event
	}
	return true
}

// TestJSONRPCLoad runs 20 clients at once on one socket, each with 50
// prompts (10 with -short), and checks that every answer arrives whole,
// that each query ends exactly once, and that disconnecting clients leave
// no goroutine, file descriptor or memory behind.
func TestJSONRPCLoad(t *testing.T) {
	clients, prompts := 20, 50
	if testing.Short() {
		prompts = 10
	}
	dir := t.TempDir()
	t.Chdir(dir)
	answers := make([]string, prompts)
	var script strings.Builder
	script.WriteString(`{"chunkSize": 16, "responses": [`)
	for i := range answers {
		answers[i] = fmt.Sprintf("answer %d: %s", i, strings.Repeat("lorem ipsum dolor ", 6))
		if i > 0 {
			script.WriteString(",")
		}
		b, _ := json.Marshal(map[string]string{"text": answers[i]})
		script.Write(b)
	}
	script.WriteString("]}")
	vars := map[string]string{"CAIRN_FAUX_SCRIPT": writeScript(t, script.String())}

	// Open the runtime's network poller before counting descriptors.
	if l, err := net.Listen("unix", filepath.Join(dir, "warm.sock")); err == nil {
		_ = l.Close()
	}
	fdsBefore := countFDs(t)
	leaks := goleak.IgnoreCurrent()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	srv := startJSONRPC(t, vars, "--provider", "faux")
	idleFDs, idleGoroutines := countFDs(t), runtime.NumGoroutine()
	start := time.Now()
	var wg sync.WaitGroup
	conns := make([]*rpcClient, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dialJSONRPC(goroutineTB{t}, srv.path)
			conns[i] = c
			c.initialize()
			for p := range prompts {
				resp, _ := c.call("agent.query", map[string]any{"message": fmt.Sprintf("client %d prompt %d", i, p)})
				id := rpcResult(c.t, resp)["query_id"]
				msgs := c.until(isMethod("stream.complete"))
				done := params(msgs[len(msgs)-1])
				if got := streamedText(msgs); got != answers[p] || done["status"] != "success" || done["query_id"] != id {
					t.Errorf("client %d prompt %d: got %q, complete %v", i, p, got, done)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var during runtime.MemStats
	runtime.ReadMemStats(&during)
	for _, c := range conns {
		if c != nil {
			_ = c.conn.Close()
		}
	}
	// Every client gone: its session, goroutines and descriptors go too.
	if !settle(func() bool { return runtime.NumGoroutine() <= idleGoroutines && countFDs(t) <= idleFDs }) {
		t.Errorf("after the clients left: %d goroutines (idle %d), %d fds (idle %d)", runtime.NumGoroutine(), idleGoroutines, countFDs(t), idleFDs)
	}
	if code := srv.shutdown(t); code != 0 {
		t.Fatalf("exit %d: %s", code, srv.stderr.String())
	}
	goleak.VerifyNone(t, leaks)
	if !settle(func() bool { return countFDs(t) <= fdsBefore }) {
		t.Errorf("%d file descriptors open after the server stopped, %d before", countFDs(t), fdsBefore)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if grown > 32<<20 {
		t.Errorf("the heap grew by %d MiB over the run", grown>>20)
	}
	t.Logf("%d clients x %d prompts in %v (%.0f prompts/s); heap in use at the end of the run %d MiB, after %+d KiB",
		clients, prompts, elapsed.Round(time.Millisecond), float64(clients*prompts)/elapsed.Seconds(), during.HeapInuse>>20, grown>>10)
}
