package main

import (
	"context"
	"fmt"
)

// acpMode will serve --mode acp (the Agent Client Protocol); it is not built yet.
func acpMode(_ context.Context, streams IOStreams, _ environment, _ *Options) int {
	fmt.Fprintln(streams.Err, "cairn: --mode acp (the Agent Client Protocol) is not built yet")
	return exitUsage
}
