package piext

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/extension/frametest"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/toolset"
)

// examples is where pi 0.87.1's example extensions are copied (see
// testdata/README.md).
var examples, _ = filepath.Abs("testdata/pi-examples")

// jitiCache is shared by the tests of one run, as a person's cache is
// shared by their sessions: each example is transpiled once.
var jitiCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "piext-cache-")
	if err != nil {
		panic(err)
	}
	jitiCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needNode skips when node is missing, except in CI, where the tests of
// the pi extension host must run.
func needNode(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node is needed in CI: %v", err)
		}
		t.Skip("node is not installed")
	}
}

// fakeHost is the session the host's extensions work with: it records what
// they show and send, and answers dialogs with answer.
type fakeHost struct {
	mu     sync.Mutex
	asked  []core.Question
	shown  []core.Event
	sent   []string
	answer func(core.Question) (core.Answer, core.Outcome)
	change chan struct{}
	// events is the session's event stream the extensions observe.
	events chan core.Event
	// entries are the session's; name is its name.
	entries []session.Entry
	name    string
	// models is the session's model and its catalog (model_test.go).
	models fakeModels
	// compacted are the instructions of each compaction asked for;
	// compactErr fails them. shutdowns counts the shutdowns asked for.
	compacted  []string
	compactErr error
	shutdowns  int
	// commands lists the extensions' commands for get_commands
	// (session_test.go); customs are the messages sent with send_message.
	commands func() []extension.Command
	customs  []sentCustom
	// newSessions are the parents of the new sessions asked for.
	newSessions []string
	// tools are the session's tools, which extensions list and switch
	// (tools_test.go).
	tools *toolset.Switch
}

func (h *fakeHost) Compact(_ context.Context, instructions string) (core.CompactionResult, error) {
	h.mu.Lock()
	h.compacted = append(h.compacted, instructions)
	err := h.compactErr
	h.mu.Unlock()
	h.changed()
	if err != nil {
		return core.CompactionResult{}, err
	}
	return core.CompactionResult{Summary: "summary", FirstKeptEntryID: "e1", TokensBefore: 1000}, nil
}

func (h *fakeHost) RequestShutdown() error {
	h.mu.Lock()
	h.shutdowns++
	h.mu.Unlock()
	h.changed()
	return nil
}

func (h *fakeHost) Subscribe() (<-chan core.Event, func()) { return h.events, func() {} }

// AppendCustom and Entries keep the session's entries in memory, each the
// child of the one before, as a session file does.
func (h *fakeHost) AppendCustom(customType string, data json.RawMessage) (string, error) {
	return h.appendEntry(&session.CustomEntry{CustomType: customType, Data: data}), nil
}

func (h *fakeHost) appendEntry(p session.Payload) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := session.Entry{Type: p.EntryType(), ID: fmt.Sprintf("e%d", len(h.entries)+1), Timestamp: "2026-01-01T00:00:00.000Z", Payload: p}
	if n := len(h.entries); n > 0 {
		parent := h.entries[n-1].ID
		e.ParentID = &parent
	}
	h.entries = append(h.entries, e)
	return e.ID
}

func (h *fakeHost) SetName(name string) error {
	h.mu.Lock()
	h.name = name
	h.mu.Unlock()
	h.changed()
	return nil
}

func (h *fakeHost) Entries() ([]session.Entry, string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.entries) == 0 {
		return nil, "", nil
	}
	return slices.Clone(h.entries), h.entries[len(h.entries)-1].ID, nil
}

func (h *fakeHost) Ask(_ context.Context, q core.Question) (core.Answer, core.Outcome) {
	h.mu.Lock()
	h.asked = append(h.asked, q)
	answer := h.answer
	h.mu.Unlock()
	h.changed()
	if answer == nil {
		return core.Answer{}, core.Dismissed
	}
	return answer(q)
}

func (h *fakeHost) Show(e core.Event) {
	h.mu.Lock()
	h.shown = append(h.shown, e)
	h.mu.Unlock()
	h.changed()
}

func (h *fakeHost) SendUserMessage(text, deliverAs string) error {
	h.mu.Lock()
	h.sent = append(h.sent, deliverAs+":"+text)
	h.mu.Unlock()
	h.changed()
	return nil
}

func (h *fakeHost) changed() {
	select {
	case h.change <- struct{}{}:
	default:
	}
}

// waitFor waits, up to 20 s, until ok holds of what the host has seen.
func (h *fakeHost) waitFor(t *testing.T, what string, ok func(shown []core.Event, sent []string, asked []core.Question) bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		h.mu.Lock()
		done := ok(h.shown, h.sent, h.asked)
		h.mu.Unlock()
		if done {
			return
		}
		select {
		case <-h.change:
		case <-deadline:
			h.mu.Lock()
			defer h.mu.Unlock()
			t.Fatalf("timed out waiting for %s; shown %#v, sent %q, asked %d", what, h.shown, h.sent, len(h.asked))
		}
	}
}

// notices are the texts of the notices shown.
func notices(shown []core.Event) string {
	var b strings.Builder
	for _, e := range shown {
		if n, ok := e.(core.Notice); ok {
			b.WriteString(n.Message + "\n")
		}
	}
	return b.String()
}

// harness runs the pi extension host with some examples, as a session in
// mode with the UI ui.
type harness struct {
	m    *extension.Manager
	host *fakeHost
	ic   agent.Interceptor
	cwd  string
	// logDir holds the extensions' logs.
	logDir string
}

// startHost starts the host with files (relative to the examples) in mode,
// with every UI method (tui) or none (print), in a new working directory.
func startHost(t testing.TB, mode string, files ...string) *harness {
	t.Helper()
	return startHostIn(t, t.TempDir(), nil, mode, files...)
}

// startHostIn is startHost in the working directory cwd, with env added to
// the host's environment.
func startHostIn(t testing.TB, cwd string, env map[string]string, mode string, files ...string) *harness {
	t.Helper()
	return startHostWith(t, cwd, env, nil, mode, files...)
}

// startHostWith is startHostIn with a session holding the entries prefill.
func startHostWith(t testing.TB, cwd string, env map[string]string, prefill []session.Payload, mode string, files ...string) *harness {
	t.Helper()
	return startHostOpts(t, cwd, env, prefill, nil, nil, mode, files...)
}

// startHostFlags is startHostWith with flags on cairn's command line.
func startHostFlags(t testing.TB, cwd string, env map[string]string, prefill []session.Payload, flags []extension.Flag, mode string, files ...string) *harness {
	t.Helper()
	return startHostOpts(t, cwd, env, prefill, flags, nil, mode, files...)
}

// startHostFull is startHostWith whose extensions' providers go to reg.
func startHostFull(t testing.TB, cwd string, env map[string]string, prefill []session.Payload, reg extension.ProviderRegistry, mode string, files ...string) *harness {
	t.Helper()
	return startHostOpts(t, cwd, env, prefill, nil, reg, mode, files...)
}

// startHostOpts is startHostWith with flags and a provider registry.
func startHostOpts(t testing.TB, cwd string, env map[string]string, prefill []session.Payload, flags []extension.Flag, reg extension.ProviderRegistry, mode string, files ...string) *harness {
	t.Helper()
	needNode(t)
	var entries []Entry
	for _, f := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(examples, f)
		}
		found, ok := FromPath(p, "")
		if !ok {
			t.Fatalf("%s is not a pi extension", p)
		}
		entries = append(entries, found...)
	}
	configs := Host(entries, Options{CacheDir: t.TempDir(), Cwd: cwd})
	for i := range configs {
		if configs[i].Env != nil {
			configs[i].Env["CAIRN_PI_JITI_CACHE"] = jitiCache
			// A cold load of many extensions on a busy test machine may
			// take longer than a session waits; the tests wait for all.
			configs[i].Env["CAIRN_PI_INIT_MS"] = "45000"
			configs[i].Env["CAIRN_PI_START_MS"] = "45000"
			for k, v := range env {
				configs[i].Env[k] = v
			}
		}
	}
	var ui []core.UIMethod
	switch mode {
	case "tui":
		ui = append(slices.Clone(core.UIMethods), core.ChromeUIMethods...)
	case "custom":
		// cairn's TUI, which also shows components (custom_test.go).
		mode, ui = "tui", append(append(slices.Clone(core.UIMethods), core.ChromeUIMethods...), core.UICustom)
	}
	fc := frametest.New(t, "../../docs/extension-protocol.schema.json")
	trace := func(ext string, in bool, line []byte) {
		// Nothing but protocol frames may reach cairn: an extension's
		// console.log goes to the log.
		if in && !json.Valid(line) {
			t.Errorf("a line from the host is not JSON: %.200s", line)
		}
		fc.Check(ext, in, line)
	}
	logDir := t.TempDir()
	m := extension.New(configs, extension.Options{Cwd: cwd, Mode: mode, UI: ui, StartTimeout: 50 * time.Second, Trace: trace, Flags: flags, Providers: reg, LogDir: logDir})
	h := &fakeHost{change: make(chan struct{}, 1), events: make(chan core.Event, 16), tools: sessionTools(m)}
	for _, p := range prefill {
		h.appendEntry(p)
	}
	m.Attach(h)
	m.Start()
	t.Cleanup(func() {
		m.Close()
		if fc.Frames() < 2 {
			t.Errorf("only %d frames checked against the schema", fc.Frames())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m.WaitStarted(ctx)
	return &harness{m: m, host: h, ic: m.Interceptors()[0], cwd: cwd, logDir: logDir}
}

// member is the status of the pi extension name.
func (h *harness) member(t *testing.T, name string) extension.Status {
	t.Helper()
	for _, s := range h.m.Statuses() {
		if s.Config.Name == Name+":"+name {
			return s
		}
	}
	t.Fatalf("no member %s in %+v", name, h.m.Statuses())
	return extension.Status{}
}

// tool runs the extension tool name with args.
func (h *harness) tool(t *testing.T, name, args string) core.ToolResult {
	t.Helper()
	tool := h.m.Find(name)
	if tool == nil {
		t.Fatalf("no tool %s", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := tool.Execute(ctx, core.ToolCall{ID: "call-1", Name: name, Arguments: json.RawMessage(args)}, func(core.ToolUpdate) {})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// input sends a person's message through the extensions.
func (h *harness) input(t *testing.T, text string) agent.InputResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := h.ic.Input(ctx, agent.InputEvent{Text: text})
	if err != nil {
		t.Fatalf("input %q: %v", text, err)
	}
	return r
}

// toolCall asks the extensions about a call.
func (h *harness) toolCall(t *testing.T, name, args string) agent.ToolCallResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := h.ic.ToolCall(ctx, agent.ToolCallEvent{Call: core.ToolCall{ID: "call-1", Name: name, Arguments: json.RawMessage(args)}})
	if err != nil {
		t.Fatalf("tool_call %s: %v", name, err)
	}
	return r
}

// text is a result's text.
func text(r core.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}
