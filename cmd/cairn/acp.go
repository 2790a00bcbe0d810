package main

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/rpcmode/acp"
)

// acpMode serves the Agent Client Protocol (ACP v1) on stdin and stdout
// until stdin ends or the process is told to stop; then the session file is
// flushed and cairn exits 0. Only protocol frames reach stdout; warnings go
// to stderr.
func acpMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	a, err := buildApp(streams, env, opts, false)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer a.close()
	templates, errs := loadPrompts(env, a.cwd, *opts.trust)
	for _, e := range errs {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", e)
	}
	host := acp.Host{
		Session:   a.session,
		Approvals: a.gate,
		Models:    a.cat,
		Tools:     a.session.Tools(),
		Workspace: a.workspace,
		Prompts:   templates,
		Cwd:       a.cwd,
		Version:   versionString(),
		Warn:      func(msg string) { fmt.Fprintf(streams.Err, "cairn: %s\n", msg) },
	}
	if err := acp.Serve(ctx, streams.In, streams.Out, host); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}
