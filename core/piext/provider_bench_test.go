package piext

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// BenchmarkExtensionStream: one answer of 4,000 text deltas streamed by a
// pi extension's own streamSimple, from the request to the finished
// message, every delta an event in cairn.
func BenchmarkExtensionStream(b *testing.B) {
	cat := providerCatalog(b, nil)
	ext, err := filepath.Abs("testdata/provider/many-deltas.ts")
	if err != nil {
		b.Fatal(err)
	}
	startHostFull(b, b.TempDir(), nil, nil, cat, "print", ext)
	m, err := cat.Find("many", "m")
	if err != nil {
		b.Fatal(err)
	}
	p, err := cat.Open(m, provider.Options{})
	if err != nil {
		b.Fatal(err)
	}
	const deltas = 4000
	req := &provider.Request{Model: m, System: strconv.Itoa(deltas),
		Messages: []core.Message{&core.UserMessage{Content: []core.Content{{Type: core.ContentText, Text: "go"}}}}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		msg, err := p.Stream(context.Background(), req, func(e provider.Event) {
			if e.Type == provider.EventTextDelta {
				n++
			}
		})
		if err != nil || n != deltas || len(msg.Content[0].Text) != 4*deltas {
			b.Fatalf("%d deltas, %v", n, err)
		}
	}
}
