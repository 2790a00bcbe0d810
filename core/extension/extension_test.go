package extension

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/extension/frametest"
	"github.com/cairn-dev/cairn/core/toolset"
)

// fakeHost answers dialogs with answer and records what is shown.
type fakeHost struct {
	mu        sync.Mutex
	questions []core.Question
	shown     []core.Event
	sent      []string
	answer    func(core.Question) (core.Answer, core.Outcome)
	showCh    chan core.Event
}

func newHost() *fakeHost { return &fakeHost{showCh: make(chan core.Event, 64)} }

func (h *fakeHost) Ask(ctx context.Context, q core.Question) (core.Answer, core.Outcome) {
	h.mu.Lock()
	h.questions = append(h.questions, q)
	answer := h.answer
	h.mu.Unlock()
	if answer == nil {
		return core.Answer{}, core.NoOneToAsk
	}
	return answer(q)
}

func (h *fakeHost) Show(e core.Event) {
	h.mu.Lock()
	h.shown = append(h.shown, e)
	h.mu.Unlock()
	h.showCh <- e
}

func (h *fakeHost) SendUserMessage(text, deliverAs string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sent = append(h.sent, text)
	return nil
}

// newFrameChecker checks every line exchanged against the protocol's
// schema (frametest).
func newFrameChecker(t testing.TB) *frametest.Checker {
	return frametest.New(t, "../../docs/extension-protocol.schema.json")
}

// testManager starts extensions playing roles, each named by its role.
func testManager(t testing.TB, opts Options, roles ...string) (*Manager, *fakeHost, *frametest.Checker) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var configs []Config
	for _, r := range roles {
		configs = append(configs, Config{Name: r, Command: exe, Env: map[string]string{"CAIRN_EXT_ROLE": r}, Scope: ScopeUser})
	}
	fc := newFrameChecker(t)
	opts.Trace = fc.Check
	if opts.Cwd == "" {
		opts.Cwd = t.TempDir()
	}
	if opts.Mode == "" {
		opts.Mode = "tui"
	}
	m := New(configs, opts)
	h := newHost()
	m.Attach(h)
	m.Start()
	t.Cleanup(m.Close)
	return m, h, fc
}

// waitReady waits, through the registry's bounded wait, for the
// extensions to start.
func waitReady(t testing.TB, m *Manager) *toolset.Registry {
	t.Helper()
	reg := toolset.New(nil, toolset.Options{Limit: 20 * time.Second}, m)
	reg.Wait(context.Background(), nil)
	return reg
}

var allUI = core.UIMethods

func TestToolRoundTrip(t *testing.T) {
	m, _, fc := testManager(t, Options{UI: allUI}, "basic")
	reg := waitReady(t, m)
	var names []string
	for _, tl := range reg.Tools() {
		names = append(names, tl.Spec().Name)
	}
	if got, want := strings.Join(names, ","), "echo,fail,crash,env"; got != want {
		t.Fatalf("tools = %s, want %s (the inactive one hidden)", got, want)
	}
	if reg.Find("later") != nil {
		t.Error("an inactive tool is callable")
	}
	var updates []core.ToolUpdate
	res, err := reg.Find("echo").Execute(context.Background(), core.ToolCall{ID: "c1", Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)},
		func(u core.ToolUpdate) { updates = append(updates, u) })
	if err != nil || res.IsError || core.PlainText(res.Content) != "echo: hi" || string(res.Details) != `{"n":1}` {
		t.Fatalf("echo = %+v, %v", res, err)
	}
	if len(updates) != 1 || core.PlainText(updates[0].Content) != "working" {
		t.Errorf("updates = %+v", updates)
	}
	res, _ = reg.Find("fail").Execute(context.Background(), core.ToolCall{ID: "c2", Name: "fail"}, func(core.ToolUpdate) {})
	if !res.IsError || core.PlainText(res.Content) != "it broke" {
		t.Errorf("fail = %+v", res)
	}
	if fc.Frames() < 6 {
		t.Errorf("only %d frames checked", fc.Frames())
	}
}

func TestEnvironmentHasNoSecrets(t *testing.T) {
	getenv := func(k string) string {
		switch k {
		case "PATH":
			return os.Getenv("PATH")
		case "ANTHROPIC_API_KEY":
			return "sk-secret"
		}
		return ""
	}
	t.Setenv("ANTHROPIC_API_KEY", "sk-secret")
	m, _, _ := testManager(t, Options{Getenv: getenv}, "basic")
	reg := waitReady(t, m)
	res, _ := reg.Find("env").Execute(context.Background(), core.ToolCall{ID: "c", Name: "env"}, func(core.ToolUpdate) {})
	env := core.PlainText(res.Content)
	if strings.Contains(env, "sk-secret") || !strings.Contains(env, "CAIRN_EXT_ROLE=basic") || !strings.Contains(env, "PATH=") {
		t.Errorf("environment:\n%s", env)
	}
}

func TestCrashMidCallFailsWithStderrAndIsShownOnce(t *testing.T) {
	logs := t.TempDir()
	m, h, _ := testManager(t, Options{UI: allUI, LogDir: logs}, "basic")
	reg := waitReady(t, m)
	res, err := reg.Find("crash").Execute(context.Background(), core.ToolCall{ID: "c", Name: "crash"}, func(core.ToolUpdate) {})
	text := core.PlainText(res.Content)
	if err != nil || !res.IsError || !strings.Contains(text, "dying on purpose") || !strings.Contains(text, "exit status 3") {
		t.Fatalf("crash = %q, %v", text, err)
	}
	ev := <-h.showCh
	if n, ok := ev.(core.Notice); !ok || n.Level != core.NotifyError || !strings.Contains(n.Message, "dying on purpose") {
		t.Fatalf("shown %+v", ev)
	}
	// The session goes on: its tools are gone, and a later call (a
	// model that remembered the name) fails without a second notice.
	if reg.Find("echo") != nil {
		t.Error("a crashed extension's tools are still offered")
	}
	if st := m.Statuses()[0]; st.State != Crashed {
		t.Errorf("state = %v", st.State)
	}
	if log, err := os.ReadFile(filepath.Join(logs, "basic.log")); err != nil || !strings.Contains(string(log), "dying on purpose") ||
		!strings.Contains(text, "full log: "+filepath.Join(logs, "basic.log")) {
		t.Errorf("log: %q, %v; result %q", log, err, text)
	}
	m.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.shown) != 1 {
		t.Errorf("shown %d times: %+v", len(h.shown), h.shown)
	}
}

func TestCommandDialogsAndStatus(t *testing.T) {
	m, h, _ := testManager(t, Options{UI: allUI}, "basic")
	waitReady(t, m)
	h.answer = func(q core.Question) (core.Answer, core.Outcome) {
		if q.Kind == core.QuestionSelect {
			return core.Answer{Value: q.Options[1].Value}, core.Answered
		}
		return core.Answer{Yes: true}, core.Answered
	}
	if cmds := m.Commands(); len(cmds) != 1 || cmds[0].Name != "hello" || cmds[0].Description != "Greets." {
		t.Fatalf("commands = %+v", cmds)
	}
	ic := m.Interceptors()[0]
	res, err := ic.Input(context.Background(), agent.InputEvent{Text: "/hello world"})
	if err != nil || res.Action != agent.InputHandled {
		t.Fatalf("input = %+v, %v", res, err)
	}
	ev := <-h.showCh
	if s, ok := ev.(core.StatusChanged); !ok || s.Key != "hello" || s.Text != "picked beta (true, true) world" {
		t.Errorf("shown %+v", ev)
	}
	if len(h.questions) != 2 || h.questions[0].Kind != core.QuestionSelect || h.questions[1].Kind != core.QuestionConfirm ||
		h.questions[1].Message != "You picked beta" {
		t.Errorf("questions = %+v", h.questions)
	}
	for _, q := range h.questions {
		if q.Extension != "basic" {
			t.Errorf("question %q names extension %q, want the configured name basic", q.Title, q.Extension)
		}
	}
	// Text that names no command goes on to the model.
	res, err = ic.Input(context.Background(), agent.InputEvent{Text: "/nothing here"})
	if err != nil || res.Action != agent.InputContinue {
		t.Errorf("other input = %+v, %v", res, err)
	}
}

func TestNoUIFailsFast(t *testing.T) {
	// Print mode: no UI method; the session has nobody to ask.
	m, h, _ := testManager(t, Options{Mode: "print"}, "basic")
	waitReady(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := m.Interceptors()[0].Input(ctx, agent.InputEvent{Text: "/hello"})
	if err != nil || res.Action != agent.InputBlock || !strings.Contains(res.Reason, "no UI in this mode: print cannot select") {
		t.Fatalf("input = %+v, %v", res, err)
	}
	if ctx.Err() != nil || len(h.questions) != 0 {
		t.Errorf("the dialog waited (%v) or was asked (%d)", ctx.Err(), len(h.questions))
	}
}

func TestDialogNobodyToAskFailsFast(t *testing.T) {
	// The front end lists dialogs but the session is unattended.
	m, h, _ := testManager(t, Options{UI: allUI}, "basic")
	waitReady(t, m)
	res, err := m.Interceptors()[0].Input(context.Background(), agent.InputEvent{Text: "/hello"})
	if err != nil || res.Action != agent.InputBlock || !strings.Contains(res.Reason, "no UI") || len(h.questions) != 1 {
		t.Fatalf("input = %+v, %v", res, err)
	}
}

func TestToolCallGate(t *testing.T) {
	m, _, _ := testManager(t, Options{UI: allUI}, "basic")
	waitReady(t, m)
	ic := m.Interceptors()[0]
	res, err := ic.ToolCall(context.Background(), agent.ToolCallEvent{Call: core.ToolCall{ID: "1", Name: "bash", Arguments: json.RawMessage(`{"command":"rm -rf build"}`)}})
	if err != nil || res.Decision != agent.CallBlock || res.Reason != "rm is not allowed" {
		t.Fatalf("rm = %+v, %v", res, err)
	}
	res, err = ic.ToolCall(context.Background(), agent.ToolCallEvent{Call: core.ToolCall{ID: "2", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}})
	if err != nil || res.Decision != agent.CallUndecided {
		t.Fatalf("ls = %+v, %v", res, err)
	}
}

func TestStalledHandlerFails(t *testing.T) {
	m, _, _ := testManager(t, Options{EventTimeout: 50 * time.Millisecond}, "stalled-gate")
	waitReady(t, m)
	_, err := m.Interceptors()[0].ToolCall(context.Background(), agent.ToolCallEvent{Call: core.ToolCall{ID: "1", Name: "bash"}})
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("err = %v (the session blocks the call on any error)", err)
	}
}

func TestCutOff(t *testing.T) {
	for _, tc := range []struct{ role, want string }{
		{"flood", "messages in a row that cairn cannot use"},
		{"flood-bytes", "cut off: it wrote more output"},
		{"bigframe", "cut off: it sent a message longer than"},
		{"garbage", "lines in a row that are not JSON-RPC"},
		{"exit", "cannot start: missing config"},
		{"silent", "did not answer initialize"},
	} {
		t.Run(tc.role, func(t *testing.T) {
			limit := 30 * time.Second
			if tc.role == "silent" {
				limit = time.Second
			}
			// A clock that stands still: the output budget never refills,
			// so the flood is cut off after the burst however slow the
			// machine.
			still := time.Unix(0, 0)
			m, _, _ := testManager(t, Options{StartTimeout: limit, Now: func() time.Time { return still }}, tc.role)
			waitReady(t, m)
			f := m.Failures()
			if len(f) != 1 || !strings.Contains(f[0].Err, tc.want) {
				t.Fatalf("failures = %+v, want %q", f, tc.want)
			}
		})
	}
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(dir+"/withmanifest", 0o755))
	must(os.WriteFile(dir+"/withmanifest/extension.json", []byte(`{"command":"./run.sh","args":["-x"],"env":{"A":"1"}}`), 0o644))
	must(os.WriteFile(dir+"/single.py", []byte("#!/bin/sh\n"), 0o755))
	must(os.WriteFile(dir+"/notes.txt", []byte("hi"), 0o644))
	must(os.MkdirAll(dir+"/bad", 0o755))
	must(os.WriteFile(dir+"/bad/extension.json", []byte(`{"command":"x","comand":"typo"}`), 0o644))
	must(os.WriteFile(dir+"/.hidden", []byte("x"), 0o755))
	got := Discover(dir, ScopeProject)
	if len(got) != 4 {
		t.Fatalf("found %+v", got)
	}
	byName := map[string]Config{}
	for _, c := range got {
		byName[c.Name] = c
	}
	if c := byName["withmanifest"]; c.Err != nil || c.Command != dir+"/withmanifest/run.sh" || c.Args[0] != "-x" || c.Env["A"] != "1" {
		t.Errorf("manifest: %+v", c)
	}
	if c := byName["single"]; c.Err != nil || c.Command != dir+"/single.py" {
		t.Errorf("single: %+v", c)
	}
	if c := byName["notes"]; c.Err == nil {
		t.Errorf("a text file is not reported: %+v", c)
	}
	if c := byName["bad"]; c.Err == nil || !strings.Contains(c.Err.Error(), "comand") {
		t.Errorf("a typo is not reported: %+v", c)
	}
	s := FromSettings(json.RawMessage(`{"b":{"command":"b-ext"},"a":{"command":"a-ext","args":["1"]},"off":{"command":"x","disabled":true}}`), "/w")
	if len(s) != 2 || s[0].Name != "a" || s[1].Command != "b-ext" {
		t.Errorf("settings: %+v", s)
	}
	if errors.Is(nil, nil) != true {
		t.Fatal()
	}
}

// TestCloseWaitsForStarts: Close right after Start returns only once the
// starts under way are over, so no process or log file outlives it (a
// log created after Close once broke the removal of cairn's directory).
func TestCloseWaitsForStarts(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		logs := filepath.Join(t.TempDir(), "logs")
		m := New([]Config{{Name: "basic", Command: exe, Env: map[string]string{"CAIRN_EXT_ROLE": "basic"}, Scope: ScopeUser}},
			Options{Cwd: t.TempDir(), Mode: "rpc", LogDir: logs})
		m.Start()
		m.Close()
		if err := os.RemoveAll(logs); err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
		e := m.exts[0]
		e.mu.Lock()
		started := e.cmd != nil
		e.mu.Unlock()
		if started {
			select {
			case <-e.exited:
			default:
				t.Fatalf("start %d: the process outlived Close", i)
			}
		}
		if _, err := os.Stat(logs); err == nil {
			t.Fatalf("start %d: the log directory came back after Close", i)
		}
	}
}
