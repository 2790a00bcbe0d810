package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/rpcmode/pi"
	"github.com/cairn-dev/cairn/themes"
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

	ui := tui.NewUI()
	var mem *pi.MemorySessions
	var memStore agent.Store
	if opts.NoSession {
		mem = pi.NewMemorySessions()
		memStore = mem.Store()
	}
	a, err := buildApp(quiet, env, opts, ui, memStore)
	if err != nil {
		streams.Err.Write(warn.Bytes())
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer a.close()

	eff := a.settings.Effective()
	custom, themeErrs := themes.LoadDir(filepath.Join(env.dir, "themes"))
	keys, keyErrs := keymap.Load(filepath.Join(env.dir, "keybindings.json"))
	templates, tmplErrs := tui.LoadTemplates(filepath.Join(env.dir, "prompts"))
	notices := splitLines(warn.String())
	for _, errs := range [][]error{themeErrs, keyErrs, tmplErrs} {
		for _, e := range errs {
			notices = append(notices, e.Error())
		}
	}
	var theme *themes.Theme
	if eff.Theme != "" {
		if t, err := themes.Resolve(eff.Theme, custom, true); err == nil {
			theme = t
		} else {
			notices = append(notices, err.Error())
		}
	}
	o := tui.Options{
		Session:    a.session,
		UI:         ui,
		Approvals:  a.gate,
		Models:     a.cat.Available,
		Theme:      theme,
		Themes:     custom,
		SaveTheme:  func(name string) error { return a.settings.Set("theme", name, settings.ScopeGlobal) },
		Keys:       keys,
		Cwd:        a.cwd,
		Dir:        env.dir,
		Shell:      eff.ShellPath,
		Templates:  templates,
		Notices:    notices,
		Version:    versionString(),
		OpenResume: resume,
	}
	if a.noCredentials {
		o.FirstRun = firstRunHelp(a.cat, env)
	}
	if mem == nil {
		o.Sessions = &tuiSessions{fileSessions{a: a, store: sessionStore(env, opts)}}
	}
	if err := tui.Run(ctx, o, tea.WithInput(streams.In), tea.WithOutput(streams.Out)); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	if a.file != nil && a.file.Persisted() {
		fmt.Fprintf(streams.Err, "Session saved: %s\nContinue it with: cairn --continue\n", a.file.FilePath())
	}
	return exitOK
}

// firstRunHelp says where cairn looks for credentials and how to use a
// local server.
func firstRunHelp(cat *catalog.Catalog, env environment) *tui.FirstRun {
	return &tui.FirstRun{Lines: []string{
		"Set an API key in the environment and start cairn again, for example:",
		"    export ANTHROPIC_API_KEY=sk-ant-…",
		"cairn looks for: " + strings.Join(cat.KeyEnvs(), ", ") + ".",
		"",
		"Or run a model on this machine (Ollama, llama.cpp, LM Studio, vLLM) and describe it in",
		"    " + shortHome(cat.ConfigFile(), env.getenv("HOME")),
		`    {"providers": {"ollama": {"baseUrl": "http://localhost:11434/v1", "api": "openai-completions",`,
		`      "apiKey": "ollama", "models": [{"id": "qwen2.5-coder:14b"}]}}}`,
		"then start cairn with --model ollama/qwen2.5-coder:14b (llama.cpp's llama-server listens on",
		"http://localhost:8080/v1). The README has the details.",
	}}
}

// shortHome writes a path under home with ~.
func shortHome(p, home string) string {
	if home != "" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
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

// tuiSessions gives the TUI's session commands the session files, through
// the same file handling rpc mode uses.
type tuiSessions struct{ fs fileSessions }

func convo(c pi.Conversation) tui.Conversation {
	return tui.Conversation{Store: c.Store, Messages: c.Messages, EntryIDs: c.EntryIDs, Provider: c.Provider, ModelID: c.ModelID, Thinking: c.Thinking}
}

func (s *tuiSessions) Info() tui.SessionInfo {
	i := s.fs.Info()
	return tui.SessionInfo{ID: i.ID, File: i.File, Name: i.Name}
}

func (s *tuiSessions) SetName(name string) error { return s.fs.SetName(name) }

func (s *tuiSessions) New() (tui.Conversation, error) {
	c, err := s.fs.New("")
	return convo(c), err
}

func (s *tuiSessions) List() ([]session.Info, error) { return s.fs.store.List(s.fs.a.cwd) }

func (s *tuiSessions) Open(path string) (tui.Conversation, error) {
	c, err := s.fs.Switch(path)
	return convo(c), err
}

func (s *tuiSessions) Fork(entryID string) (string, tui.Conversation, error) {
	text, c, err := s.fs.Fork(entryID)
	return text, convo(c), err
}

// Branch moves the session's leaf to entryID: the next message grows a new
// branch from there.
func (s *tuiSessions) Branch(entryID string) (tui.Conversation, error) {
	f := s.fs.file()
	if entryID == "" {
		f.ResetLeaf() // before the first entry: the next message is a new root
	} else if err := f.Branch(entryID); err != nil {
		return tui.Conversation{}, err
	}
	ctx := f.Context()
	c := tui.Conversation{Store: f, Messages: ctx.Messages, EntryIDs: ctx.EntryIDs, Thinking: ctx.ThinkingLevel}
	if ctx.Model != nil {
		c.Provider, c.ModelID = ctx.Model.Provider, ctx.Model.ModelID
	}
	return c, nil
}

// Tree lists the session's message entries with a one-line preview each.
func (s *tuiSessions) Tree() ([]tui.TreeNode, error) {
	f := s.fs.file()
	onPath := map[string]bool{}
	for _, e := range f.ActiveBranch() {
		onPath[e.ID] = true
	}
	var out []tui.TreeNode
	for _, n := range f.Nodes() {
		tn := tui.TreeNode{ID: n.ID, ParentID: n.ParentID, Role: string(n.Type), OnPath: onPath[n.ID]}
		if n.Type == session.TypeMessage {
			e, err := f.Entry(n.ID)
			if err != nil {
				return nil, err
			}
			if me, ok := e.Payload.(*session.MessageEntry); ok {
				tn.Role = string(me.Message.MessageRole())
				tn.Text = previewText(me.Message)
			}
		}
		out = append(out, tn)
	}
	return out, nil
}

// previewText is a message's text, or what it did when it has none.
func previewText(m core.Message) string {
	var t string
	switch m := m.(type) {
	case *core.UserMessage:
		t = m.Text()
	case *core.AssistantMessage:
		t = m.Text()
		if t == "" && len(m.ToolCalls()) > 0 {
			t = "(calls " + m.ToolCalls()[0].Name + ")"
		}
	}
	return strings.TrimSpace(t)
}
