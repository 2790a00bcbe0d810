package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/lsp"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/regfile"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/skills"
	"github.com/cairn-dev/cairn/core/subagent"
	"github.com/cairn-dev/cairn/core/sysprompt"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/core/toolset"
)

// app is a session wired to its model, tools, approvals and settings.
type app struct {
	cwd      string
	cat      *catalog.Catalog
	settings *settings.Store
	gate     *approval.Gate
	session  *agent.Session
	// workspace is where the built-in tools read, write and run commands:
	// local, until an ACP client offers its fs and terminal.
	workspace *tools.Workspace
	model     core.Model
	// noCredentials: no provider has credentials (TUI first run).
	noCredentials bool
	warnings      []string
	// mcp runs the session's MCP servers.
	mcp *mcpRun
	// sandbox is the sandbox commands run in; nil runs them unsandboxed.
	sandbox *sandbox.Policy
	// shellEnv is the environment commands start with (see shellEnv).
	shellEnv []string
	// extensions runs the session's extensions.
	extensions *extension.Manager
	// shutdown is how an extension ends the session (pi's ctx.shutdown);
	// the front end that can be ended so sets its stop.
	shutdown *shutdownHook
	// slash is what an extension's getCommands lists; the front end gives
	// it the prompt templates it loaded.
	slash *slashBook
	// hooks runs the session's hooks; its async hooks are stopped at close.
	hooks *hook.Hooks
	// loaded is what the session loaded, for the TUI's welcome.
	loaded loadedParts
	// lsp runs the session's language servers; nil when they are off.
	lsp *lsp.Manager
	// live is what attached clients reach of the session (goLive); nil
	// when nothing can attach. unlive takes it back.
	live   *liveServe
	unlive func()
}

// close ends the session and flushes its file, then stops the MCP servers.
func (a *app) close() {
	if a.unlive != nil {
		a.unlive()
	}
	a.session.Close()
	if a.hooks != nil {
		a.hooks.Close()
	}
	if a.extensions != nil {
		a.extensions.Close()
	}
	a.mcp.close()
	if a.lsp != nil {
		a.lsp.Close()
	}
}

// buildApp resolves the model and builds the agent session for opts.
// unattended says nobody can answer questions (print and json modes), so
// calls that need approval are refused by policy. Warnings go to stderr.
// It is the constructors below in order: the project (trust, settings),
// the conversation (a session file, resumed or new), the model, the gate,
// the built-in tools, the system prompt, then the session with its
// conversations, interceptors and tool sources (MCP servers from the
// process's host, extensions).
func buildApp(streams IOStreams, env environment, opts *Options, unattended bool) (*app, error) {
	p, err := openProject(streams, env, opts)
	if err != nil {
		return nil, err
	}
	conv, err := openConversation(streams, env, opts, p)
	if err != nil {
		return nil, err
	}
	s, exts, err := resolveModel(streams, env, opts, p, unattended)
	if err != nil {
		return nil, err
	}
	// Extensions start here, in the background, once the conversation is
	// read (their session_start may read it): what they add to the run
	// (resources_discover) is read before the skills are. resolveModel
	// has started them already when the model may be an extension's.
	if exts == nil {
		exts = startExtensions(env, opts, p.trusted, p.st, p.cwd, unattended, s.cat)
	}
	built := false
	defer func() {
		if !built {
			exts.Close()
		}
	}()
	discoverResources(streams, opts, exts, p.cwd)
	g, err := openGate(streams, env, opts, p)
	if err != nil {
		return nil, err
	}
	tb, err := buildTools(streams, env, opts, p, g, s.cat)
	if err != nil {
		return nil, err
	}
	systemSections, contextFiles, promptOpts, err := systemPrompt(streams, env, opts, p, g.skills)
	if err != nil {
		tb.procs.Close()
		return nil, err
	}
	cfg := agent.Config{
		Model:          s.model,
		Thinking:       s.thinking,
		Open:           modelOpener(s, opts),
		Models:         s.cat.Available(),
		FindModel:      s.cat.Find,
		Unattended:     unattended,
		MaxTokens:      opts.MaxTokens,
		Tools:          tb.builtin,
		Approver:       g.gate,
		SystemSections: systemSections,
		PromptOptions:  func() agent.PromptOptions { return promptOpts },
		SteeringMode:   agent.QueueMode(p.eff.SteeringMode),
		FollowUpMode:   agent.QueueMode(p.eff.FollowUpMode),
		InterruptMode:  agent.InterruptMode(p.eff.InterruptMode),
		Retry: agent.RetrySettings{
			Enabled: p.eff.Retry.Enabled, MaxRetries: p.eff.Retry.MaxRetries,
			BaseDelay: p.eff.Retry.BaseDelay(), MaxDelay: p.eff.Retry.MaxDelay(),
		},
		Compaction: agent.CompactionSettings{
			Enabled: p.eff.Compaction.Enabled, ReserveTokens: p.eff.Compaction.ReserveTokens,
			KeepRecentTokens: p.eff.Compaction.KeepRecentTokens,
		},
		Processes:   tb.procs,
		Checkpoints: openCheckpoints(streams, env, p.cwd, p.eff.Checkpoints),
	}
	// Hooks' messages for the person go out as the session's notices; the
	// session exists before any hook runs.
	var sess *agent.Session
	notify := func(text string) { sess.Notify(core.NotifyInfo, text) }
	hooks := loadHooks(streams, env, p.cwd, p.trusted.trusted(), p.eff.ShellPath)
	cfg.Interceptors = append(permissionInterceptor(g.claudePerms, p.cwd, env.lookup("HOME")),
		hookInterceptors(hooks, g.gate.Mode, notify)...)
	cfg.Interceptors = append(cfg.Interceptors, skillGrantInterceptor(g.skills, g.gate, notify))
	if err := conv.configure(&cfg, streams, env, opts, p.cwd, s); err != nil {
		return nil, err
	}
	registry := toolset.New(cfg.Tools, toolset.Options{Limit: toolsetLimit(mcpStartupLimit(streams, env, p.eff)),
		Longer: "raise mcp.startupTimeoutMs or CAIRN_MCP_STARTUP_MS"})
	// Print and json modes say on stderr what the session's notices say
	// (failed servers among them); the other modes still need the report.
	printMode := unattended && opts.Mode != "synaps"
	servers := startMCP(streams, env, opts, p.trusted, registry, printMode)
	cfg.Toolset, cfg.Approver = registry, servers.approver(g.gate)
	if err := claimFlags(opts, exts); err != nil {
		tb.procs.Close()
		exts.Close()
		servers.close()
		return nil, usageError{err}
	}
	registry.Add(exts)
	cfg.Interceptors = append(cfg.Interceptors, exts.Interceptors()...)
	// Extensions switch the session's tools by name (pi's setActiveTools).
	switched := toolset.NewSwitch(selectTools(streams, opts, cfg.Tools, registry))
	cfg.Toolset = switched
	// Plan mode hides what it refuses, and exit_plan_mode outside it; each
	// request asks the gate again, so a mode switch reaches the next one.
	cfg.Toolset = toolset.FilterDeclared(cfg.Toolset, g.gate.Declares)
	sess, err = agent.New(cfg)
	if err != nil {
		tb.procs.Close()
		exts.Close()
		servers.close()
		return nil, err
	}
	hook := &shutdownHook{}
	slash := &slashBook{exts: exts}
	exts.Attach(extensionHost{Session: sess, cat: s.cat, hook: hook, slash: slash, tools: switched})
	if opts.Pi.Name != "" {
		if err := sess.SetName(opts.Pi.Name); err != nil {
			sess.Close()
			exts.Close()
			servers.close()
			return nil, fmt.Errorf("--name: %w", err)
		}
	}
	a := &app{cwd: p.cwd, cat: s.cat, settings: p.st, gate: g.gate, session: sess, workspace: tb.workspace, model: s.model, noCredentials: s.noCredentials, mcp: servers, sandbox: tb.policy, shellEnv: tb.shellEnv, extensions: exts, shutdown: hook, hooks: hooks, slash: slash,
		loaded: loadedParts{contextFiles: contextPaths(contextFiles), skills: g.skills, hooks: hooks, agents: tb.task}, lsp: tb.lsp}
	// Other clients (an editor, another terminal, the web page) can attach
	// to the session while it runs.
	a.unlive = a.goLive(streams, env, opts, frontName(opts))
	built = true
	return a, nil
}

// toolParts are the session's built-in tools and what they run in.
type toolParts struct {
	// workspace is local until a host (an ACP editor) offers its files
	// and terminals.
	workspace *tools.Workspace
	// procs are the session's background commands, killed when it ends.
	procs        *background.Table
	builtin      []core.Tool
	task         *subagent.Tool
	policy       *sandbox.Policy
	shellEnv     []string
	lsp          *lsp.Manager
	contextFiles []sysprompt.ContextFile
}

// buildTools makes the built-in tools: pi's, background commands, the
// task tool, the sandbox and environment commands run in, language
// servers' diagnostics, the checklist, the web tools and plan mode's
// exit_plan_mode.
func buildTools(streams IOStreams, env environment, opts *Options, p project, g gateParts, cat *catalog.Catalog) (toolParts, error) {
	t := toolParts{workspace: tools.NewWorkspace(), procs: background.New(background.Options{})}
	builtin := tools.WithBackground(tools.NewIn(p.cwd, t.workspace), t.procs)
	t.task = taskTool(streams, env, p.eff, p.cwd, p.trusted)
	builtin = append(builtin, t.task)
	policy, err := sandboxPolicy(p.st.Sandbox(), opts.Sandbox, p.cwd, env.dir,
		func(w string) { fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w) })
	if err != nil {
		t.procs.Close()
		return toolParts{}, err
	}
	if policy != nil {
		// The attach sockets are out of a sandboxed command's sight as
		// well as its reach (sockets are refused or scoped already): a
		// command that attached could answer its own session's questions.
		if d := attachDir(env); d != "" {
			policy.DenyReading(d)
		}
		if env.piDir != "" {
			// pi's keys, as cairn's own, are out of a sandboxed command's reach.
			policy.DenyReading(filepath.Join(env.piDir, "auth.json"), filepath.Join(env.piDir, "models.json"))
		}
		// What the gate asks about, the sandbox keeps read-only.
		for f := range g.runFiles {
			policy.ProtectFiles(f)
		}
	}
	t.policy = policy
	setSandbox(builtin, policy)
	t.shellEnv = shellEnv(p.st, cat)
	setShellEnv(builtin, t.shellEnv)
	builtin, t.lsp = withLanguageServers(builtin, p.st, env, p.cwd, p.trusted.trusted(), p.trusted.trustedByPerson())
	// The model's checklist, which every front end shows.
	builtin = append(builtin, tools.NewTodoWrite())
	// web_fetch, and web_search when the person configured a search API.
	builtin = append(builtin, webTools(p.st, env)...)
	// Plan mode's exit_plan_mode, declared only in plan mode.
	builtin = append(builtin, g.gate.ExitPlanTool())
	t.builtin = builtin
	return t, nil
}

// systemPrompt reads the context files (an untrusted project's are told
// apart) and the system prompt's overrides, and returns the function that
// writes the prompt's sections for the tools of each request.
func systemPrompt(streams IOStreams, env environment, opts *Options, p project, skillSet skills.Set) (func([]core.Tool) []core.PromptSection, []sysprompt.ContextFile, agent.PromptOptions, error) {
	var contextFiles []sysprompt.ContextFile
	var err error
	if !opts.Pi.NoContextFiles {
		if contextFiles, err = sysprompt.LoadContextFiles(env.dir, p.cwd); err != nil {
			fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
		}
	}
	overridesDir := p.cwd
	if !p.trusted.trusted() {
		contextFiles = untrustedContext(contextFiles, p.trusted.project.Root)
		overridesDir = ""
	}
	custom, appendText, err := sysprompt.LoadOverrides(env.dir, overridesDir)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	if opts.SystemPrompt != "" {
		custom = opts.SystemPrompt
	}
	appendText, err = appendSystemPrompt(appendText, opts.Pi.AppendSystemPrompt)
	if err != nil {
		return nil, nil, agent.PromptOptions{}, err
	}
	cwd := p.cwd
	return func(ts []core.Tool) []core.PromptSection {
		specs := make([]core.ToolSpec, len(ts))
		for i, t := range ts {
			specs[i] = t.Spec()
		}
		return sysprompt.Sections(sysprompt.Options{Tools: specs, Cwd: cwd, ContextFiles: contextFiles, Custom: custom, Append: appendText,
			Skills: skillSet.Prompt()})
	}, contextFiles, promptOptions(cwd, custom, appendText, contextFiles, skillSet), nil
}

// modelOpener connects to a model's provider with its credentials; the
// first model takes --base-url and the wire API the command line chose.
func modelOpener(s *setup, opts *Options) func(core.Model) (agent.Connection, error) {
	first, baseURL, wireAPI := s.model, opts.BaseURL, opts.wireAPI
	return func(m core.Model) (agent.Connection, error) {
		if m.Provider == first.Provider && m.ID == first.ID {
			if baseURL != "" {
				m.BaseURL = baseURL
			}
			if wireAPI != "" {
				m.API = wireAPI
			}
		}
		creds, err := s.cat.Credentials(m)
		if err != nil {
			return agent.Connection{}, err
		}
		p, err := s.cat.Open(m, provider.Options{})
		if err != nil {
			return agent.Connection{}, err
		}
		return agent.Connection{Provider: p, APIKey: creds.APIKey, Headers: creds.Headers}, nil
	}
}

// selectTools is pi's --tools and the like: a view of the live registry,
// so MCP tools that arrive later are chosen by the same names; without
// them, the registry itself.
func selectTools(streams IOStreams, opts *Options, builtin []core.Tool, registry *toolset.Registry) toolset.Set {
	sel := opts.Pi.Tools
	if !sel.Narrows() {
		return registry
	}
	builtinNames := map[string]bool{}
	for _, t := range builtin {
		builtinNames[t.Spec().Name] = true
	}
	for _, name := range sel.Unknown(builtinNames) {
		fmt.Fprintf(streams.Err, "cairn: warning: no tool is named %q (--tools, --exclude-tools)\n", name)
	}
	return toolset.Filter(registry, func(t core.Tool) bool {
		name := t.Spec().Name
		return sel.Keeps(name, builtinNames[name])
	})
}

// frontName names the front end that owns a session built for opts.
func frontName(opts *Options) string {
	switch {
	case opts.front != "":
		return opts.front
	case opts.Mode != "" && opts.Mode != "text":
		return opts.Mode
	case opts.extMode == "tui":
		return "tui"
	}
	return "print"
}

// loadSettings reads the global settings and, when the project is
// trusted, the project's; problems are warnings on stderr.
func loadSettings(streams IOStreams, env environment, trusted projectTrust, cwd string) *settings.Store {
	projectSettings := ""
	if trusted.trusted() {
		projectSettings = settings.ProjectFile(cwd)
	}
	st, err := settings.Load(settings.GlobalFile(env.dir), projectSettings)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	if env.piDir != "" {
		if err := st.Underlay(pihome.SettingsFile(env.piDir)); err != nil {
			fmt.Fprintf(streams.Err, "cairn: warning: pi's %v\n", err)
		}
	}
	return st
}

// loadCatalogQuiet reads the catalog without reporting problems, which the
// main load reports.
func loadCatalogQuiet(env environment) *catalog.Catalog {
	cat, _ := catalog.Load(catalog.Options{Dir: env.dir, PiDir: env.piDir, Getenv: env.getenv})
	return cat
}

// rpcQuestionTimeout is how long a question (an approval, or why a call
// was denied) waits for a pi host's answer in --mode rpc; unanswered, the
// call is denied. Every extension_ui_request says it in its timeout field.
const rpcQuestionTimeout = 60 * time.Second

// startingApprovalMode is the approval mode a run starts in: --approval,
// else the approvalMode a settings file sets, else ModeDefault; except that
// --mode rpc, like pi, starts in ModeAuto (tools run without asking,
// edits of protected files still ask) unless the flag or a settings file
// names a mode. A host opts in to approvals with --approval default or the
// set_approval_mode command.
func startingApprovalMode(opts *Options, st *settings.Store) (approval.Mode, error) {
	if opts.Approval != "" {
		return approval.ParseMode(opts.Approval)
	}
	if _, set := st.Get("approvalMode"); !set && opts.Mode == "rpc" {
		return approval.ModeAuto, nil
	}
	return st.Effective().ApprovalMode, nil
}

// appendSystemPrompt adds --append-system-prompt's values to the text
// appended to the system prompt, each on its own paragraph: a value naming
// a file adds the file's contents, any other value adds itself, as in pi.
func appendSystemPrompt(text string, values []string) (string, error) {
	for _, v := range values {
		if info, err := os.Stat(v); err == nil && info.Mode().IsRegular() {
			b, err := regfile.Read(v, regfile.MaxText)
			if err != nil {
				return "", fmt.Errorf("--append-system-prompt: %w", err)
			}
			v = string(b)
		}
		if text != "" {
			text += "\n\n"
		}
		text += v
	}
	return text, nil
}

// recordStart begins a new session by recording its model and thinking
// level, as pi does.
func recordStart(st agent.Store, m core.Model, level core.ThinkingLevel) error {
	if err := st.AppendModelChange(m.Provider, m.ID); err != nil {
		return err
	}
	return st.AppendThinkingLevel(level)
}
