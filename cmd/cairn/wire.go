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
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
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
func buildApp(streams IOStreams, env environment, opts *Options, unattended bool) (*app, error) {
	cwd := opts.dir
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("find the working directory: %w", err)
		}
		cwd = wd
	}
	trusted := projectTrustFor(streams, env, opts, cwd, nil)
	st := loadSettings(streams, env, trusted, cwd)
	st.OnWrite(func(scope settings.Scope) {
		if scope == settings.ScopeProject {
			trusted.keep(streams, cwd, settings.ProjectFile(cwd))
		}
	})
	eff := st.Effective()
	file, resumed, err := openSessionFile(env, opts, cwd)
	if err != nil {
		return nil, err
	}
	var history session.Context
	if resumed {
		for _, w := range file.Warnings() {
			fmt.Fprintf(streams.Err, "cairn: warning: session %s: %v\n", file.FilePath(), w)
		}
		history = recoverSubagents(streams, file, file.Context())
		if opts.Provider == "" && opts.Model == "" && history.Model != nil {
			if m, err := loadCatalogQuiet(env).Find(history.Model.Provider, history.Model.ModelID); err == nil {
				opts.Provider, opts.Model = m.Provider, m.ID
			} else {
				fmt.Fprintf(streams.Err, "cairn: warning: the session's model %s/%s is not available; using the default\n", history.Model.Provider, history.Model.ModelID)
			}
		}
		if opts.Thinking == "" && history.ThinkingLevel != "" {
			opts.Thinking = string(history.ThinkingLevel)
		}
	}
	if opts.Provider == "" && opts.Model == "" && eff.DefaultModel != "" {
		opts.Provider, opts.Model = eff.DefaultProvider, eff.DefaultModel
	}
	if opts.Thinking == "" && eff.DefaultThinkingLevel != "" {
		opts.Thinking = string(eff.DefaultThinkingLevel)
	}
	s, err := resolve(streams, env, opts)
	if err != nil {
		return nil, err
	}
	mode, err := startingApprovalMode(opts, st)
	if err != nil {
		return nil, err
	}
	skillSet := skillsFor(env, opts, cwd, trusted)
	for _, w := range skillWarnings(skillSet) {
		fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w)
	}
	rulesFile := approval.ProjectRulesFile(cwd)
	if !trusted.trusted() {
		// An untrusted project may make approvals stricter, never looser,
		// and its rules file is neither read nor written.
		if m := projectApprovalMode(cwd); m != "" {
			mode = stricterMode(mode, m)
		}
		rulesFile = ""
	}
	var questionTimeout time.Duration
	if opts.Mode == "rpc" {
		// A pi host may never answer a question (pi's own RpcClient has no
		// dialog handling): every question times out and is denied.
		questionTimeout = rpcQuestionTimeout
	}
	runFiles := trusted.runFiles(env.dir)
	claudePerms := claudePermissions(streams.Err, env)
	gate, err := approval.Open(approval.Config{
		Mode: mode, Dir: cwd, RulesFile: rulesFile, Timeout: questionTimeout,
		SessionRules: claudePerms.Allow,
		// Writing cairn's own files, and reading them (its keys), is asked
		// about in every mode but yolo; so is pi's home, whose models.json
		// and auth.json hold the same keys.
		ProtectedDirs: protectedDirs(env),
		// The files the project's control files run (hook scripts, MCP
		// servers', extensions') are asked about like the control files.
		RunFiles:   runFiles,
		AllowWrite: st.AllowWrite(),
		SkillDirs:  skillSet.Dirs(),
		Saved:      func() { trusted.keep(streams, cwd, rulesFile) },
	})
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	// The workspace is local until a host (an ACP editor) offers its files
	// and terminals.
	workspace := tools.NewWorkspace()
	// Background commands belong to the session, which kills them when it
	// ends (agent.Config.Processes).
	procs := background.New(background.Options{})
	builtin := tools.WithBackground(tools.NewIn(cwd, workspace), procs)
	task := taskTool(streams, env, eff, cwd, trusted)
	builtin = append(builtin, task)
	policy, err := sandboxPolicy(st.Sandbox(), opts.Sandbox, cwd, env.dir,
		func(w string) { fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w) })
	if err != nil {
		procs.Close()
		return nil, err
	}
	if policy != nil {
		// The attach sockets are out of a sandboxed command's sight as
		// well as its reach (sockets are refused or scoped already): a
		// command that attached could answer its own session's questions.
		if d := attachDir(env); d != "" {
			policy.DenyReading(d)
		}
	}
	if policy != nil && env.piDir != "" {
		// pi's keys, as cairn's own, are out of a sandboxed command's reach.
		policy.DenyReading(filepath.Join(env.piDir, "auth.json"), filepath.Join(env.piDir, "models.json"))
	}
	if policy != nil {
		// What the gate asks about, the sandbox keeps read-only.
		for f := range runFiles {
			policy.ProtectFiles(f)
		}
	}
	setSandbox(builtin, policy)
	cmdEnv := shellEnv(st, s.cat)
	setShellEnv(builtin, cmdEnv)
	builtin, languageServers := withLanguageServers(builtin, st, env, cwd, trusted.trusted(), trusted.trustedByPerson())
	// The model's checklist, which every front end shows.
	builtin = append(builtin, tools.NewTodoWrite())
	// web_fetch, and web_search when the person configured a search API.
	builtin = append(builtin, webTools(st, env)...)
	// Plan mode's exit_plan_mode, declared only in plan mode (see below).
	builtin = append(builtin, gate.ExitPlanTool())
	var contextFiles []sysprompt.ContextFile
	if !opts.Pi.NoContextFiles {
		if contextFiles, err = sysprompt.LoadContextFiles(env.dir, cwd); err != nil {
			fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
		}
	}
	overridesDir := cwd
	if !trusted.trusted() {
		contextFiles = untrustedContext(contextFiles, trusted.project.Root)
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
		return nil, err
	}
	systemSections := func(ts []core.Tool) []core.PromptSection {
		specs := make([]core.ToolSpec, len(ts))
		for i, t := range ts {
			specs[i] = t.Spec()
		}
		return sysprompt.Sections(sysprompt.Options{Tools: specs, Cwd: cwd, ContextFiles: contextFiles, Custom: custom, Append: appendText,
			Skills: skillSet.Prompt()})
	}
	first, baseURL := s.model, opts.BaseURL
	open := func(m core.Model) (agent.Connection, error) {
		if m.Provider == first.Provider && m.ID == first.ID {
			if baseURL != "" {
				m.BaseURL = baseURL
			}
			if opts.wireAPI != "" {
				m.API = opts.wireAPI
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
	cfg := agent.Config{
		Model:          s.model,
		Thinking:       s.thinking,
		Open:           open,
		Models:         s.cat.Available(),
		FindModel:      s.cat.Find,
		Unattended:     unattended,
		MaxTokens:      opts.MaxTokens,
		Tools:          builtin,
		Approver:       gate,
		SystemSections: systemSections,
		SteeringMode:   agent.QueueMode(eff.SteeringMode),
		FollowUpMode:   agent.QueueMode(eff.FollowUpMode),
		InterruptMode:  agent.InterruptMode(eff.InterruptMode),
		Retry: agent.RetrySettings{
			Enabled: eff.Retry.Enabled, MaxRetries: eff.Retry.MaxRetries,
			BaseDelay: eff.Retry.BaseDelay(), MaxDelay: eff.Retry.MaxDelay(),
		},
		Compaction: agent.CompactionSettings{
			Enabled: eff.Compaction.Enabled, ReserveTokens: eff.Compaction.ReserveTokens,
			KeepRecentTokens: eff.Compaction.KeepRecentTokens,
		},
		Processes:   procs,
		Checkpoints: openCheckpoints(streams, env, cwd, eff.Checkpoints),
	}
	// Hooks' messages for the person go out as the session's notices; the
	// session exists before any hook runs.
	var sess *agent.Session
	hooks := loadHooks(streams, env, cwd, trusted.trusted(), eff.ShellPath)
	cfg.Interceptors = append(permissionInterceptor(claudePerms, cwd, env.lookup("HOME")),
		hookInterceptors(hooks, gate.Mode, func(text string) { sess.Notify(core.NotifyInfo, text) })...)
	cfg.Interceptors = append(cfg.Interceptors, skillGrantInterceptor(skillSet, gate,
		func(text string) { sess.Notify(core.NotifyInfo, text) }))
	if file == nil {
		// --no-session: kept in memory, and begun as a file would be, so
		// get_entries and get_tree show what pi's show.
		convs := agent.NewMemoryConversations(nil)
		if err := recordStart(convs.Store(), s.model, s.thinking); err != nil {
			return nil, err
		}
		cfg.Conversations = convs
	} else {
		convs := agent.NewFileConversations(sessionStore(env, opts), cwd, file)
		convs.Warn = func(path string, w session.Warning) {
			fmt.Fprintf(streams.Err, "cairn: warning: session %s: %v\n", path, w)
		}
		cfg.Conversations = convs
		cfg.History, cfg.EntryIDs = history.Messages, history.EntryIDs
		if !resumed {
			if err := recordStart(file, s.model, s.thinking); err != nil {
				return nil, err
			}
		}
	}
	registry := toolset.New(cfg.Tools, toolset.Options{Limit: toolsetLimit(mcpStartupLimit(streams, env, eff)),
		Longer: "raise mcp.startupTimeoutMs or CAIRN_MCP_STARTUP_MS"})
	// Print and json modes say on stderr what the session's notices say
	// (failed servers among them); the other modes still need the report.
	printMode := unattended && opts.Mode != "synaps"
	servers := startMCP(streams, env, opts, trusted, registry, printMode)
	cfg.Toolset, cfg.Approver = registry, servers.approver(gate)
	exts := startExtensions(env, opts, trusted, st, cwd, unattended)
	registry.Add(exts)
	cfg.Interceptors = append(cfg.Interceptors, exts.Interceptors()...)
	if sel := opts.Pi.Tools; sel.Narrows() {
		// pi's --tools and the like: a view of the live registry, so MCP
		// tools that arrive later are chosen by the same names.
		builtinNames := map[string]bool{}
		for _, t := range cfg.Tools {
			builtinNames[t.Spec().Name] = true
		}
		for _, name := range sel.Unknown(builtinNames) {
			fmt.Fprintf(streams.Err, "cairn: warning: no tool is named %q (--tools, --exclude-tools)\n", name)
		}
		cfg.Toolset = toolset.Filter(registry, func(t core.Tool) bool {
			name := t.Spec().Name
			return sel.Keeps(name, builtinNames[name])
		})
	}
	// Plan mode hides what it refuses, and exit_plan_mode outside it; each
	// request asks the gate again, so a mode switch reaches the next one.
	cfg.Toolset = toolset.FilterDeclared(cfg.Toolset, gate.Declares)
	sess, err = agent.New(cfg)
	if err != nil {
		procs.Close()
		exts.Close()
		servers.close()
		return nil, err
	}
	exts.Attach(extensionHost{sess})
	if opts.Pi.Name != "" {
		if err := sess.SetName(opts.Pi.Name); err != nil {
			sess.Close()
			exts.Close()
			servers.close()
			return nil, fmt.Errorf("--name: %w", err)
		}
	}
	a := &app{cwd: cwd, cat: s.cat, settings: st, gate: gate, session: sess, workspace: workspace, model: s.model, noCredentials: s.noCredentials, mcp: servers, sandbox: policy, shellEnv: cmdEnv, extensions: exts, hooks: hooks,
		loaded: loadedParts{contextFiles: contextPaths(contextFiles), skills: skillSet, hooks: hooks, agents: task}, lsp: languageServers}
	// Other clients (an editor, another terminal, the web page) can attach
	// to the session while it runs.
	a.unlive = a.goLive(streams, env, opts, frontName(opts))
	return a, nil
}

// frontName names the front end that owns a session built for opts.
func frontName(opts *Options) string {
	switch {
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
