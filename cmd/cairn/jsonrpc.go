package main

import (
	"context"
	"fmt"
)

// jsonrpcMode will serve --mode jsonrpc (OpenAgent's JSON-RPC socket); it is not built yet.
func jsonrpcMode(_ context.Context, streams IOStreams, _ environment, _ *Options) int {
	fmt.Fprintln(streams.Err, "cairn: --mode jsonrpc (OpenAgent's JSON-RPC socket) is not built yet")
	return exitUsage
}
