package aionrs

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// BenchmarkStreamedAnswer measures one message whose answer streams in
// 2,000 chunks, from the message line to its stream_end, through Serve.
func BenchmarkStreamedAnswer(b *testing.B) {
	answer := strings.Repeat("abcd", 2000) // 2,000 chunks of 4 bytes
	fp := faux.New(faux.Options{ChunkSize: 4})
	gate, _ := approval.Open(approval.Config{Dir: b.TempDir()})
	sess, err := agent.New(agent.Config{Model: faux.Model, Approver: gate,
		Open: func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil }})
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), inR, outW, Host{Session: sess, Approvals: gate})
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // ready
	bytesOut := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fp.Push(faux.Response{Text: answer})
		fmt.Fprintf(inW, `{"type":"message","msg_id":"m%d","input":"go"}`+"\n", i)
		for sc.Scan() {
			bytesOut += len(sc.Bytes()) + 1
			if strings.Contains(sc.Text(), `"stream_end"`) {
				break
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(bytesOut)/float64(b.N), "stdout-bytes/op")
	inW.Close()
	for sc.Scan() {
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}
