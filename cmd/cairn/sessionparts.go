package main

// The first parts a session is built from (buildApp, wire.go): the project
// it works in and its trust, the conversation it writes, and the approval
// gate with the rules that hold there.

import (
	"fmt"
	"os"
	"time"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/ccperm"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/skills"
)

// project is the directory a session works in, whether its project is
// trusted, and the settings that hold there.
type project struct {
	cwd     string
	trusted projectTrust
	st      *settings.Store
	eff     settings.Settings
}

// openProject finds the directory, asks or reads the project's trust and
// loads the settings (the project's only when trusted; writing them keeps
// the trust).
func openProject(streams IOStreams, env environment, opts *Options) (project, error) {
	cwd := opts.dir
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return project{}, fmt.Errorf("find the working directory: %w", err)
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
	return project{cwd: cwd, trusted: trusted, st: st, eff: st.Effective()}, nil
}

// conversation is the session file a session writes (nil: kept in
// memory), whether it was resumed, and what it held.
type conversation struct {
	file    *session.File
	resumed bool
	history session.Context
}

// openConversation opens the session file opts names (or a new one). A
// resumed one gives its model and thinking level to opts unless the
// command line set them; then the settings' defaults fill what is left.
func openConversation(streams IOStreams, env environment, opts *Options, p project) (conversation, error) {
	file, resumed, err := openSessionFile(env, opts, p.cwd)
	if err != nil {
		return conversation{}, err
	}
	c := conversation{file: file, resumed: resumed}
	if resumed {
		for _, w := range file.Warnings() {
			fmt.Fprintf(streams.Err, "cairn: warning: session %s: %v\n", file.FilePath(), w)
		}
		c.history = recoverSubagents(streams, file, file.Context())
		if opts.Provider == "" && opts.Model == "" && c.history.Model != nil {
			if m, err := loadCatalogQuiet(env).Find(c.history.Model.Provider, c.history.Model.ModelID); err == nil {
				opts.Provider, opts.Model = m.Provider, m.ID
			} else if !opts.NoExtensions {
				// Perhaps an extension's provider (resolveModel).
				opts.Provider, opts.Model, opts.sessionModel = c.history.Model.Provider, c.history.Model.ModelID, true
			} else {
				fmt.Fprintf(streams.Err, "cairn: warning: the session's model %s/%s is not available; using the default\n", c.history.Model.Provider, c.history.Model.ModelID)
			}
		}
		if opts.Thinking == "" && c.history.ThinkingLevel != "" {
			opts.Thinking = string(c.history.ThinkingLevel)
		}
	}
	useDefaultModel(opts, p)
	if opts.Thinking == "" && p.eff.DefaultThinkingLevel != "" {
		opts.Thinking = string(p.eff.DefaultThinkingLevel)
	}
	return c, nil
}

// configure gives cfg the session's conversations: --no-session's in
// memory, begun as a file would be (so get_entries and get_tree show what
// pi's show), else the file's, with its history when it was resumed and
// its first entries when it is new.
func (c conversation) configure(cfg *agent.Config, streams IOStreams, env environment, opts *Options, cwd string, s *setup) error {
	if c.file == nil {
		convs := agent.NewMemoryConversations(nil)
		if err := recordStart(convs.Store(), s.model, s.thinking); err != nil {
			return err
		}
		cfg.Conversations = convs
		return nil
	}
	convs := agent.NewFileConversations(sessionStore(env, opts), cwd, c.file)
	convs.Warn = func(path string, w session.Warning) {
		fmt.Fprintf(streams.Err, "cairn: warning: session %s: %v\n", path, w)
	}
	cfg.Conversations = convs
	cfg.History, cfg.EntryIDs = c.history.Messages, c.history.EntryIDs
	if !c.resumed {
		return recordStart(c.file, s.model, s.thinking)
	}
	return nil
}

// gateParts is the approval gate and what decided its rules.
type gateParts struct {
	gate        *approval.Gate
	skills      skills.Set
	runFiles    map[string]string
	claudePerms ccperm.Permissions
}

// openGate opens the approval gate in the starting mode with the rules
// that hold here: an untrusted project may make approvals stricter, never
// looser, and its rules file is neither read nor written; cairn's own
// files, pi's home and the files the project's control files run are asked
// about in every mode but yolo.
func openGate(streams IOStreams, env environment, opts *Options, p project) (gateParts, error) {
	mode, err := startingApprovalMode(opts, p.st)
	if err != nil {
		return gateParts{}, err
	}
	skillSet := skillsFor(env, opts, p.cwd, p.trusted)
	for _, w := range skillWarnings(skillSet) {
		fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w)
	}
	rulesFile := approval.ProjectRulesFile(p.cwd)
	if !p.trusted.trusted() {
		if m := projectApprovalMode(p.cwd); m != "" {
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
	runFiles := p.trusted.runFiles(env.dir)
	claudePerms := claudePermissions(streams.Err, env)
	trusted, cwd := p.trusted, p.cwd
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
		AllowWrite: p.st.AllowWrite(),
		SkillDirs:  skillSet.Dirs(),
		Saved:      func() { trusted.keep(streams, cwd, rulesFile) },
		// What the person allows always in one session of the project
		// holds at once in the process's others (an editor's threads).
		Peers: env.host.Rules(),
	})
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	return gateParts{gate: gate, skills: skillSet, runFiles: runFiles, claudePerms: claudePerms}, nil
}
