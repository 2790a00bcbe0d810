package aionrs

import (
	"bufio"
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
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/core/toolset"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait for an output line.
const waitLimit = 15 * time.Second

// rigConfig describes a server under test.
type rigConfig struct {
	mode     approval.Mode
	faux     *faux.Provider
	maxTurns int
	maxFrame int
	history  []core.Message
	ticks    chan time.Time // keep-alive ticks; nil: none
	extra    []core.Tool    // tools besides cairn's built-in ones
	// checkpoints records the workspace's files around messages.
	checkpoints bool
}

// rig is a running Serve fed through a pipe, with its output lines.
type rig struct {
	t     *testing.T
	sess  *agent.Session
	gate  *approval.Gate
	dir   string
	in    *io.PipeWriter
	lines chan string
	done  chan error
	log   *syncBuffer
}

func newRig(t *testing.T, cfg rigConfig) *rig {
	t.Helper()
	dir := t.TempDir()
	if cfg.faux == nil {
		cfg.faux = faux.New(faux.Options{})
	}
	gate, err := approval.Open(approval.Config{Mode: cfg.mode, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// As cmd/cairn wires it: exit_plan_mode is declared only in plan mode.
	builtinTools := append(append(tools.New(dir), gate.ExitPlanTool()), cfg.extra...)
	builtin := toolset.Static(builtinTools)
	var cps *checkpoint.Store
	if cfg.checkpoints {
		if cps, err = checkpoint.Open(checkpoint.Options{Project: dir, Dir: t.TempDir()}); err != nil {
			t.Fatal(err)
		}
	}
	sess, err := agent.New(agent.Config{
		Checkpoints:  cps,
		Model:        faux.Model,
		Open:         func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: cfg.faux}, nil },
		Toolset:      toolset.FilterDeclared(builtin, gate.Declares),
		Approver:     gate,
		SystemPrompt: func([]core.Tool) string { return "You are a test assistant." },
		History:      cfg.history,
	})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &rig{t: t, sess: sess, gate: gate, dir: dir, in: inW, lines: make(chan string, 1024), done: make(chan error, 1), log: &syncBuffer{}}
	go func() {
		defer close(r.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
	}()
	h := Host{Session: sess, Approvals: gate, Tools: builtinTools, Dir: dir, SessionID: "test-session",
		MaxTurns: cfg.maxTurns, MaxFrameBytes: cfg.maxFrame, Log: r.log, KeepAlive: cfg.ticks}
	if h.KeepAlive == nil {
		h.KeepAlive = make(chan time.Time) // never ticks: tests see only the frames they cause
	}
	go func() {
		err := Serve(context.Background(), inR, outW, h)
		outW.Close()
		r.done <- err
	}()
	t.Cleanup(func() {
		r.close()
		sess.Close()
	})
	return r
}

// send writes one line (a newline is added).
func (r *rig) send(s string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, s+"\n"); err != nil {
		r.t.Fatalf("write to server: %v", err)
	}
}

// close ends the input, waits for Serve to return and checks that nothing
// was written after its last frame.
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

// frame is one output line, parsed.
type frame map[string]any

func (f frame) str(path string) string {
	s, _ := f.get(path).(string)
	return s
}

func (f frame) get(path string) any {
	var v any = map[string]any(f)
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// next returns the next frame; every output line must be a JSON object.
func (r *rig) next() frame {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatal("the output ended")
		}
		var f frame
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			r.t.Fatalf("output line is not a JSON object: %q", l)
		}
		return f
	case <-time.After(waitLimit):
		r.t.Fatalf("no output line within %s", waitLimit)
	}
	return nil
}

// expect returns the next frame, which must have type typ.
func (r *rig) expect(typ string) frame {
	r.t.Helper()
	f := r.next()
	if f.str("type") != typ {
		r.t.Fatalf("got %v, want a %s frame", f, typ)
	}
	return f
}

// until returns the frames up to and including the first of type typ.
func (r *rig) until(typ string) []frame {
	r.t.Helper()
	var out []frame
	for {
		f := r.next()
		out = append(out, f)
		if f.str("type") == typ {
			return out
		}
	}
}

// ready reads the ready frame that opens every run.
func (r *rig) ready() frame {
	r.t.Helper()
	return r.expect("ready")
}

// noMore checks that the output ends with nothing more once input ends.
func (r *rig) noMore() {
	r.t.Helper()
	if err := r.close(); err != nil {
		r.t.Fatalf("Serve: %v", err)
	}
	for l := range r.lines {
		r.t.Fatalf("unexpected output after the end: %s", l)
	}
}

func types(fs []frame) string {
	var ts []string
	for _, f := range fs {
		ts = append(ts, f.str("type"))
	}
	return strings.Join(ts, ",")
}

// text joins the text_delta frames.
func text(fs []frame) string {
	var b strings.Builder
	for _, f := range fs {
		if f.str("type") == "text_delta" {
			b.WriteString(f.str("text"))
		}
	}
	return b.String()
}

// countType counts frames of a type.
func countType(fs []frame, typ string) int {
	n := 0
	for _, f := range fs {
		if f.str("type") == typ {
			n++
		}
	}
	return n
}

// toolCall is a faux answer calling one tool.
func toolCall(id, name, args string) faux.Response {
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}}}
}

// requestText is everything a request sends as text, for checks on what
// the model saw.
func requestText(req *provider.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		switch m := m.(type) {
		case *core.UserMessage:
			b.WriteString(m.Text())
		case *core.ToolResultMessage:
			b.WriteString(m.Text())
		case *core.AssistantMessage:
			b.WriteString(m.Text())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// recorder is a faux step that records what the model was sent.
type recorder struct {
	mu   sync.Mutex
	seen []string
}

func (rec *recorder) step(answer string) faux.Step {
	return func(req *provider.Request) (faux.Response, error) {
		rec.mu.Lock()
		rec.seen = append(rec.seen, requestText(req))
		rec.mu.Unlock()
		return faux.Response{Text: answer}, nil
	}
}

func (rec *recorder) request(i int) string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if i >= len(rec.seen) {
		return fmt.Sprintf("<no request %d>", i)
	}
	return rec.seen[i]
}

// syncBuffer collects the log safely.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
