package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/child"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/piext"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/toolset"
	"github.com/cairn-dev/cairn/rpcmode/pi"
)

// extensionConfigs lists the extensions a session runs, in load order:
// the person's (~/.cairn/extensions), the project's (.cairn/extensions)
// only once the project is trusted, then the "extensions" setting (whose
// project layer is read only when trusted, like every project setting),
// then each --extension that is a program; last, the pi extension host
// with pi's extensions, found as pi finds them (piExtensionEntries).
func extensionConfigs(env environment, opts *Options, trusted projectTrust, st *settings.Store, cwd string) []extension.Config {
	configs := extension.Discover(extension.UserDir(env.dir), extension.ScopeUser)
	if trusted.trusted() {
		root := trusted.project.Root
		if root == "" {
			root = cwd
		}
		configs = append(configs, extension.Discover(extension.ProjectDir(root), extension.ScopeProject)...)
	}
	if raw, ok := st.Get("extensions"); ok {
		configs = append(configs, extension.FromSettings(raw, cwd)...)
	}
	var pis []piext.Entry
	for _, path := range opts.Extensions {
		if entries, ok := piext.FromPath(path, cwd); ok {
			pis = append(pis, entries...)
			continue
		}
		configs = append(configs, extension.FromPath(path, cwd))
	}
	pis = append(piExtensionEntries(env, trusted, cwd), pis...)
	pis = append(pis, piPackageEntries(env, st)...)
	limit, err := piLoadLimit(env)
	if err != nil && len(pis) > 0 {
		return append(configs, extension.Config{Name: piext.Name, Err: err})
	}
	return append(configs, piext.Host(pis, piext.Options{CacheDir: piHostCacheDir(env), Cwd: cwd, Cairn: piCLI(env), CairnDir: env.dir, LoadLimit: limit})...)
}

// piLoadLimit is $CAIRN_PI_START_MS, how long each pi extension may take
// to load, in milliseconds; 0 (the host's own limit) when it is not set.
func piLoadLimit(env environment) (time.Duration, error) {
	v := env.getenv("CAIRN_PI_START_MS")
	if v == "" {
		return 0, nil
	}
	ms, err := strconv.Atoi(v)
	if err != nil || ms <= 0 {
		return 0, fmt.Errorf("CAIRN_PI_START_MS=%q is not a number of milliseconds: give one (60000 waits a minute for each pi extension to load) or unset it", v)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// piCLI is what a pi extension that runs "the agent it runs in" again (pi's
// subagent example) runs: $CAIRN_PI_CLI when set (pi itself, say), else
// cairn, whose headless build is enough for what it runs.
func piCLI(env environment) string {
	if p := env.getenv("CAIRN_PI_CLI"); p != "" {
		return p
	}
	self, _ := child.Executable()
	return self
}

// piPackageEntries are the extensions of the "packages" setting, pi's
// packages: cairn's (its settings; a relative local path is relative to
// ~/.cairn) and then pi's own (~/.pi/agent/settings.json), each looked for
// where `cairn install` and `pi install` put them (~/.cairn/npm, then
// ~/.pi/agent/npm and pi's git checkouts).
func piPackageEntries(env environment, st *settings.Store) []piext.Entry {
	roots := []string{env.dir, env.piDir}
	home := env.getenv("HOME")
	var out []piext.Entry
	if raw, ok := st.Get("packages"); ok {
		out = append(out, piext.Packages(raw, roots, env.dir, home)...)
	}
	if env.piDir != "" {
		raw, err := piext.ReadPiPackages(env.piDir)
		if err != nil {
			out = append(out, piext.Entry{Path: pihome.SettingsFile(env.piDir), Source: "package", Err: err})
		}
		out = append(out, piext.Packages(raw, roots, env.piDir, home)...)
	}
	return out
}

// piExtensionEntries are pi's extensions a session here runs, in pi's
// order: the project's .pi/extensions (of the working directory, as pi
// reads it) only once the project is trusted, then pi's agent directory's
// extensions (~/.pi/agent/extensions, or PI_CODING_AGENT_DIR's).
func piExtensionEntries(env environment, trusted projectTrust, cwd string) []piext.Entry {
	var out []piext.Entry
	if trusted.trusted() {
		out = append(out, piext.Discover(filepath.Join(cwd, ".pi", "extensions"), "project")...)
	}
	if env.piDir != "" {
		out = append(out, piext.Discover(filepath.Join(env.piDir, "extensions"), "user")...)
	}
	return out
}

// piHostCacheDir is where the pi extension host is written: cairn's
// cache, beside nothing a person edits.
func piHostCacheDir(env environment) string { return filepath.Join(env.dir, "cache") }

// extensionMode names the front end for extensions, and lists the UI
// methods it renders: the rest fail at once with "no UI in this mode".
func extensionMode(opts *Options, unattended bool) (string, []core.UIMethod) {
	switch {
	case opts.extMode != "":
		return opts.extMode, extensionUI(opts.extMode)
	case unattended && opts.Mode == "json":
		return "json", nil
	case unattended && opts.Mode == "synaps":
		return "synaps", nil
	case unattended:
		return "print", nil
	}
	return opts.Mode, extensionUI(opts.Mode)
}

// extensionUI is what each front end renders of the extension UI.
func extensionUI(mode string) []core.UIMethod {
	switch mode {
	case "tui":
		// The TUI draws each inline, an extension's footer, header and
		// renderers (core.ChromeUIMethods), and its components (ui.custom).
		return append(append(slices.Clone(core.UIMethods), core.ChromeUIMethods...), core.UICustom)
	case "rpc":
		// rpc forwards each as pi's extension_ui_request; pi's rpc mode
		// ignores the chrome's calls and shows no components, and so does
		// cairn's.
		return core.UIMethods
	case "acp":
		// Dialogs through session/request_permission (select, confirm);
		// notices as agent messages.
		return []core.UIMethod{core.UISelect, core.UIConfirm, core.UINotify}
	}
	return nil
}

// startExtensions starts the session's extensions (unless --no-extensions)
// without waiting for them: the registry's bounded wait does, before the
// first request. The model providers they register go into cat.
func startExtensions(env environment, opts *Options, trusted projectTrust, st *settings.Store, cwd string, unattended bool, cat *catalog.Catalog) *extension.Manager {
	if opts.NoExtensions {
		return extension.New(nil, extension.Options{})
	}
	mode, ui := extensionMode(opts, unattended)
	var dialogTimeout = opts.extDialogTimeout
	if mode == "rpc" {
		dialogTimeout = rpcQuestionTimeout
	}
	m := extension.New(extensionConfigs(env, opts, trusted, st, cwd), extension.Options{
		Cwd: cwd, Mode: mode, UI: ui, CairnVersion: versionString(), Getenv: env.getenv, DialogTimeout: dialogTimeout,
		LogDir: extensionLogDir(env), Flags: opts.ExtFlags, Providers: cat,
	})
	m.Start()
	return m
}

// extensionLogDir is where extensions' stderr is kept: beside the MCP
// servers' logs, never inside an extensions directory (where it would be
// taken for an extension).
func extensionLogDir(env environment) string { return filepath.Join(env.dir, "logs", "extensions") }

// extensionHost is a session as extensions use it; cat is where they
// find models (nil: only the session's own), hook what ends the front end.
type extensionHost struct {
	*agent.Session
	cat  *catalog.Catalog
	hook *shutdownHook
	// slash is what getCommands lists (extsession.go).
	slash *slashBook
	// tools is what get_tools lists and set_tools switches (exttools.go).
	tools *toolset.Switch
}

// shutdownWait bounds how long an extension's shutdown waits for the
// agent to finish its work; then the session ends anyway, as the person's
// own quit would end it.
const shutdownWait = 30 * time.Minute

// shutdownHook ends the front end for an extension (pi's ctx.shutdown).
type shutdownHook struct {
	mu    sync.Mutex
	stop  func()
	asked bool
}

// set makes stop what ends the front end.
func (h *shutdownHook) set(stop func()) {
	h.mu.Lock()
	h.stop = stop
	h.mu.Unlock()
}

// RequestShutdown ends the session once the agent is idle (pi's
// ctx.shutdown, "deferred until the agent is idle"); it returns at once.
func (h extensionHost) RequestShutdown() error {
	h.hook.mu.Lock()
	defer h.hook.mu.Unlock()
	if h.hook.stop == nil {
		return errors.New("this front end cannot be ended by an extension; quit it as usual")
	}
	if h.hook.asked {
		return nil
	}
	h.hook.asked = true
	stop := h.hook.stop
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
		defer cancel()
		_ = h.Wait(ctx)
		stop()
	}()
	return nil
}

// SendUserMessage sends text as a prompt when the agent is idle, else
// queues it as deliverAs says (a follow-up by default, as a command's
// message arrives while its own input is being handled).
func (h extensionHost) SendUserMessage(text, deliverAs string) error {
	// pi's sendUserMessage is its prompt with deliverAs as the streaming
	// behaviour: an idle agent starts at once whatever deliverAs says.
	b := agent.BehaviorFollowUp
	if deliverAs == "steer" {
		b = agent.BehaviorSteer
	}
	if err := h.Prompt(text, nil, b); err != nil {
		return fmt.Errorf("send the message: %w", err)
	}
	return nil
}

// extensionListWait bounds how long get_commands waits for extensions
// still starting; each start is bounded by its own, shorter, limit.
const extensionListWait = 15 * time.Second

// extensionSlashCommands lists the extensions' commands for get_commands,
// as pi lists an extension's: source "extension". Extensions start beside
// the session (a slow one never holds up other commands), so this waits
// for the ones still starting, as pi lists them from its first answer.
func extensionSlashCommands(a *app) []pi.SlashCommand {
	ctx, cancel := context.WithTimeout(context.Background(), extensionListWait)
	defer cancel()
	a.extensions.WaitStarted(ctx)
	var out []pi.SlashCommand
	for _, c := range a.extensions.Commands() {
		out = append(out, pi.SlashCommand{Name: c.Name, Description: c.Description, Source: "extension"})
	}
	return out
}
