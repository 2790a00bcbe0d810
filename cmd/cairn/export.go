package main

import (
	"context"
	"fmt"
)

// exportCommand is `cairn --export FILE [OUT]`, as pi's --export: the
// session file as one HTML page, at OUT or at the default name in the
// working directory. It prints the page's absolute path. --model names the
// model when the file names none.
func exportCommand(ctx context.Context, streams IOStreams, opts *Options) int {
	var out string
	switch len(opts.Messages) {
	case 0:
	case 1:
		out = opts.Messages[0]
	default:
		fmt.Fprintf(streams.Err, "cairn: --export takes the session file and at most one output file, not %d\n", len(opts.Messages))
		return exitUsage
	}
	path, err := exportSession(ctx, opts.Export, out, opts.Model)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: cannot export %s: %v\n", opts.Export, err)
		return exitFailure
	}
	fmt.Fprintln(streams.Out, path)
	return exitOK
}
