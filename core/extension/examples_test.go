package extension

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// examples is where the example extensions live.
const examples = "../../docs/examples/extensions"

// needTool skips a test when a language's tool is missing, except in CI.
func needTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is needed in CI: %v", name, err)
		}
		t.Skipf("%s is not installed", name)
	}
	return path
}

// exampleManager runs one example extension.
func exampleManager(t *testing.T, c Config, opts Options) (*Manager, *fakeHost) {
	t.Helper()
	fc := newFrameChecker(t)
	opts.Trace = fc.Check
	opts.Cwd = t.TempDir()
	m := New([]Config{c}, opts)
	h := newHost()
	m.Attach(h)
	m.Start()
	t.Cleanup(m.Close)
	waitReady(t, m)
	if f := m.Failures(); len(f) > 0 {
		t.Fatalf("failed to start: %+v", f)
	}
	return m, h
}

// BuildWordcount builds the Go example into dir.
func buildWordcount(t testing.TB, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "wordcount")
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = filepath.Join(examples, "wordcount")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the Go example: %v\n%s", err, b)
	}
	return out
}

func TestExampleGoTool(t *testing.T) {
	bin := buildWordcount(t, t.TempDir())
	m, _ := exampleManager(t, Config{Name: "wordcount", Command: bin}, Options{Mode: "print"})
	tool := m.Find("word_count")
	if tool == nil {
		t.Fatal("word_count is not offered")
	}
	var updates int
	text := strings.Repeat("one two three\n", 2500)
	res, err := tool.Execute(context.Background(), core.ToolCall{ID: "1", Name: "word_count", Arguments: mustJSON(map[string]string{"text": text})},
		func(core.ToolUpdate) { updates++ })
	if err != nil || res.IsError || core.PlainText(res.Content) != "7500 words, 2501 lines" || updates != 2 {
		t.Fatalf("word_count = %+v (%d updates), %v", res, updates, err)
	}
}

func TestExamplePythonCommand(t *testing.T) {
	python := needTool(t, "python3")
	script, _ := filepath.Abs(filepath.Join(examples, "greet.py"))
	t.Run("dialogs", func(t *testing.T) {
		m, h := exampleManager(t, Config{Name: "greet", Command: python, Args: []string{script}}, Options{Mode: "tui", UI: core.UIMethods})
		h.answer = func(q core.Question) (core.Answer, core.Outcome) {
			if q.Kind == core.QuestionSelect {
				return core.Answer{Value: "Ahoy"}, core.Answered
			}
			return core.Answer{Yes: true}, core.Answered
		}
		res, err := m.Interceptors()[0].Input(context.Background(), agent.InputEvent{Text: "/greet sailor"})
		if err != nil || res.Action != agent.InputHandled {
			t.Fatalf("input = %+v, %v", res, err)
		}
		ev := <-h.showCh
		if s, ok := ev.(core.StatusChanged); !ok || s.Text != "greeted sailor with Ahoy" {
			t.Errorf("shown %+v", ev)
		}
		if len(h.questions) != 2 || h.questions[0].Timeout.Seconds() != 60 || h.questions[1].Message != "Ahoy, sailor!" {
			t.Errorf("questions %+v", h.questions)
		}
	})
	t.Run("no UI", func(t *testing.T) {
		m, h := exampleManager(t, Config{Name: "greet", Command: python, Args: []string{script}}, Options{Mode: "print"})
		res, err := m.Interceptors()[0].Input(context.Background(), agent.InputEvent{Text: "/greet"})
		if err != nil || res.Action != agent.InputBlock || !strings.Contains(res.Reason, "no UI in this mode") || len(h.questions) != 0 {
			t.Fatalf("input = %+v, %v", res, err)
		}
	})
}

func TestExampleNodeGate(t *testing.T) {
	node := needTool(t, "node")
	script, _ := filepath.Abs(filepath.Join(examples, "guard.mjs"))
	rm := agent.ToolCallEvent{Call: core.ToolCall{ID: "1", Name: "bash", Arguments: json.RawMessage(`{"command":"rm -rf /tmp/x"}`)}}
	ls := agent.ToolCallEvent{Call: core.ToolCall{ID: "2", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}}
	t.Run("asks", func(t *testing.T) {
		m, h := exampleManager(t, Config{Name: "guard", Command: node, Args: []string{script}}, Options{Mode: "tui", UI: core.UIMethods})
		h.answer = func(core.Question) (core.Answer, core.Outcome) { return core.Answer{Value: "Block"}, core.Answered }
		ic := m.Interceptors()[0]
		if r, err := ic.ToolCall(context.Background(), rm); err != nil || r.Decision != agent.CallBlock || r.Reason != "Blocked by user" {
			t.Errorf("rm = %+v, %v", r, err)
		}
		h.answer = func(core.Question) (core.Answer, core.Outcome) { return core.Answer{Value: "Allow"}, core.Answered }
		if r, err := ic.ToolCall(context.Background(), rm); err != nil || r.Decision != agent.CallUndecided {
			t.Errorf("allowed rm = %+v, %v", r, err)
		}
		if r, err := ic.ToolCall(context.Background(), ls); err != nil || r.Decision != agent.CallUndecided || len(h.questions) != 2 {
			t.Errorf("ls = %+v, %v (%d questions)", r, err, len(h.questions))
		}
	})
	t.Run("no UI", func(t *testing.T) {
		m, h := exampleManager(t, Config{Name: "guard", Command: node, Args: []string{script}}, Options{Mode: "print"})
		r, err := m.Interceptors()[0].ToolCall(context.Background(), rm)
		if err != nil || r.Decision != agent.CallBlock || !strings.Contains(r.Reason, "no UI") || len(h.questions) != 0 {
			t.Errorf("rm = %+v, %v", r, err)
		}
	})
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
