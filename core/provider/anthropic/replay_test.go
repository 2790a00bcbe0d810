package anthropic

import (
	"testing"

	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// TestReplayBodies: a long history whose large tool results are held in
// the session file reaches the server byte for byte as the encoder that
// held the whole conversation in memory sent it (golden files written by
// that encoder), streamed when it is large, and a session file cut short
// still gives a valid body.
func TestReplayBodies(t *testing.T) {
	providertest.CheckReplayBodies(t, providertest.ReplayBodies{
		Name:     "anthropic",
		Model:    testModel,
		Provider: New(provider.Options{}),
		Answer:   func() providertest.Response { return providertest.SSE(t, "anthropic/text.0.sse") },
	})
}
