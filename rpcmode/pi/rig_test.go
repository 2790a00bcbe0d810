package pi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/cairn-dev/cairn/core/mcp"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/anthropic"
	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/provider/openai"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/tools"
)

// TestMain lets the test binary stand in for cairn in sandboxed commands.
func TestMain(m *testing.M) {
	sandbox.RunIfChild()
	shell.RunIfReaper()
	goleak.VerifyTestMain(m)
}

// waitLimit bounds every wait of a test for an output line.
const waitLimit = 15 * time.Second

// fakeModels are the models pi was configured with for the conformance
// transcripts (shared/conformance/pi/README.md), served by baseURL.
func fakeModels(baseURL string) []core.Model {
	zero := core.Price{}
	return []core.Model{
		{ID: "fake-gpt", Name: "Fake GPT", API: "openai-completions", Provider: "fake-openai", BaseURL: baseURL + "/v1",
			Input: []string{"text"}, Cost: zero, ContextWindow: 128000, MaxTokens: 16384},
		{ID: "fake-gpt-think", Name: "Fake GPT Thinking", API: "openai-completions", Provider: "fake-openai", BaseURL: baseURL + "/v1",
			Reasoning: true, Input: []string{"text"}, Cost: zero, ContextWindow: 128000, MaxTokens: 16384},
		{ID: "fake-claude", Name: "Fake Claude", API: "anthropic-messages", Provider: "fake-anthropic", BaseURL: baseURL,
			Reasoning: true, Input: []string{"text", "image"}, Cost: zero, ContextWindow: 200000, MaxTokens: 32000},
	}
}

// modelList is a fixed Models.
type modelList []core.Model

func (l modelList) Available() []core.Model { return append([]core.Model(nil), l...) }

func (l modelList) Find(p, id string) (core.Model, error) {
	for _, m := range l {
		if m.Provider == p && m.ID == id {
			return m, nil
		}
	}
	return core.Model{}, fmt.Errorf("no model %s/%s", p, id)
}

// rigConfig describes a server under test.
type rigConfig struct {
	// todo adds the todo_write tool to the built-in tools.
	todo     bool
	models   []core.Model // the models on offer
	start    core.Model   // the starting model; zero means models[0]
	thinking core.ThinkingLevel
	faux     *faux.Provider // serves every model when set
	cwd      string
	approver agent.Approver
	bash     BashRunner
	mcp      func() []mcp.Status
	// mcpPrompts offers MCP prompts (Host.MCPPrompts).
	mcpPrompts *mcp.Manager
	maxFrame   int
	retry      agent.RetrySettings
	sleep      func(ctx context.Context, d time.Duration) error
	// compaction replaces agent.DefaultCompaction when set.
	compaction agent.CompactionSettings
	settings   *settings.Store
	approvals  ApprovalModeSetter
	// conversations replaces the in-memory conversations when set.
	conversations agent.Conversations
	// compat073 writes pi 0.73.1's shapes (Host.Compat073).
	compat073 bool
	// prompts are the prompt templates (Host.Prompts).
	prompts prompts.Templates
	// systemSections gives the prompt in sections, so runs declare it in
	// system messages as cairn's command line does.
	systemSections bool
	// processes holds the session's background commands when set.
	processes *background.Table
	// tools are added to the built-in ones (plan mode's exit_plan_mode).
	tools []core.Tool
	// checkpoints records the project's files around prompts when set.
	checkpoints *checkpoint.Store
	// out, when set, wraps the output the server writes to.
	out func(io.Writer) io.Writer
	// interceptors are the session's (an extension's command, say).
	interceptors []agent.Interceptor
	// commands lists get_commands' commands (Host.Commands).
	commands func() []SlashCommand
}

// providerRequest is what a faux step sees.
type providerRequest = provider.Request

// rig is a running Serve with a pipe for its input and its output lines.
type rig struct {
	t      *testing.T
	sess   *agent.Session
	in     *io.PipeWriter
	out    *lineSink
	done   chan error
	cursor int
	frames int // non-blank command frames sent (each wants one response)
}

func newRig(t *testing.T, cfg rigConfig) *rig {
	t.Helper()
	if cfg.cwd == "" {
		cfg.cwd = t.TempDir()
	}
	if cfg.faux != nil && len(cfg.models) == 0 {
		cfg.models = []core.Model{faux.Model}
	}
	if cfg.start.ID == "" {
		cfg.start = cfg.models[0]
	}
	open := func(m core.Model) (agent.Connection, error) {
		if cfg.faux != nil {
			return agent.Connection{Provider: cfg.faux}, nil
		}
		opts := provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}}
		switch m.API {
		case "openai-completions":
			return agent.Connection{Provider: openai.New(opts), APIKey: "fake-key"}, nil
		case "anthropic-messages":
			return agent.Connection{Provider: anthropic.New(opts), APIKey: "fake-key"}, nil
		}
		return agent.Connection{}, fmt.Errorf("no provider for api %q", m.API)
	}
	var sections func([]core.Tool) []core.PromptSection
	if cfg.systemSections {
		sections = func([]core.Tool) []core.PromptSection {
			return []core.PromptSection{{Name: "preamble", Text: "You are a test assistant."}}
		}
	}
	retry := cfg.retry
	if retry == (agent.RetrySettings{}) {
		retry = agent.DefaultRetry
	}
	compaction := cfg.compaction
	if compaction == (agent.CompactionSettings{}) {
		compaction = agent.DefaultCompaction
	}
	toolset := append(tools.New(cfg.cwd), cfg.tools...)
	if cfg.todo {
		toolset = append(toolset, tools.NewTodoWrite())
	}
	if cfg.processes != nil {
		toolset = tools.WithBackground(toolset, cfg.processes)
	}
	sess, err := agent.New(agent.Config{
		Processes:      cfg.processes,
		Checkpoints:    cfg.checkpoints,
		Model:          cfg.start,
		Thinking:       cfg.thinking,
		Open:           open,
		Models:         cfg.models,
		Tools:          toolset,
		Approver:       cfg.approver,
		SystemPrompt:   func([]core.Tool) string { return "You are a test assistant." },
		SystemSections: sections,
		Conversations:  cfg.conversations,
		Retry:          retry,
		Compaction:     compaction,
		Sleep:          cfg.sleep,
		Interceptors:   cfg.interceptors,
	})
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	r := &rig{t: t, sess: sess, in: pw, out: newLineSink(), done: make(chan error, 1)}
	bash := cfg.bash
	if bash == nil {
		bash = &ExecBash{Dir: cfg.cwd, Compat073: cfg.compat073}
	}
	h := Host{Session: sess, Models: modelList(cfg.models), Settings: cfg.settings, Bash: bash, Approvals: cfg.approvals, MaxFrameBytes: cfg.maxFrame, Compat073: cfg.compat073, Prompts: cfg.prompts, MCP: cfg.mcp, MCPPrompts: cfg.mcpPrompts, ExportHTML: exportHTML, Commands: cfg.commands}
	var out io.Writer = r.out
	if cfg.out != nil {
		out = cfg.out(out)
	}
	go func() { r.done <- Serve(context.Background(), pr, out, h) }()
	t.Cleanup(func() {
		r.close()
		sess.Close()
	})
	return r
}

// send writes one command object as a line.
func (r *rig) send(v any) {
	r.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		r.t.Fatal(err)
	}
	r.raw(string(b) + "\n")
}

// raw writes bytes as they are, counting the command frames in them.
func (r *rig) raw(s string) {
	r.t.Helper()
	for _, line := range strings.SplitAfter(s, "\n") {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) != "" && !strings.Contains(line, `"extension_ui_response"`) {
			r.frames++
		}
	}
	if _, err := io.WriteString(r.in, s); err != nil {
		r.t.Fatalf("write to server: %v", err)
	}
}

// close ends the input and waits for Serve to return; it returns Serve's
// error. It may be called more than once.
func (r *rig) close() error {
	r.in.Close()
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(waitLimit):
		r.t.Fatalf("Serve did not return within %s of its input ending", waitLimit)
		return nil
	}
}

// wait returns the next line after the cursor matching pattern (fields by
// dotted path) and moves the cursor past it.
func (r *rig) wait(pattern map[string]any) *line {
	r.t.Helper()
	l, i := r.out.waitMatch(r.cursor, pattern, waitLimit)
	if l == nil {
		r.t.Fatalf("no line matching %v within %s; output:\n%s", pattern, waitLimit, r.out.dump(r.cursor))
	}
	r.cursor = i + 1
	return l
}

// response waits for the response with id.
func (r *rig) response(id string) *line {
	r.t.Helper()
	return r.wait(map[string]any{"type": "response", "id": id})
}

// line is one output line: its text and its parsed value.
type line struct {
	text  string
	value any // parsed with parseOrdered
}

func (l *line) get(path string) any { return lookup(l.value, path) }

func (l *line) str(path string) string {
	s, _ := l.get(path).(string)
	return s
}

// lineSink collects output lines and lets tests wait for them.
type lineSink struct {
	mu      sync.Mutex
	partial []byte
	lines   []*line
	bad     []string
	changed chan struct{}
	bytes   int
}

func newLineSink() *lineSink { return &lineSink{changed: make(chan struct{})} }

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bytes += len(p)
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		text := string(s.partial[:i])
		s.partial = s.partial[i+1:]
		v, err := parseOrdered([]byte(text))
		if err != nil {
			s.bad = append(s.bad, text)
			continue
		}
		s.lines = append(s.lines, &line{text: text, value: v})
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return len(p), nil
}

// all returns every line so far.
func (s *lineSink) all() []*line {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*line(nil), s.lines...)
}

func (s *lineSink) waitMatch(from int, pattern map[string]any, limit time.Duration) (*line, int) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for i := from; ; {
		s.mu.Lock()
		for ; i < len(s.lines); i++ {
			if matches(s.lines[i].value, pattern) {
				l := s.lines[i]
				s.mu.Unlock()
				return l, i
			}
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			return nil, -1
		}
	}
}

func (s *lineSink) dump(from int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for i := from; i < len(s.lines); i++ {
		t := s.lines[i].text
		if len(t) > 300 {
			t = t[:300] + "…"
		}
		fmt.Fprintf(&b, "  %d: %s\n", i, t)
	}
	return b.String()
}

// matches reports whether every field of pattern (by dotted path) equals
// the value's.
func matches(v any, pattern map[string]any) bool {
	for k, want := range pattern {
		got := lookup(v, k)
		if !sameJSON(got, want) {
			return false
		}
	}
	return true
}

func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(plain(a))
	jb, _ := json.Marshal(plain(b))
	return bytes.Equal(ja, jb)
}

// ordered is a JSON object that remembers its key order.
type ordered struct {
	keys []string
	vals map[string]any
}

func (o *ordered) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *ordered) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *ordered) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// parseOrdered parses one JSON value, objects as *ordered and numbers as
// json.Number.
func parseOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &ordered{vals: map[string]any{}}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(k.(string), v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
	}
	return tok, nil
}

// plain converts an ordered value to maps, for marshalling.
func plain(v any) any {
	switch v := v.(type) {
	case *ordered:
		m := map[string]any{}
		for _, k := range v.keys {
			m[k] = plain(v.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plain(x)
		}
		return out
	case float64:
		return json.Number(fmt.Sprint(v))
	case int:
		return json.Number(fmt.Sprint(v))
	}
	return v
}

// lookup follows a dotted path (numbers index arrays).
func lookup(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case *ordered:
			var ok bool
			if v, ok = x.get(k); !ok {
				return nil
			}
		case []any:
			var i int
			if _, err := fmt.Sscanf(k, "%d", &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// keysOf returns an object's keys in order, or nil.
func keysOf(v any) []string {
	if o, ok := v.(*ordered); ok {
		return o.keys
	}
	return nil
}

// The catalog is what cmd/cairn passes as Host.Models.
var _ Models = (*catalog.Catalog)(nil)
