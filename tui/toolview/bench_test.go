package toolview

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// bashCall2000 is a finished bash call whose output has 2,000 lines.
func bashCall2000() Call {
	out := numbered("ok  \tgithub.com/cairn-dev/cairn/some/package/path\t0.123s\tline", 2000)
	return Call{Name: "bash", Args: json.RawMessage(`{"command":"go test ./..."}`), State: Done, Elapsed: time.Second,
		Result: textResult(out, false, nil)}
}

// editCall500 is a finished edit call whose diff has 500 lines.
func editCall500() Call {
	var b strings.Builder
	for i := 1; i <= 500; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "+%3d \t\tresult = append(result, compute(%d, \"value\"))\n", i, i)
		case 1:
			fmt.Fprintf(&b, "-%3d \t\tresult = append(result, compute(%d))\n", i, i)
		default:
			fmt.Fprintf(&b, " %3d \tif err != nil { return nil, err }\n", i)
		}
	}
	return Call{Name: "edit", Args: json.RawMessage(`{"path":"core/agent.go","edits":[]}`), State: Done, Elapsed: time.Millisecond,
		Result: textResult("Successfully replaced 1 block(s) in core/agent.go.", false,
			tools.EditDetails{Diff: strings.TrimSuffix(b.String(), "\n"), FirstChangedLine: 1})}
}

func BenchmarkRenderBash2000Collapsed(b *testing.B) {
	c, st := bashCall2000(), DefaultStyles()
	b.ReportAllocs()
	for b.Loop() {
		Render(c, 120, st, false)
	}
}

func BenchmarkRenderEdit500Expanded(b *testing.B) {
	c, st := editCall500(), DefaultStyles()
	b.ReportAllocs()
	for b.Loop() {
		Render(c, 120, st, true)
	}
}

func BenchmarkRenderEdit500Collapsed(b *testing.B) {
	c, st := editCall500(), DefaultStyles()
	b.ReportAllocs()
	for b.Loop() {
		Render(c, 120, st, false)
	}
}

func BenchmarkRenderReadHighlighted(b *testing.B) {
	c := Call{Name: "read", Args: json.RawMessage(`{"path":"config.go"}`), State: Done,
		Result: &core.ToolResult{Content: []core.Content{core.TextBlock(strings.Repeat(goSource, 20))}}}
	st := DefaultStyles()
	b.ReportAllocs()
	for b.Loop() {
		Render(c, 120, st, false)
	}
}
