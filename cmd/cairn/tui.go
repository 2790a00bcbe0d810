//go:build !headless

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/tui"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// tuiMode runs the full-screen interface until the person quits. Warnings
// from start-up are shown inside it rather than lost behind the alternate
// screen.
func tuiMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	var warn bytes.Buffer
	quiet := streams
	quiet.Err = &warn
	opts.allowNoCredentials = true
	resume := opts.Resume
	opts.Resume = false

	var preview *tui.Preview
	if cwd, err := os.Getwd(); err == nil {
		// Asked here, on the plain terminal, before the interface takes
		// the screen; what the project may do depends on the answer.
		var ask *IOStreams
		if streams.InIsTerminal && streams.ErrIsTerminal && opts.demoDir == "" {
			ask = &streams
		}
		projectTrustFor(quiet, env, opts, cwd, ask)
		// A large session shows its end while the whole is read.
		preview = resumePreview(streams, env, opts, cwd)
	}
	defer preview.Close()
	opts.extMode = "tui"
	a, err := buildApp(quiet, env, opts, false)
	if err != nil {
		preview.Close()
		streams.Err.Write(warn.Bytes())
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return buildExit(err)
	}
	defer a.close()

	eff := a.settings.Effective()
	custom, themeErrs := loadUserThemes(env, opts)
	keys, keyErrs := keymap.Load(filepath.Join(env.dir, "keybindings.json"))
	templates, tmplErrs := loadPrompts(env, opts, a.cwd, *opts.trust)
	a.slash.setTemplates(templates)
	var notices []string
	if opts.demoDir != "" {
		notices = demoIntro(opts.demoDir)
	}
	if n := launcherMismatch(env); n != "" {
		notices = append(notices, n)
	}
	notices = append(notices, splitLines(warn.String())...)
	for _, errs := range [][]error{themeErrs, keyErrs, tmplErrs} {
		for _, e := range errs {
			notices = append(notices, e.Error())
		}
	}
	theme, err := settingsTheme(themeName(eff.Theme, opts), custom)
	if err != nil {
		notices = append(notices, err.Error())
	}
	// An extension's ctx.shutdown quits as /quit does.
	shutdown := make(chan struct{})
	a.shutdown.set(sync.OnceFunc(func() { close(shutdown) }))
	o := tui.Options{
		Shutdown:      shutdown,
		Session:       a.session,
		Approvals:     a.gate,
		Models:        a.cat.Available,
		Theme:         theme,
		Themes:        custom,
		SaveTheme:     func(name string) error { return a.settings.Set("theme", name, settings.ScopeGlobal) },
		Alert:         tui.ChooseAlert(eff.Notifications, env.getenv),
		ColorProfile:  tui.DetectColorProfile(streams.Out, env.getenv),
		Scrollback:    streams.Out,
		ScrollbackAll: eff.ScrollbackOnQuit == "all",
		NoMouse:       !eff.MouseCapture,
		Keys:          keys,
		Cwd:           a.cwd,
		// buildApp decided trust; nothing of an untrusted project runs
		// in the interface, git included.
		ProjectTrusted:     opts.trust != nil && opts.trust.trusted(),
		Dir:                env.dir,
		Shell:              eff.ShellPath,
		Sandbox:            a.sandbox,
		ShellEnv:           a.shellEnv,
		Templates:          templates,
		MCP:                a.mcp.statuses,
		MCPServers:         a.mcp.servers(),
		ExtensionCommands:  a.extensions.Commands,
		RenderExtension:    a.extensions.Render,
		ExtensionDraws:     a.extensions.Draws,
		ExtensionsStarting: func() bool { return len(a.extensions.Starting()) > 0 },
		Notices:            notices,
		Version:            versionString(),
		Loaded: func() []tui.LoadedGroup {
			var out []tui.LoadedGroup
			for _, k := range a.loadedList(env.getenv("HOME")) {
				out = append(out, tui.LoadedGroup{Label: k.label, Items: k.items})
			}
			return out
		},
		OpenResume: resume,
		Login:      tuiLogin(env, a.cat),
	}
	if a.noCredentials {
		o.FirstRun = firstRunHelp(a.cat, env)
	}
	// pi's registerShortcut: keys that clash with cairn's are refused,
	// with a notice once the extensions have started.
	o.ExtensionShortcuts, o.RunExtensionShortcut = a.extensions.Shortcuts, a.extensions.RunShortcut
	go warnShortcutClashes(ctx, a, keys)
	// Other terminals attach to this session (cairn attach) with a TUI of
	// their own, drawn here: the same options, on their screen.
	remote := o
	a.offerTUI(func(ctx context.Context, t remoteTerminal) error { return runRemoteTUI(ctx, remote, t) })
	share, stopShare := sharePage(ctx, env, quiet)
	defer stopShare()
	o.Share = share
	if f, ok := streams.Out.(*os.File); ok && isTerminal(f) {
		o.Terminal = f // cairn draws its frames there itself
		o.Preview = preview
	}
	if err := tui.Run(ctx, o, tea.WithInput(streams.In), tea.WithOutput(streams.Out)); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	if file := a.session.Conversation().File; file != "" {
		fmt.Fprintf(streams.Err, "Session saved: %s\nContinue it with: %s\n", file, continueCommand(env, opts, a.model.Provider))
	}
	return exitOK
}

// firstRunHelp says where cairn looks for credentials and how to use a
// local server.
func firstRunHelp(cat *catalog.Catalog, env environment) *tui.FirstRun {
	return &tui.FirstRun{Lines: []string{
		"No key yet? cairn --demo shows cairn at work on scripted answers, offline.",
		"",
		"Set an API key in the environment and start cairn again, for example:",
		"    export ANTHROPIC_API_KEY=sk-ant-…",
		"cairn looks for: " + strings.Join(cat.KeyEnvs(), ", ") + ".",
		"",
		"Or run a model on this machine (Ollama, llama.cpp, LM Studio, vLLM) and describe it in",
		"    " + shortHome(cat.ConfigFile(), env.getenv("HOME")),
		`    {"providers": {"ollama": {"baseUrl": "http://localhost:11434/v1", "api": "openai-completions",`,
		`      "apiKey": "ollama", "models": [{"id": "qwen2.5-coder:14b"}]}}}`,
		"then start cairn with --model ollama/qwen2.5-coder:14b (llama.cpp's llama-server listens on",
		"http://localhost:8080/v1). See docs/configuration.md in cairn's repository.",
	}}
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "cairn: ")); l != "" {
			out = append(out, l)
		}
	}
	return out
}
