package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
)

// Arguments that could read two ways never reach an MCP server or a
// question, whether the tool is called directly or through mcp_call.
func TestAmbiguousMCPArgumentsAreRefusedUnasked(t *testing.T) {
	m, _ := startOne(t, testServer(t, "g", "hang"))
	if _, err := m.Conn(waitCtx(t, 30*time.Second), "g"); err != nil {
		t.Fatal(err)
	}
	gateway := NewSource(m, nil).Find(CallToolName)
	echo := toolNamed(t, m, "mcp__g__echo")
	tests := []struct {
		name, inner, want string
	}{
		{"duplicate key", `{"text":"shown","text":"sent"}`, `"text" appears twice`},
		{"case variant", `{"text":"shown","Text":"sent"}`, `"text" and "Text" differ only in case`},
		{"case variant alone", `{"Text":"sent"}`, `"Text" is not a parameter; parameter names are case-sensitive: use "text"`},
		{"unknown field", `{"text":"a","extra":1}`, `"extra" is not a parameter`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asker := &recordingAsker{}
			args := `{"tool":"mcp__g__echo","arguments":` + tt.inner + `}`
			d := WithHints(titleGate{}).Check(context.Background(), gateway, core.ToolCall{Name: CallToolName, Arguments: json.RawMessage(args)}, asker)
			if d.Allow || d.By != approval.ByArguments || !strings.Contains(d.DenialText(), tt.want) || asker.q.Title != "" {
				t.Errorf("mcp_call: decision %+v, question %q; want a refusal naming %q and no question", d, asker.q.Title, tt.want)
			}
			if res := call(t, gateway, args); !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("mcp_call ran: %+v", res)
			}
			if res := call(t, echo, tt.inner); !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("direct call ran: %+v", res)
			}
		})
	}
}
