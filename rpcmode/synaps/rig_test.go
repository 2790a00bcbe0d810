package synaps

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/tools"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait for an output line.
const waitLimit = 10 * time.Second

// rig is a running Serve over pipes, with a faux model.
type rig struct {
	t     testing.TB
	sess  *agent.Session
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

type rigConfig struct {
	faux       *faux.Provider
	maxFrame   int
	compaction agent.CompactionSettings
	models     Models
	mode       approval.Mode // the approval mode; "" is default
	cwd        string        // the working directory; "" is a new one
	extra      []core.Tool   // tools besides cairn's built-in ones
	// checkpoints records cwd's files around prompts.
	checkpoints bool
	// conversations replaces the in-memory conversations when set.
	conversations agent.Conversations
}

func newRig(t testing.TB, cfg rigConfig) *rig {
	t.Helper()
	cwd := cfg.cwd
	if cwd == "" {
		cwd = t.TempDir()
	}
	if cfg.faux == nil {
		cfg.faux = faux.New(faux.Options{})
	}
	compaction := cfg.compaction
	if compaction == (agent.CompactionSettings{}) {
		compaction = agent.DefaultCompaction
	}
	toolset := tools.New(cwd)
	gate, err := approval.Open(approval.Config{Mode: cfg.mode, Dir: cwd})
	if err != nil {
		t.Fatal(err)
	}
	var cps *checkpoint.Store
	if cfg.checkpoints {
		if cps, err = checkpoint.Open(checkpoint.Options{Project: cwd, Dir: t.TempDir()}); err != nil {
			t.Fatal(err)
		}
	}
	sess, err := agent.New(agent.Config{
		Checkpoints:   cps,
		Model:         faux.Model,
		Open:          func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: cfg.faux}, nil },
		Tools:         append(toolset, cfg.extra...),
		SystemPrompt:  func([]core.Tool) string { return "You are a test assistant." },
		Unattended:    true,
		Approver:      gate,
		Compaction:    compaction,
		Retry:         agent.RetrySettings{Enabled: false},
		Conversations: cfg.conversations,
	})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &rig{t: t, sess: sess, in: inW, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	h := Host{Session: sess, Tools: toolset, Models: cfg.models, MaxFrameBytes: cfg.maxFrame}
	go func() {
		err := Serve(context.Background(), inR, outW, h)
		outW.Close()
		r.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-r.done:
		case <-time.After(waitLimit):
			t.Error("Serve did not return after its input closed")
		}
		for range r.lines {
		}
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

// raw writes bytes as they are.
func (r *rig) raw(s string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, s); err != nil {
		r.t.Fatalf("write to server: %v", err)
	}
}

// frame is one decoded output line.
type frame map[string]any

func (f frame) str(key string) string { s, _ := f[key].(string); return s }

// event is the inner event of a message_update frame.
func (f frame) event() frame {
	e, _ := f["event"].(map[string]any)
	return frame(e)
}

// next returns the next output frame, failing after waitLimit.
func (r *rig) next() frame {
	r.t.Helper()
	select {
	case line, ok := <-r.lines:
		if !ok {
			r.t.Fatal("output ended")
		}
		var f frame
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			r.t.Fatalf("output line is not a JSON object: %q: %v", line, err)
		}
		return f
	case <-time.After(waitLimit):
		r.t.Fatal("no output frame within the time limit")
	}
	return nil
}

// until reads frames up to and including the first that match accepts,
// and returns them all.
func (r *rig) until(match func(frame) bool) []frame {
	r.t.Helper()
	var got []frame
	for {
		f := r.next()
		got = append(got, f)
		if match(f) {
			return got
		}
	}
}

// responseTo matches the response to command with id.
func responseTo(command, id string) func(frame) bool {
	return func(f frame) bool {
		return f.str("type") == "response" && f.str("command") == command && f.str("id") == id
	}
}

// ready reads the ready frame.
func (r *rig) ready() frame {
	r.t.Helper()
	f := r.next()
	if f.str("type") != "ready" {
		r.t.Fatalf("first frame is %v, want ready", f)
	}
	return f
}

// types lists the frames' types, message_update ones as their event type.
func types(fs []frame) string {
	var out []string
	for _, f := range fs {
		t := f.str("type")
		if t == "message_update" {
			t = f.event().str("type")
		}
		if t == "response" {
			t += "(" + f.str("command") + ")"
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

// closeInput ends stdin and waits for Serve's result.
func (r *rig) closeInput() error {
	r.t.Helper()
	r.in.Close()
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(waitLimit):
		r.t.Fatal("Serve did not return after its input closed")
	}
	return nil
}

// agentCompaction keeps almost nothing, so a short conversation compacts.
func agentCompaction() agent.CompactionSettings {
	return agent.CompactionSettings{Enabled: false, ReserveTokens: 1000, KeepRecentTokens: 1}
}

// rawLine returns the next output line as written.
func (r *rig) rawLine() string {
	r.t.Helper()
	select {
	case line, ok := <-r.lines:
		if !ok {
			r.t.Fatal("output ended")
		}
		return line
	case <-time.After(waitLimit):
		r.t.Fatal("no output line within the time limit")
	}
	return ""
}
