package main

import (
	"context"
	"fmt"
)

// synapsMode will serve --mode synaps (synaps rpc); it is not built yet.
func synapsMode(_ context.Context, streams IOStreams, _ environment, _ *Options) int {
	fmt.Fprintln(streams.Err, "cairn: --mode synaps (synaps rpc) is not built yet")
	return exitUsage
}
