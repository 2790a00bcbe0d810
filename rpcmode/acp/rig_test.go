package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/tools"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait for an output line.
const waitLimit = 15 * time.Second

// rigConfig describes a server under test.
type rigConfig struct {
	responses []faux.Response
	mode      approval.Mode
	files     bool // store conversations in session files (session/load works)
	// checkpoints records the project's files around prompts.
	checkpoints bool
	maxFrame    int
	models      []core.Model
	timeout     time.Duration // the gate's question timeout
	callLimit   time.Duration // Host.ClientCallLimit
	// single leaves Host.Open nil: the host holds one session and serves
	// only its own directory.
	single  bool
	mcp     *mcp.Manager      // Host.MCPPrompts
	prompts prompts.Templates // Host.Prompts
	// processes gives the sessions background commands.
	processes bool
	// retry retries failed requests (twice, without waiting).
	retry bool
	// startNotice and trust are Host.StartNotice and Host.Trust.
	startNotice string
	trust       func() error
	// storeDir holds the rig's session files (files), shared by every
	// session it opens, as one cairn's sessions share ~/.cairn/sessions.
	storeDir string
	// out, when set, wraps the output the server writes to.
	out func(io.Writer) io.Writer
}

// rig is a running Serve with a pipe for its input and its output lines.
type rig struct {
	t      *testing.T
	cwd    string
	sess   *agent.Session
	gate   *approval.Gate
	faux   *faux.Provider
	in     *io.PipeWriter
	out    *lineSink
	done   chan error
	cursor int
	nextID int
	// storeDir holds the session files (rigConfig.files).
	storeDir string

	mu             sync.Mutex
	opened, closed []string // directories Open built and hosts closed
	servers        [][]mcp.Server
}

func newRig(t *testing.T, cfg rigConfig) *rig {
	t.Helper()
	cwd := t.TempDir()
	cfg.storeDir = t.TempDir()
	fp := faux.New(faux.Options{}, cfg.responses...)
	h := rigHost(t, cwd, cfg, fp)
	pr, pw := io.Pipe()
	r := &rig{t: t, cwd: cwd, sess: h.Session, gate: h.Approvals.(*approval.Gate), faux: fp, in: pw, out: newLineSink(), done: make(chan error, 1), nextID: 1, storeDir: cfg.storeDir}
	h.MaxFrameBytes, h.ClientCallLimit, h.MCPPrompts, h.Prompts = cfg.maxFrame, cfg.callLimit, cfg.mcp, cfg.prompts
	h.StartNotice, h.Trust = cfg.startNotice, cfg.trust
	if !cfg.single {
		h.Open = func(dir string, servers []mcp.Server) (Host, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.opened = append(r.opened, dir)
			r.servers = append(r.servers, servers)
			next := rigHost(t, dir, cfg, fp)
			next.Close = func() {
				r.mu.Lock()
				r.closed = append(r.closed, dir)
				r.mu.Unlock()
				next.Session.Close()
			}
			return next, nil
		}
		h.Close = func() {
			r.mu.Lock()
			r.closed = append(r.closed, cwd)
			r.mu.Unlock()
		}
	}
	var out io.Writer = r.out
	if cfg.out != nil {
		out = cfg.out(out)
	}
	go func() { r.done <- Serve(context.Background(), pr, out, h) }()
	t.Cleanup(func() {
		r.close()
		h.Session.Close()
	})
	return r
}

// rigHost builds a session working in cwd, its gate and its tools.
func rigHost(t *testing.T, cwd string, cfg rigConfig, fp *faux.Provider) Host {
	t.Helper()
	gate, err := approval.Open(approval.Config{Mode: cfg.mode, Dir: cwd, RulesFile: approval.ProjectRulesFile(cwd), Timeout: cfg.timeout})
	if err != nil {
		t.Fatal(err)
	}
	models := cfg.models
	if len(models) == 0 {
		models = []core.Model{faux.Model}
	}
	ws := tools.NewWorkspace()
	toolset := append(tools.NewIn(cwd, ws), tools.NewTodoWrite())
	var procs *background.Table
	if cfg.processes {
		procs = background.New(background.Options{TempDir: t.TempDir()})
		toolset = tools.WithBackground(toolset, procs)
	}
	acfg := agent.Config{
		Processes:    procs,
		Model:        models[0],
		Open:         func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
		Models:       models,
		Tools:        toolset,
		Approver:     gate,
		SystemPrompt: func([]core.Tool) string { return "You are a test assistant." },
		Retry:        agent.RetrySettings{},
		Compaction:   agent.CompactionSettings{},
	}
	if cfg.checkpoints {
		cps, err := checkpoint.Open(checkpoint.Options{Project: cwd, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		acfg.Checkpoints = cps
	}
	if cfg.files {
		store := session.Store{Dir: cfg.storeDir}
		acfg.Conversations = agent.NewFileConversations(store, cwd, store.Create(cwd))
	}
	if cfg.retry {
		acfg.Retry = agent.RetrySettings{Enabled: true, MaxRetries: 2, BaseDelay: 2 * time.Second, MaxDelay: 10 * time.Second}
		acfg.Sleep = func(context.Context, time.Duration) error { return nil }
	}
	sess, err := agent.New(acfg)
	if err != nil {
		t.Fatal(err)
	}
	return Host{Session: sess, Approvals: gate, Models: modelList(models), Tools: toolset, Workspace: ws, Cwd: cwd, Version: "test"}
}

type modelList []core.Model

func (l modelList) Available() []core.Model { return append([]core.Model(nil), l...) }

// raw writes bytes as they are.
func (r *rig) raw(s string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, s); err != nil {
		r.t.Fatalf("write to server: %v", err)
	}
}

// send writes one frame.
func (r *rig) send(v any) {
	r.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		r.t.Fatal(err)
	}
	r.raw(string(b) + "\n")
}

// call sends a request and returns its id.
func (r *rig) call(method string, params any) int {
	r.t.Helper()
	id := r.nextID
	r.nextID++
	r.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id
}

// notify sends a notification.
func (r *rig) notify(method string, params any) {
	r.t.Helper()
	r.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// result calls a method and returns its result, failing on an error.
func (r *rig) result(method string, params any) map[string]any {
	r.t.Helper()
	l := r.response(r.call(method, params))
	if e := l.get("error"); e != nil {
		r.t.Fatalf("%s failed: %v", method, e)
	}
	m, _ := l.get("result").(map[string]any)
	return m
}

// close ends the input and waits for Serve to return.
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

// wait returns the next line after the cursor for which match holds and
// moves the cursor past it.
func (r *rig) wait(what string, match func(*line) bool) *line {
	r.t.Helper()
	l, i := r.out.waitMatch(r.cursor, match, waitLimit)
	if l == nil {
		r.t.Fatalf("no %s within %s; output:\n%s", what, waitLimit, r.out.dump(r.cursor))
	}
	r.cursor = i + 1
	return l
}

// response waits for the response to request id.
func (r *rig) response(id int) *line {
	r.t.Helper()
	return r.wait(fmt.Sprintf("response %d", id), func(l *line) bool {
		return l.get("method") == nil && l.get("id") == float64(id)
	})
}

// request waits for a request cairn sends.
func (r *rig) request(method string) *line {
	r.t.Helper()
	return r.wait("request "+method, func(l *line) bool { return l.get("method") == method && l.get("id") != nil })
}

// update waits for a session/update of a kind whose fields match.
func (r *rig) update(kind string, fields map[string]any) *line {
	r.t.Helper()
	return r.wait(fmt.Sprintf("%s %v", kind, fields), func(l *line) bool {
		if l.get("method") != "session/update" || l.get("params.update.sessionUpdate") != kind {
			return false
		}
		for k, v := range fields {
			if fmt.Sprint(l.get("params.update."+k)) != fmt.Sprint(v) {
				return false
			}
		}
		return true
	})
}

// newSession opens a session and returns its id.
func (r *rig) newSession() string {
	r.t.Helper()
	res := r.result("session/new", map[string]any{"cwd": r.cwd, "mcpServers": []any{}})
	id, _ := res["sessionId"].(string)
	if id == "" {
		r.t.Fatalf("session/new gave no sessionId: %v", res)
	}
	// Its first update follows the answer in its own stream; waiting for
	// it keeps transcripts of several sessions (whose streams interleave)
	// in one order.
	// (The cursor stays: tests read that update themselves.)
	if l, _ := r.out.waitMatch(r.cursor, func(l *line) bool {
		return l.str("params.sessionId") == id && l.str("params.update.sessionUpdate") == "available_commands_update"
	}, waitLimit); l == nil {
		r.t.Fatalf("no available_commands_update of the new session within %s", waitLimit)
	}
	return id
}

// prompt sends a text prompt and returns its request id.
func (r *rig) prompt(sid, text string) int {
	r.t.Helper()
	return r.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}})
}

// answer replies to one of cairn's requests.
func (r *rig) answer(req *line, result any) {
	r.t.Helper()
	r.send(map[string]any{"jsonrpc": "2.0", "id": req.get("id"), "result": result})
}

// selected is a permission outcome choosing optionID.
func selected(optionID string) any {
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": optionID}}
}

// optionOfKind returns the id of the first permission option of kind.
func optionOfKind(t *testing.T, req *line, kind string) string {
	t.Helper()
	opts, _ := req.get("params.options").([]any)
	for _, o := range opts {
		o := o.(map[string]any)
		if o["kind"] == kind {
			return o["optionId"].(string)
		}
	}
	t.Fatalf("no option of kind %s in %s", kind, req.text)
	return ""
}

// line is one output line: its text and its parsed value.
type line struct {
	text  string
	value any
}

func (l *line) get(path string) any {
	v := l.value
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func (l *line) str(path string) string {
	s, _ := l.get(path).(string)
	return s
}

// lineSink collects output lines; anything that is not a JSON object is
// recorded as bad (stdout carries frames only).
type lineSink struct {
	mu      sync.Mutex
	partial []byte
	lines   []*line
	bad     []string
	changed chan struct{}
}

func newLineSink() *lineSink { return &lineSink{changed: make(chan struct{})} }

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		text := string(s.partial[:i])
		s.partial = s.partial[i+1:]
		var v any
		if json.Unmarshal([]byte(text), &v) != nil {
			s.bad = append(s.bad, text)
			continue
		}
		if _, ok := v.(map[string]any); !ok {
			s.bad = append(s.bad, text)
			continue
		}
		s.lines = append(s.lines, &line{text: text, value: v})
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return len(p), nil
}

func (s *lineSink) waitMatch(from int, match func(*line) bool, limit time.Duration) (*line, int) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		for i := from; i < len(s.lines); i++ {
			if match(s.lines[i]) {
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

func (s *lineSink) all() []*line {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*line(nil), s.lines...)
}

func (s *lineSink) dump(from int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for i := from; i < len(s.lines); i++ {
		b.WriteString(s.lines[i].text)
		b.WriteByte('\n')
	}
	for _, bad := range s.bad {
		b.WriteString("BAD: " + bad + "\n")
	}
	return b.String()
}

func (s *lineSink) badLines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bad...)
}
