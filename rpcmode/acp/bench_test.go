package acp

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// stopSink counts the bytes written and signals the first prompt response.
type stopSink struct {
	mu      sync.Mutex
	n       int
	tail    []byte
	stopped chan struct{}
	once    sync.Once
}

var stopFrame = []byte(`{"stopReason":`)

func (s *stopSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n += len(p)
	// Search across the end of the previous write: a frame may be split.
	window := append(s.tail, p[:min(len(p), len(stopFrame))]...)
	if bytes.Contains(window, stopFrame) || bytes.Contains(p, stopFrame) {
		s.once.Do(func() { close(s.stopped) })
	}
	s.tail = append(s.tail[:0], p[max(0, len(p)-len(stopFrame)):]...)
	return len(p), nil
}

// turnOnce serves initialize, session/new and one prompt answered in
// chunks deltas of "tok ", and returns the bytes written.
func turnOnce(tb testing.TB, chunks int, cwd string) int {
	fp := faux.New(faux.Options{ChunkSize: 4}, faux.Response{Text: strings.Repeat("tok ", chunks)})
	sess, err := agent.New(agent.Config{
		Model: faux.Model,
		Open:  func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
	})
	if err != nil {
		tb.Fatal(err)
	}
	defer sess.Close()
	gate, _ := approval.Open(approval.Config{Dir: cwd})
	pr, pw := io.Pipe()
	sink := &stopSink{stopped: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), pr, sink, Host{Session: sess, Approvals: gate, Cwd: cwd}) }()
	id := sess.Conversation().ID
	io.WriteString(pw, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"`+cwd+`","mcpServers":[]}}`+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"`+id+`","prompt":[{"type":"text","text":"go"}]}}`+"\n")
	<-sink.stopped
	pw.Close()
	if err := <-done; err != nil {
		tb.Fatal(err)
	}
	return sink.n
}

// BenchmarkACPTurn2000 streams a 2,000-chunk answer through Serve with the
// faux provider, as rpcmode/pi's BenchmarkStream2000 does for --mode rpc.
// It reports the time per chunk and the bytes written per answer.
func BenchmarkACPTurn2000(b *testing.B) {
	const chunks = 2000
	cwd := b.TempDir()
	b.ReportAllocs()
	var written int
	for b.Loop() {
		written = turnOnce(b, chunks, cwd)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
	b.ReportMetric(float64(written), "stdout-bytes")
}

// BenchmarkACPSpawnInitialize starts a built cairn --mode acp, sends
// initialize, waits for its response and ends the process: what an editor
// waits for before it can open a session.
func BenchmarkACPSpawnInitialize(b *testing.B) {
	bin := buildCairn(b)
	dir, work := b.TempDir(), b.TempDir()
	script := work + "/script.json"
	if err := os.WriteFile(script, []byte(`{"responses":[]}`), 0o644); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "CAIRN_DIR="+dir, "CAIRN_FAUX_SCRIPT="+script)
	b.ReportAllocs()
	for b.Loop() {
		cmd := exec.Command(bin, "--mode", "acp", "--provider", "faux", "--no-session")
		cmd.Dir, cmd.Env = work, env
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
		line, err := bufio.NewReader(out).ReadBytes('\n')
		if err != nil || !bytes.Contains(line, []byte(`"protocolVersion":1`)) {
			b.Fatalf("initialize: %q %v", line, err)
		}
		in.Close()
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}
