// Command wordcount is an example cairn extension in Go: one tool,
// word_count, that counts the words of a text, reporting progress while it
// works. Build it with `go build -o wordcount .` and put this directory in
// ~/.cairn/extensions/ (its extension.json runs ./wordcount).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cairn-dev/cairn/core/extension/sdk"
)

func main() {
	x := sdk.New("wordcount")
	x.RegisterTool(sdk.Tool{
		Name:        "word_count",
		Label:       "Word count",
		Description: "Count the words and lines of a text.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"The text to count"}},
			"required":["text"],"additionalProperties":false}`),
		Execute: func(ctx context.Context, call *sdk.Call) (sdk.Result, error) {
			var p struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(call.Params, &p); err != nil {
				return sdk.Result{}, fmt.Errorf("read the arguments: %w", err)
			}
			lines := strings.Split(p.Text, "\n")
			words := 0
			for i, l := range lines {
				words += len(strings.Fields(l))
				if (i+1)%1000 == 0 {
					// Streamed updates: shown while the tool runs.
					_ = call.Update([]sdk.Content{sdk.Text(fmt.Sprintf("%d lines counted", i+1))}, nil)
				}
				if ctx.Err() != nil {
					return sdk.Result{}, ctx.Err()
				}
			}
			return sdk.Result{
				Content: []sdk.Content{sdk.Text(fmt.Sprintf("%d words, %d lines", words, len(lines)))},
				Details: map[string]int{"words": words, "lines": len(lines)},
			}, nil
		},
	})
	if err := x.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "wordcount:", err)
		os.Exit(1)
	}
}
