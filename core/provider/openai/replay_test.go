package openai

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// TestReplayBodies: a long history whose large tool results are held in
// the session file reaches the server byte for byte as the encoder that
// held the whole conversation in memory sent it (golden files written by
// that encoder), streamed when it is large, and a session file cut short
// still gives a valid body.
func TestReplayBodies(t *testing.T) {
	for _, name := range []string{"openai-chat/text.0.sse", "openai-compat/llamacpp_text.0.sse", "openai-compat/groq_parallel_tool_calls.0.sse"} {
		short := strings.TrimSuffix(strings.TrimSuffix(name[strings.Index(name, "/")+1:], ".0.sse"), ".sse")
		t.Run(short, func(t *testing.T) {
			providertest.CheckReplayBodies(t, providertest.ReplayBodies{
				Name:     "openai-" + short,
				Model:    func(url string) core.Model { return fixtureModel(name, url+"/v1") },
				Provider: New(provider.Options{}),
				Answer:   func() providertest.Response { return providertest.SSE(t, name) },
			})
		})
	}
}
