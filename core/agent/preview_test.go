package agent

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestPreviewTextOfAFailedAttempt: /tree's row for an answer that failed
// (a 429 the session retried) says why, instead of an empty
// "assistant:".
func TestPreviewTextOfAFailedAttempt(t *testing.T) {
	m := &core.AssistantMessage{StopReason: core.StopError, ErrorMessage: "429 Too Many Requests"}
	if got, want := previewText(m), "(failed: 429 Too Many Requests)"; got != want {
		t.Errorf("previewText = %q, want %q", got, want)
	}
}
