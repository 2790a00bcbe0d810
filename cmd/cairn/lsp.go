package main

import (
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/child"
	"github.com/cairn-dev/cairn/core/lsp"
	"github.com/cairn-dev/cairn/core/settings"
	"slices"
)

// withLanguageServers makes write and edit report the errors they
// introduce, as the project's language servers see them, and adds the
// diagnostics tool, when the lsp setting is on and the project is trusted
// as its control files are (a project with none counts as trusted): an
// untrusted project's files reach no server, which would read its build
// files and may run what they name. It returns the manager to
// stop when the session ends, or nil; nothing starts before a file of a
// server's language is edited or asked about.
func withLanguageServers(builtin []core.Tool, st *settings.Store, env environment, cwd string, trusted, explicitTrust bool) ([]core.Tool, *lsp.Manager) {
	eff := st.Effective().LSP
	if !eff.Enabled || !trusted {
		return builtin, nil
	}
	servers := languageServers(st, explicitTrust)
	m := lsp.New(lsp.Config{Dir: cwd, Servers: servers, Wait: eff.Wait(), Env: child.Env(env.getenv)})
	out := make([]core.Tool, 0, len(builtin)+1)
	for _, t := range builtin {
		switch t.Spec().Name {
		case "write", "edit":
			t = lsp.WithDiagnostics(t, m, cwd)
		}
		out = append(out, t)
	}
	return append(out, &lsp.Tool{M: m, Dir: cwd}), m
}

// languageServers are the servers a session may start: the defaults with
// the person's settings over them. A project nobody trusted (it has no
// control files to trust) gets no server that runs its code, unless the
// person's own settings name that server.
func languageServers(st *settings.Store, explicitTrust bool) []lsp.Server {
	overrides := map[string]lsp.Server{}
	for name, s := range st.LSPServers() {
		overrides[name] = lsp.Server{Command: s.Command, Extensions: s.Extensions, RootMarkers: s.RootMarkers, Disabled: s.Disabled}
	}
	servers := lsp.Merge(lsp.DefaultServers(), overrides)
	if !explicitTrust {
		servers = slices.DeleteFunc(servers, func(s lsp.Server) bool { return s.RunsProjectCode })
	}
	return servers
}
