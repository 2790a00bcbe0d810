package main

import (
	"context"
	"fmt"
)

// jsonStreamMode will serve aionrs's --json-stream host protocol, with the
// flags of its own command line; it is not built yet.
func jsonStreamMode(_ context.Context, _ []string, streams IOStreams, _ func(string) string) int {
	fmt.Fprintln(streams.Err, "cairn: --json-stream (aionrs's host protocol) is not built yet")
	return exitUsage
}
