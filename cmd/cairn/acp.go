package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/trust"
	"github.com/cairn-dev/cairn/rpcmode/acp"
)

// acpMode serves the Agent Client Protocol (ACP v1) on stdin and stdout
// until stdin ends or the process is told to stop; then the session file is
// flushed and cairn exits 0. Only protocol frames reach stdout; warnings go
// to stderr. Every ACP session is a session of its own, running beside the
// others: the first one in the directory cairn started in is the one built
// at start; any other (another thread of the editor, another directory, MCP
// servers of the client's) is built for it as if cairn had been started
// there (its own project trust) with those servers beside its own, and
// closed with session/close or at the end. --trust-project trusts the
// directory cairn started in only: a session in another directory whose
// project is untrusted offers trust through the client.
func acpMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	// Without credentials cairn still answers: initialize offers the
	// set-up as an authentication method and sessions fail saying what to
	// set (an editor shows that; it does not show stderr).
	opts.allowNoCredentials = true
	// Later sessions are built from the options as given, before buildApp
	// fills them in; --session and --continue name the first one only.
	later := *opts
	later.Session, later.Continue = "", false
	a, err := buildApp(streams, env, opts, false)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return buildExit(err)
	}
	closeFirst := sync.OnceFunc(a.close)
	defer closeFirst()
	host := acpHost(streams, env, opts, a)
	host.Close = closeFirst
	host.Open = func(cwd string, servers []mcp.Server) (acp.Host, error) {
		o := later
		o.dir, o.clientMCP = cwd, servers
		if opts.trust == nil || trust.Find(cwd).Dir != opts.trust.project.Dir {
			// --trust-project (and pi's --approve) vouch for the directory
			// cairn started in, never for one a client names: a project
			// there is offered for trust through the client instead.
			o.TrustProject, o.Pi.TrustRun = false, false
		}
		next, err := buildApp(streams, env, &o, false)
		if err != nil {
			return acp.Host{}, err
		}
		h := acpHost(streams, env, &o, next)
		h.Close = sync.OnceFunc(next.close)
		return h, nil
	}
	store := sessionStore(env, opts)
	host.ListSessions = func(cwd string) ([]session.Info, error) {
		if cwd == "" {
			return store.ListAll()
		}
		return store.List(cwd)
	}
	if err := acp.Serve(ctx, streams.In, streams.Out, host); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// acpHost is what the ACP adapter needs of a built session.
func acpHost(streams IOStreams, env environment, opts *Options, a *app) acp.Host {
	templates, errs := loadPrompts(env, opts, a.cwd, *opts.trust)
	a.slash.setTemplates(templates)
	for _, e := range errs {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", e)
	}
	return acp.Host{
		Session:      a.session,
		Approvals:    a.gate,
		Models:       a.cat,
		Tools:        a.session.Tools(),
		Workspace:    a.workspace,
		Prompts:      templates,
		MCPPrompts:   a.mcp.servers(),
		Extensions:   a.extensions,
		Cwd:          a.cwd,
		Version:      versionString(),
		Unconfigured: unconfigured(a),
		StartNotice:  untrustedNotice(opts),
		Trust:        trustFunc(opts),
		Warn:         func(msg string) { fmt.Fprintf(streams.Err, "cairn: %s\n", msg) },
	}
}

// unconfigured says what to set when no model provider has credentials,
// for an editor's user: the variables the editor must pass to cairn, or
// the models.json to add a provider to; "" when one has them.
func unconfigured(a *app) string {
	if !a.noCredentials {
		return ""
	}
	return fmt.Sprintf("no model provider is configured: set %s in the environment your editor starts cairn with, or add a provider to %s",
		strings.Join(a.cat.KeyEnvs(), " or "), a.cat.ConfigFile())
}

// untrustedNotice tells an editor's user, in the session, what of an
// untrusted project cairn left out and how to trust it; "" when nothing
// was.
func untrustedNotice(opts *Options) string {
	if opts.trust == nil || opts.trust.ignored == "" {
		return ""
	}
	return opts.trust.ignored + ". To use them, read them, then run `cairn --trust-project` in " + opts.trust.project.Dir +
		" from a terminal (or answer cairn's question when it starts there) and open a new thread."
}

// trustFunc records the project as trusted, as --trust-project does, for
// an editor's user who accepts the offer; nil when there is nothing to
// trust or trust could not last (files cairn cannot check whole).
func trustFunc(opts *Options) func() error {
	t := opts.trust
	if t == nil || t.ignored == "" || t.store == nil || !t.scan.Sure() {
		return nil
	}
	return func() error { return t.store.Trust(t.project, t.scan) }
}
