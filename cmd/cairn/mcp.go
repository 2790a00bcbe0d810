package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/regfile"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/toolset"
)

// mcpRun is the MCP servers of one run: the manager keeping them running
// and the source offering their tools to the session's registry.
type mcpRun struct {
	// manager is nil when MCP is off (--no-mcp).
	manager *mcp.Manager
	source  *mcp.Source
	// release gives back this session's use of the manager, which the
	// process's host shares with every session of the project that names
	// the same servers; the last one stops them.
	release func()
}

// approver wraps the session's gate so approval questions for MCP tools
// show what their server claims about them.
func (r *mcpRun) approver(gate agent.Approver) agent.Approver {
	if r.manager == nil {
		return gate
	}
	return mcp.WithHints(gate)
}

// statuses reports every configured server; nil when MCP is off.
func (r *mcpRun) statuses() []mcp.Status {
	if r == nil || r.manager == nil {
		return nil
	}
	return r.manager.Statuses()
}

// servers is the manager of the servers; nil when MCP is off.
func (r *mcpRun) servers() *mcp.Manager {
	if r == nil {
		return nil
	}
	return r.manager
}

// close stops the servers.
func (r *mcpRun) close() {
	if r != nil && r.release != nil {
		r.release()
	}
}

// startMCP reads the MCP configuration and starts its servers in the
// background; it never waits for a server. Their tools join registry as
// each server becomes ready (mcp.Source); the session waits for servers
// still starting before a prompt's first request (toolset.Registry.Wait),
// and mcp_tool_search waits the same way. Configuration problems are
// warnings on streams.Err; a server that fails to start is reported once
// (see mcpReporter), and to the session's front end by the registry;
// printMode says the session's notices reach stderr already (print and
// json modes), so failures are not written there twice.
func startMCP(streams IOStreams, env environment, opts *Options, trusted projectTrust, registry *toolset.Registry, printMode bool) *mcpRun {
	if opts.NoMCP {
		return &mcpRun{}
	}
	cfg, notes, err := loadMCPConfig(env, trusted)
	for _, n := range notes {
		fmt.Fprintf(streams.Err, "cairn: warning: %s\n", n)
	}
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: MCP configuration: %v\n", err)
	}
	for _, s := range opts.clientMCP {
		cfg.Servers = slices.DeleteFunc(cfg.Servers, func(c mcp.Server) bool { return c.Name == s.Name })
		cfg.Servers = append(cfg.Servers, s)
	}
	// One set of servers per project and configuration in the process:
	// every ACP thread of an editor in this project uses the same
	// processes, each with its own view of their tools (its Source).
	m, release := env.host.MCP(trusted.project.Dir, cfg, func() *mcp.Manager {
		cache := &mcp.ToolCache{Path: mcp.CacheFile(env.dir)}
		return mcp.Start(cfg, mcp.Options{LogDir: mcpLogDir(env), Report: mcpReporter(streams, env, !printMode), Cache: cache})
	})
	src := mcp.NewSource(m, func(ctx context.Context) { registry.Wait(ctx, nil) })
	registry.Add(src)
	return &mcpRun{manager: m, source: src, release: release}
}

// mcpStartupLimit is how long a prompt waits for MCP servers still
// starting: CAIRN_MCP_STARTUP_MS, else the mcp.startupTimeoutMs setting;
// 0 means no wait. A value that is not a whole number of milliseconds of
// at least 0 is refused with a warning.
func mcpStartupLimit(streams IOStreams, env environment, eff settings.Settings) time.Duration {
	limit := eff.MCP.StartupTimeout()
	if v := strings.TrimSpace(env.getenv("CAIRN_MCP_STARTUP_MS")); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms < 0 {
			fmt.Fprintf(streams.Err, "cairn: warning: CAIRN_MCP_STARTUP_MS=%q is not a whole number of milliseconds (0 or more); using %s\n", v, limit)
		} else {
			limit = time.Duration(ms) * time.Millisecond
		}
	}
	return limit
}

// toolsetLimit is limit as toolset.Options reads it (negative: no wait).
func toolsetLimit(limit time.Duration) time.Duration {
	if limit == 0 {
		return -1
	}
	return limit
}

func mcpLogDir(env environment) string { return filepath.Join(env.dir, "mcp", "logs") }

// mcpReporter reports a server's failure to start: always in
// <cairn>/mcp/mcp.log, and on stderr when toStderr is set and stderr is the
// process's own (rpc and the adapters; the TUI owns the screen and buffers
// its warnings, and print and json modes hear it from the session before
// the first request, so there it would be said twice).
func mcpReporter(streams IOStreams, env environment, toStderr bool) func(string) {
	var mu sync.Mutex
	path := filepath.Join(env.dir, "mcp", "mcp.log")
	stderr, _ := streams.Err.(*os.File)
	if !toStderr {
		stderr = nil
	}
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if os.MkdirAll(filepath.Dir(path), 0o700) == nil {
			if f, err := regfile.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
				fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), msg)
				_ = f.Close()
			}
		}
		if stderr != nil {
			fmt.Fprintf(stderr, "cairn: warning: %s\n", msg)
		}
	}
}

// loadMCPConfig reads the person's servers (Claude Code's ~/.claude.json,
// then cairn's mcp.json) and, in a trusted project, the project's
// (.vscode/mcp.json, .cursor/mcp.json, .zed/settings.json, .mcp.json,
// .cairn/mcp.json); a server named again replaces the earlier entry, so
// cairn's files win over other clients' and the project's over the
// person's. Project trust fingerprints all
// of them (core/trust), so a file that changes after a git pull must be
// trusted again before its commands run; notes say which files were
// skipped and why.
func loadMCPConfig(env environment, trusted projectTrust) (mcp.Config, []string, error) {
	var files []mcp.File
	project := trusted.project
	if home := env.lookup("HOME"); home != "" {
		// The person's servers from Claude Code (claude mcp add, user and
		// local scope): theirs, so read whatever the project's trust.
		files = append(files, mcp.ClaudeUserFile(home, project.Dir))
	}
	// The servers of the person's plugins come before the person's own
	// files, which can replace them.
	plugins, _ := installedPlugins(env, project.Dir, trusted.trusted())
	files = append(files, pluginMCPFiles(plugins)...)
	files = append(files, mcp.File{Path: mcp.UserFile(env.dir)})
	var notes []string
	if project.Dir != "" && !isCairnHome(project.Dir, env.dir) {
		for _, f := range slices.Concat(mcp.OtherClientProjectFiles(project.Dir), mcp.ProjectFiles(project.Root, project.Dir)) {
			if _, err := os.Stat(f.Path); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if !trusted.trusted() {
				notes = append(notes, fmt.Sprintf("the project is not trusted, so cairn does not start the MCP servers of %s; read it, then run cairn --trust-project there", f.Path))
				continue
			}
			files = append(files, f)
		}
	}
	cfg, err := mcp.LoadFiles(files, env.getenv)
	return cfg, notes, err
}

// mcpListTimeout bounds how long cairn mcp list waits for servers.
const mcpListTimeout = 30 * time.Second

const mcpUsage = `usage: cairn mcp list [--trust-project] [--timeout SECONDS]

Validates the MCP configuration files (~/.claude.json's servers,
~/.cairn/mcp.json, the project's .vscode/mcp.json, .cursor/mcp.json,
.zed/settings.json, .mcp.json and .cairn/mcp.json), starts every enabled server and shows its
state, tools and prompts. Exits 1 when a file is invalid or a server did not start.
`

// mcpCommand runs `cairn mcp ...`.
func mcpCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	l, code, ok := listSetup(args, mcpUsage, mcpListTimeout, streams, getenv)
	if !ok {
		return code
	}
	return mcpList(ctx, streams, l.env, l.opts, l.trusted, l.timeout)
}

// listRun is what `cairn mcp list` and `cairn ext list` work with.
type listRun struct {
	opts    *Options
	timeout time.Duration
	env     environment
	cwd     string
	trusted projectTrust
}

// listSetup reads a list command's arguments ("list" and its flags) and
// finds the environment, working directory and project trust. When ok is
// false the command ends with code.
func listSetup(args []string, usage string, timeout time.Duration, streams IOStreams, getenv func(string) string) (listRun, int, bool) {
	if len(args) == 0 || args[0] != "list" {
		fmt.Fprint(streams.Err, usage)
		return listRun{}, exitUsage, false
	}
	opts, timeout, code, ok := listArgs(args[1:], usage, timeout, streams)
	if !ok {
		return listRun{}, code, false
	}
	env := newEnvironment(getenv)
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: find the working directory: %v\n", err)
		return listRun{}, exitFailure, false
	}
	return listRun{opts: opts, timeout: timeout, env: env, cwd: cwd, trusted: projectTrustFor(streams, env, opts, cwd, nil)}, exitOK, true
}

// listArgs reads the flags of `cairn mcp list` and `cairn ext list`
// (--trust-project, --timeout SECONDS, --help). When ok is false the
// command ends with code (usage printed).
func listArgs(args []string, usage string, timeout time.Duration, streams IOStreams) (opts *Options, limit time.Duration, code int, ok bool) {
	opts = &Options{}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--trust-project":
			opts.TrustProject = true
		case a == "--timeout" && i+1 < len(args):
			i++
			var secs float64
			if _, err := fmt.Sscanf(args[i], "%g", &secs); err != nil || secs <= 0 {
				fmt.Fprintf(streams.Err, "cairn: --timeout needs a positive number of seconds, not %q\n", args[i])
				return nil, 0, exitUsage, false
			}
			timeout = time.Duration(secs * float64(time.Second))
		case a == "-h" || a == "--help":
			fmt.Fprint(streams.Out, usage)
			return nil, 0, exitOK, false
		default:
			fmt.Fprintf(streams.Err, "cairn: unknown argument %s\n%s", a, usage)
			return nil, 0, exitUsage, false
		}
	}
	return opts, timeout, exitOK, true
}

// mcpList starts the configured servers, waits up to timeout for each to
// start or fail, and prints the result.
func mcpList(ctx context.Context, streams IOStreams, env environment, opts *Options, trusted projectTrust, timeout time.Duration) int {
	cfg, notes, cfgErr := loadMCPConfig(env, trusted)
	code := exitOK
	for _, n := range notes {
		fmt.Fprintf(streams.Err, "cairn: warning: %s\n", n)
	}
	if cfgErr != nil {
		code = exitFailure
		fmt.Fprintf(streams.Out, "Configuration errors:\n%s\n\n", indentLines(cfgErr.Error()))
	}
	if len(cfg.Servers) == 0 {
		fmt.Fprintf(streams.Out, "No MCP servers configured. Add them to %s as {\"mcpServers\": {\"name\": {\"command\": \"...\", \"args\": [...]}}}.\n", mcp.UserFile(env.dir))
		return code
	}
	cache := &mcp.ToolCache{Path: mcp.CacheFile(env.dir)}
	m := mcp.Start(cfg, mcp.Options{LogDir: mcpLogDir(env), Cache: cache})
	defer m.Close()
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	m.WaitSettled(wait)
	for _, st := range m.Statuses() {
		if !printServer(streams, st) {
			code = exitFailure
		}
	}
	return code
}

// printServer prints one server's state, tools and prompts; false means an enabled
// server is not running.
func printServer(streams IOStreams, st mcp.Status) bool {
	s := st.Server
	w := streams.Out
	state := st.State.String()
	if s.Disabled {
		state = "disabled"
	}
	fmt.Fprintf(w, "%s  %s  %s %s  (from %s)\n", s.Name, state, s.Transport, s.CommandLine(), s.Source)
	switch {
	case s.Disabled:
		return true
	case st.State == mcp.Ready:
		for _, t := range mcp.Tools(nil, map[string][]mcp.ToolInfo{s.Name: st.Tools}, []mcp.Server{s}) {
			tool := t.(*mcp.Tool)
			line := "  " + t.Spec().Name
			if hint := toolHint(tool.Info()); hint != "" {
				line += "  [" + hint + "]"
			}
			if d := firstLine(t.Spec().Description); d != "" {
				line += "  " + d
			}
			fmt.Fprintln(w, line)
		}
		for _, p := range st.Prompts {
			c := mcp.PromptCommand{Name: mcp.PromptCommandName(s.Name, p.Name), Server: s.Name, Prompt: p}
			line := "  /" + strings.TrimSpace(c.Name+" "+c.Usage()) + "  [prompt]"
			if d := firstLine(p.Description); d != "" {
				line += "  " + d
			}
			fmt.Fprintln(w, line)
		}
		return true
	case st.State == mcp.Starting && st.Err == nil:
		fmt.Fprintln(w, "  did not start within the time limit")
	default:
		fmt.Fprintln(w, indentLines(mcp.FailureText(st)))
	}
	return false
}

func toolHint(info mcp.ToolInfo) string {
	switch {
	case info.ReadOnly:
		return "read-only"
	case info.Destructive != nil && *info.Destructive:
		return "destructive"
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

func indentLines(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
