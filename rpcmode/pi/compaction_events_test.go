package pi

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestAutomaticCompactionFrames checks the names and keys of automatic
// compaction's frames: pi 0.87's compaction_start/_end with the reason and
// the result's estimate and usage, or pi 0.73's auto_compaction_*.
func TestAutomaticCompactionFrames(t *testing.T) {
	res := &core.CompactionResult{Summary: "s", TokensBefore: 900, EstimatedTokensAfter: 120, Usage: core.Usage{Input: 800, Output: 40}}
	tests := []struct {
		w          wire
		start, end string
	}{
		{wire{}, `{"type":"compaction_start","reason":"threshold"}`,
			`{"type":"compaction_end","reason":"threshold","result":{"summary":"s","firstKeptEntryId":"","tokensBefore":900,"estimatedTokensAfter":120,"usage":{"input":800,"output":40,`},
		{wire{full: true, v073: true}, `{"type":"auto_compaction_start","reason":"threshold"}`,
			`{"type":"auto_compaction_end","result":{"summary":"s","firstKeptEntryId":"","tokensBefore":900,"details":`},
	}
	for _, tt := range tests {
		start, _, err := appendEvent(nil, core.AutoCompactionStart{Reason: core.CompactionThreshold}, tt.w)
		if err != nil || string(start) != tt.start {
			t.Errorf("start %s, %v; want %s", start, err, tt.start)
		}
		end, _, err := appendEvent(nil, core.AutoCompactionEnd{Reason: core.CompactionThreshold, Result: res}, tt.w)
		if err != nil || !strings.HasPrefix(string(end), tt.end) {
			t.Errorf("end %s, %v; want it to start %s", end, err, tt.end)
		}
		if got := wireName(core.AutoCompactionEnd{}, tt.w); !strings.Contains(tt.end, `"type":"`+got+`"`) {
			t.Errorf("filter name %q", got)
		}
	}
}
