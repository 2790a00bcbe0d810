package core_test

import (
	"encoding/json"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestSystemMessageKeyOrder checks the two orders pi 0.87.1 writes a system
// message in: a declaration has its timestamp before the tools, the replay
// a compaction keeps has its tools first (pi's getCurrentSystemMessage).
func TestSystemMessageKeyOrder(t *testing.T) {
	tools := []core.ToolSpec{{Name: "read", Description: "Read a file", Parameters: json.RawMessage(`{}`)}}
	for _, tc := range []struct {
		replayed bool
		want     string
	}{
		{false, `{"role":"system","content":"","sections":{"preamble":"p"},"timestamp":7,"toolsAdded":[{"name":"read","description":"Read a file","parameters":{}}]}`},
		{true, `{"role":"system","content":"","sections":{"preamble":"p"},"toolsAdded":[{"name":"read","description":"Read a file","parameters":{}}],"timestamp":7}`},
	} {
		m := core.SystemMessage{Sections: []core.PromptSection{{Name: "preamble", Text: "p"}}, ToolsAdded: tools, Timestamp: 7, Replayed: tc.replayed}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("replayed %v:\n got %s\nwant %s", tc.replayed, b, tc.want)
		}
	}
}
