package main

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/rpcmode/synaps"
)

// synapsMode serves synaps rpc (`--mode synaps`, or `--mode rpc
// --rpc-dialect synaps`) on stdin and stdout until a shutdown command or
// the end of stdin; then the session file is flushed and cairn exits 0.
// synaps has no approval frames, so the session runs unattended: a call
// the approval mode would ask about is refused and the model is told why.
// Only protocol frames reach stdout; warnings go to stderr.
func synapsMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	a, err := buildApp(streams, env, opts, true)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer a.close()
	host := synaps.Host{
		Session: a.session,
		// The same tool set buildApp gives the session.
		Tools:  a.session.Tools(),
		Models: a.cat,
	}
	if err := synaps.Serve(ctx, streams.In, streams.Out, host); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}
