package main

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/rpcmode/pi"
)

// rpcMode serves pi's rpc protocol on stdin and stdout until stdin ends or
// the process is told to stop; then the session file is flushed and cairn
// exits 0. Only protocol frames reach stdout; warnings go to stderr.
func rpcMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	a, err := buildApp(streams, env, opts, false)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return buildExit(err)
	}
	defer a.close()
	// An extension's ctx.shutdown ends the session as the end of stdin
	// does.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	a.shutdown.set(stop)
	templates, errs := loadPrompts(env, opts, a.cwd, *opts.trust)
	a.slash.setTemplates(templates)
	for _, e := range errs {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", e)
	}
	host := pi.Host{
		Session:    a.session,
		Models:     a.cat,
		Settings:   a.settings,
		Approvals:  a.gate,
		Prompts:    templates,
		MCP:        a.mcp.statuses,
		MCPPrompts: a.mcp.servers(),
		Commands:   func() []pi.SlashCommand { return extensionSlashCommands(a) },
		ExportHTML: exportSession,
		Compat073:  opts.RPCCompat == "0.73",
		Bash:       &pi.ExecBash{Dir: a.cwd, Shell: a.settings.Effective().ShellPath, Prefix: a.settings.Effective().ShellCommandPrefix, Compat073: opts.RPCCompat == "0.73", Sandbox: a.sandbox, Env: a.shellEnv},
	}
	if err := pi.Serve(ctx, streams.In, streams.Out, host); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}
