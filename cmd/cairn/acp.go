package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/rpcmode/acp"
)

// acpMode serves the Agent Client Protocol (ACP v1) on stdin and stdout
// until stdin ends or the process is told to stop; then the session file is
// flushed and cairn exits 0. Only protocol frames reach stdout; warnings go
// to stderr. A session/new or session/load naming another directory, or
// MCP servers of the client's, moves cairn to a session built for it as if
// cairn had been started there (its own project trust) with those servers
// beside its own; the previous one is closed.
func acpMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	// Later sessions are built from the options as given, before buildApp
	// fills them in; --session and --continue name the first one only.
	later := *opts
	later.Session, later.Continue = "", false
	a, err := buildApp(streams, env, opts, false)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	closeFirst := sync.OnceFunc(a.close)
	defer closeFirst()
	host := acpHost(streams, env, opts, a)
	host.Close = closeFirst
	host.Open = func(cwd string, servers []mcp.Server) (acp.Host, error) {
		o := later
		o.dir, o.clientMCP = cwd, servers
		next, err := buildApp(streams, env, &o, false)
		if err != nil {
			return acp.Host{}, err
		}
		h := acpHost(streams, env, &o, next)
		h.Close = sync.OnceFunc(next.close)
		return h, nil
	}
	store := sessionStore(env, opts)
	host.ListSessions = func(cwd string) ([]session.Info, error) { return store.List(cwd) }
	if err := acp.Serve(ctx, streams.In, streams.Out, host); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// acpHost is what the ACP adapter needs of a built session.
func acpHost(streams IOStreams, env environment, opts *Options, a *app) acp.Host {
	templates, errs := loadPrompts(env, opts, a.cwd, *opts.trust)
	for _, e := range errs {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", e)
	}
	return acp.Host{
		Session:    a.session,
		Approvals:  a.gate,
		Models:     a.cat,
		Tools:      a.session.Tools(),
		Workspace:  a.workspace,
		Prompts:    templates,
		MCPPrompts: a.mcp.servers(),
		Extensions: a.extensions,
		Cwd:        a.cwd,
		Version:    versionString(),
		Warn:       func(msg string) { fmt.Fprintf(streams.Err, "cairn: %s\n", msg) },
	}
}
