package synaps

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
)

// BenchmarkTurn measures one prompt over Serve: a 64 KiB answer streamed
// as 4096 text_delta frames, then agent_end and the response.
func BenchmarkTurn(b *testing.B) {
	b.ReportAllocs()
	p := faux.New(faux.Options{ChunkSize: 16})
	r := newRig(b, rigConfig{faux: p})
	r.ready()
	text := strings.Repeat("0123456789abcdef", 4096)
	b.ResetTimer()
	for i := range b.N {
		p.Push(faux.Response{Text: text})
		id := fmt.Sprint(i)
		r.send(map[string]any{"type": "prompt", "id": id, "message": "go"})
		if n := len(r.until(responseTo("prompt", id))); n != 4096+2 {
			b.Fatalf("%d frames", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*4096), "ns/delta")
}

// BenchmarkDecodeCommand measures decoding a prompt frame.
func BenchmarkDecodeCommand(b *testing.B) {
	b.ReportAllocs()
	line := []byte(`{"type":"prompt","id":"req-42","message":"` + strings.Repeat("word ", 200) + `","attachments":[{"path":"/tmp/a.png"}]}`)
	for b.Loop() {
		if _, err := decodeCommand(line); err != nil {
			b.Fatal(err)
		}
	}
}
