package tui

import (
	"context"
	"encoding/json"
	"github.com/cairn-dev/cairn/core/mcp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/themes"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// chroma's regexp2 keeps a timer goroutine that ends on its own.
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"),
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.fastclockLoop"),
		// teatest leaves a goroutine waiting for SIGINT for each program.
		goleak.IgnoreTopFunction("github.com/charmbracelet/x/exp/teatest/v2.NewTestModel.func2"),
	)
}

// testClock is the fixed time tests run at.
var testClock = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// rig is a model over a real agent session whose model is the scripted
// faux provider.
type rig struct {
	t    testing.TB
	m    *Model
	sess *agent.Session
	fp   *faux.Provider
	gate *approval.Gate
	dir  string
}

type rigOptions struct {
	theme     *themes.Theme
	firstRun  bool
	responses []faux.Response
	models    []core.Model
	realClock bool
	faux      *faux.Options // nil: fast chunks
	// conversations replaces the in-memory conversations when set.
	conversations agent.Conversations
	// history is the conversation the session starts with.
	history []core.Message
	// interceptors are the session's (an extension's BeforeSwitch, say).
	interceptors []agent.Interceptor
	// templates are the prompt templates offered as commands.
	templates prompts.Templates
	// model replaces the faux model the session starts on.
	model *core.Model
	// retry turns automatic retries on; sleep waits out their delays.
	retry *agent.RetrySettings
	sleep func(context.Context, time.Duration) error
	// mcp reports MCP servers for /mcp.
	mcp func() []mcp.Status
	// mcpServers offers MCP prompts and resources (Options.MCPServers).
	mcpServers *mcp.Manager
	// processes holds the session's background commands when set.
	processes *background.Table
}

func newRig(t testing.TB, o rigOptions) *rig {
	t.Helper()
	dir := t.TempDir()
	fo := faux.Options{ChunkSize: 4, TokensPerSecond: 100000}
	if o.faux != nil {
		fo = *o.faux
	}
	fp := faux.New(fo, o.responses...)
	gate, err := approval.Open(approval.Config{Mode: approval.ModeDefault, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	model := faux.Model
	model.ContextWindow = 200000
	if o.model != nil {
		model = *o.model
	}
	var retry agent.RetrySettings
	if o.retry != nil {
		retry = *o.retry
	}
	sess, err := agent.New(agent.Config{
		Model:     model,
		Open:      func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
		Tools:     tools.New(dir),
		Processes: o.processes,
		Approver:  gate,
		Models:    o.models,

		Conversations: o.conversations,
		History:       o.history,
		Interceptors:  o.interceptors,
		Retry:         retry,
		Sleep:         o.sleep,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	theme := o.theme
	if theme == nil {
		theme = themes.Dark()
	}
	opts := Options{
		Session: sess, Approvals: gate, Theme: theme,
		Cwd: dir, Dir: dir, Version: "test",
		Models:     func() []core.Model { return o.models },
		Templates:  o.templates,
		MCP:        o.mcp,
		MCPServers: o.mcpServers,
	}
	if !o.realClock {
		opts.Now = func() time.Time { return testClock }
		opts.ApprovalGuard = time.Nanosecond
	}
	if o.firstRun {
		opts.FirstRun = &FirstRun{Lines: []string{"Set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY.", "Or describe a local server in ~/.cairn/models.json."}}
	}
	m := New(opts)
	if o.history != nil {
		// The session holds the history; the screen shows only what the
		// test's events add.
		m.tr.clear()
		clear(m.tools)
		m.foot.usage = core.Usage{}
	}
	if !o.realClock {
		m.frames.interval = 0
	}
	m.foot.cwd = "~/project"
	m.foot.branch = "main"
	return &rig{t: t, m: m, sess: sess, fp: fp, gate: gate, dir: dir}
}

// send runs msgs through Update, and the commands they return, until
// nothing more happens (commands that wait on the outside world are
// dropped after a short while, as a program would keep them waiting).
func (r *rig) send(msgs ...tea.Msg) {
	r.t.Helper()
	for _, msg := range msgs {
		_, cmd := r.m.Update(msg)
		r.runCmd(cmd, 0)
	}
}

// runCmd runs cmd and feeds its messages back, depth-first. Ticks and
// other commands that block are skipped: they would fire later in a real
// program and are tested where they matter.
func (r *rig) runCmd(cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 8 {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(50 * time.Millisecond):
		return
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			r.runCmd(c, depth+1)
		}
	case nil, tickMsg:
	default:
		if isProgramMsg(msg) {
			return
		}
		_, next := r.m.Update(msg)
		r.runCmd(next, depth+1)
	}
}

// isProgramMsg reports messages only a running program understands.
func isProgramMsg(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.QuitMsg, tea.SuspendMsg:
		return true
	}
	return false
}

// key is a key press as Bubble Tea reports it.
func key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "ctrl+t":
		return tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	case "ctrl+o":
		return tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+g":
		return tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl}
	case "ctrl+v":
		return tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	r := []rune(s)
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// typeText types s one key at a time.
func (r *rig) typeText(s string) {
	for _, c := range s {
		r.send(key(string(c)))
	}
}

// answer returns an assistant message snapshot with content.
func answer(content ...core.Content) *core.AssistantMessage {
	return &core.AssistantMessage{Content: content, Provider: "faux", Model: "faux-1", StopReason: core.StopEnd,
		Usage: core.Usage{Input: 1200, Output: 340, TotalTokens: 1540}}
}

func text(s string) core.Content     { return core.Content{Type: core.ContentText, Text: s} }
func thinking(s string) core.Content { return core.Content{Type: core.ContentThinking, Thinking: s} }
func call(id, name string, args any) core.Content {
	b, _ := json.Marshal(args)
	return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: b}
}

// waitSettled waits for the session to finish its run.
func (r *rig) waitSettled() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.sess.Wait(ctx); err != nil {
		r.t.Fatal(err)
	}
}

// asked is the outcome of a question put through the session by ask.
type asked struct {
	a   core.Answer
	out core.Outcome
}

// ask puts q to the session from another goroutine, as the gate and the
// tools do, hands the published question to the model, and returns where
// the outcome will arrive.
func (r *rig) ask(q core.Question) <-chan asked {
	r.t.Helper()
	events, stop := r.sess.Subscribe()
	defer stop()
	reply := make(chan asked, 1)
	go func() {
		a, out := r.sess.Ask(context.Background(), q)
		reply <- asked{a, out}
	}()
	for e := range events {
		if qe, ok := e.(core.Question); ok {
			r.send(eventsMsg{qe})
			return reply
		}
	}
	r.t.Fatal("the session closed before publishing the question")
	return nil
}
