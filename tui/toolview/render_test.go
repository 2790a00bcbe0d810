package toolview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/tools"
)

// The golden files are written with `go test ./tui/toolview -update`.

func TestMain(m *testing.M) {
	// chroma's regular expressions (regexp2) keep a shared clock goroutine
	// for match timeouts, which ends on its own a while after the last match.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}

// goSource is the file the read, write and edit cases work on.
const goSource = `package config

import (
	"fmt"
	"os"
)

// Config holds the settings of a run.
type Config struct {
	Name    string
	Retries int
	Verbose bool
}

// Load reads the configuration from the environment.
func Load() (Config, error) {
	c := Config{Name: "cairn", Retries: 3}
	if v := os.Getenv("CAIRN_VERBOSE"); v != "" {
		c.Verbose = true
	}
	if c.Retries < 0 {
		return Config{}, fmt.Errorf("retries must not be negative: %d", c.Retries)
	}
	return c, nil
}
`

// fixture is a working directory with files for the tools to work on.
type fixture struct {
	t   *testing.T
	dir string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"config.go":       goSource,
		"core/agent.go":   "package core\n\n// TODO: retry on overload\nfunc Run() {}\n\n// TODO: compact when full\n",
		"core/session.go": "package core\n\n// TODO: fsync at message ends\ntype Session struct{}\n",
		"README.md":       "# demo\n\nTODO: write the docs\n",
		"cmd/main.go":     "package main\n\nfunc main() {}\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{t, dir}
}

// run executes a real tool in the fixture and returns a finished call.
func (f *fixture) run(tool core.Tool, args string) Call {
	f.t.Helper()
	res, err := tool.Execute(context.Background(), core.ToolCall{ID: "c1", Name: tool.Spec().Name, Arguments: json.RawMessage(args)}, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return Call{ID: "c1", Name: tool.Spec().Name, Args: json.RawMessage(args), Result: &res, State: Done, Elapsed: 1200 * time.Millisecond}
}

// textResult is a finished result holding text and details.
func textResult(text string, isError bool, details any) *core.ToolResult {
	r := core.ToolResult{Content: []core.Content{core.TextBlock(text)}, IsError: isError}
	if details != nil {
		r.Details, _ = json.Marshal(details)
	}
	return &r
}

// numbered returns lines "prefix 1" to "prefix n".
func numbered(prefix string, n int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%s %d", prefix, i+1)
	}
	return strings.Join(lines, "\n")
}

type renderCase struct {
	name     string
	call     Call
	expanded bool
}

// renderCases are the calls drawn in the golden files: every tool in each
// state it can be in.
func renderCases(t *testing.T) []renderCase {
	f := newFixture(t)
	bashRan := func(cmd string) Call {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		return f.run(tools.NewBash(f.dir), string(args))
	}
	edit := `{"path":"config.go","edits":[{"oldText":"Retries: 3}","newText":"Retries: 5}"},` +
		`{"oldText":"\t\tc.Verbose = true\n","newText":"\t\tc.Verbose = v == \"1\"\n\t\tfmt.Fprintln(os.Stderr, \"verbose\")\n"}]}`
	preview, _, err := tools.EditPreview(f.dir, json.RawMessage(edit))
	if err != nil {
		t.Fatal(err)
	}
	content, _ := json.Marshal(goSource)
	writeArgs := []byte(`{"path":"internal/config/config.go","content":` + string(content) + `}`)
	editDone := f.run(tools.NewEdit(f.dir), edit)

	return []renderCase{
		{name: "bash_background", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"npm run dev","run_in_background":true}`), State: Done, Elapsed: 5 * time.Millisecond,
			Result: textResult("Started in the background as bash_1 (pid 4242). All its output goes to /tmp/cairn-bash-7.log.", false,
				tools.BackgroundDetails{ID: "bash_1", Command: "npm run dev", Pid: 4242, Running: true, Status: "running", OutputPath: "/tmp/cairn-bash-7.log"})}},
		{name: "bash_streaming", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"go test ./... -run Tes`), State: Streaming, Spinner: "⠋"}},
		{name: "bash_pending_multiline", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"cd core &&\ngo vet ./...\ngo test -race ./...\ngo test -bench . ./...\necho done\necho really done","timeout":120}`), State: Pending}},
		{name: "bash_running", call: Call{
			Name: "bash", Args: json.RawMessage(`{"command":"make test"}`), State: Running, Spinner: "⠙", Elapsed: 3200 * time.Millisecond,
			Partial: &core.ToolUpdate{Content: []core.Content{core.TextBlock(numbered("ok  \tgithub.com/cairn-dev/cairn/pkg", 12) + "\n")}, Details: json.RawMessage(`{}`)},
		}},
		{name: "bash_done", call: bashRan("seq 1 40")},
		{name: "bash_done_expanded", call: bashRan("seq 1 40"), expanded: true},
		{name: "bash_exit3", call: bashRan("seq 1 40; exit 3")},
		{name: "bash_exit3_expanded", call: bashRan("seq 1 40; exit 3"), expanded: true},
		{name: "bash_no_output", call: bashRan("true")},
		{name: "bash_timeout", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"sleep 10","timeout":2}`), State: Done, Elapsed: 2 * time.Second,
			Result: textResult("Command timed out after 2 seconds", true, map[string]any{})}},
		{name: "bash_truncated", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"seq 1 3000"}`), State: Done, Elapsed: 80 * time.Millisecond,
			Result: textResult(numbered("line", 2000)+"\n\n[Showing lines 1001-3000 of 3000. Full output: /tmp/cairn-bash-42.log]", false,
				tools.BashDetails{Truncation: &tools.Truncation{Truncated: true, TruncatedBy: tools.TruncatedByLines, TotalLines: 3000, OutputLines: 2000},
					FullOutputPath: "/tmp/cairn-bash-42.log"})}},
		{name: "bash_cancelled", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"npm install"}`), State: Cancelled, Elapsed: 5 * time.Second,
			Result: textResult("added 12 packages\n\nCommand aborted", true, map[string]any{})}},
		{name: "bash_denied", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"rm -rf build"}`), State: Denied,
			Result: textResult("The user denied this call: keep the build directory", true, nil)}},
		{name: "read_range", call: f.run(tools.NewRead(f.dir), `{"path":"config.go","offset":3,"limit":12}`)},
		{name: "read_whole_expanded", call: f.run(tools.NewRead(f.dir), `{"path":"config.go"}`), expanded: true},
		{name: "read_running", call: Call{Name: "read", Args: json.RawMessage(`{"path":"config.go","offset":10}`), State: Running, Spinner: "⠹", Elapsed: 10 * time.Millisecond}},
		{name: "read_image", call: Call{Name: "read", Args: json.RawMessage(`{"path":"shot.png"}`), State: Done,
			Result: &core.ToolResult{Content: []core.Content{core.TextBlock("Read image file [image/png]"), core.ImageBlock("iVBORw0KGgo=", "image/png")}}}},
		{name: "read_error", call: Call{Name: "read", Args: json.RawMessage(`{"path":"nope.go"}`), State: Done,
			Result: textResult("File not found: /work/project/nope.go", true, map[string]any{})}},
		{name: "write_pending", call: Call{Name: "write", Args: writeArgs, State: Pending}},
		{name: "write_streaming", call: Call{Name: "write", Args: writeArgs[:220], State: Streaming, Spinner: "⠸"}},
		{name: "write_done_expanded", call: Call{Name: "write", Args: writeArgs, State: Done, Elapsed: 3 * time.Millisecond,
			Result: textResult("Successfully wrote 520 bytes to internal/config/config.go", false, nil)}, expanded: true},
		{name: "edit_pending", call: Call{Name: "edit", Args: json.RawMessage(edit), PreviewDiff: preview, State: Pending}},
		{name: "edit_done", call: editDone},
		{name: "edit_preview_error", call: Call{Name: "edit", Args: json.RawMessage(`{"path":"config.go","edits":[{"oldText":"nope","newText":"yes"}]}`), State: Pending,
			PreviewError: "Could not find the exact text in config.go. The old text must match exactly including all whitespace and newlines."}},
		{name: "edit_streaming", call: Call{Name: "edit", Args: json.RawMessage(edit[:150]), State: Streaming, Spinner: "⠼"}},
		{name: "edit_failed", call: Call{Name: "edit", Args: json.RawMessage(`{"path":"config.go","edits":[{"oldText":"nope","newText":"yes"}]}`), State: Done,
			Result: textResult("Could not find the exact text in config.go. The old text must match exactly including all whitespace and newlines.", true, map[string]any{})}},
		{name: "grep", call: f.run(tools.NewGrep(f.dir), `{"pattern":"TODO","ignoreCase":true}`)},
		{name: "grep_limit", call: f.run(tools.NewGrep(f.dir), `{"pattern":"TODO","path":"core","limit":2}`)},
		{name: "grep_context", call: f.run(tools.NewGrep(f.dir), `{"pattern":"fsync","glob":"*.go","context":1}`)},
		{name: "grep_none", call: f.run(tools.NewGrep(f.dir), `{"pattern":"zebra"}`)},
		{name: "find", call: f.run(tools.NewFind(f.dir), `{"pattern":"*.go"}`)},
		{name: "ls", call: f.run(tools.NewLs(f.dir), `{"path":"core"}`)},
		{name: "ls_running", call: Call{Name: "ls", Args: json.RawMessage(`{}`), State: Running, Spinner: "⠴"}},
		{name: "generic", call: Call{Name: "mcp_github_search_issues", Args: json.RawMessage(`{"repo": "cairn-dev/cairn", "query": "flicker", "state": "open"}`), State: Done, Elapsed: 900 * time.Millisecond,
			Result: textResult(numbered("#", 14), false, nil)}},
		{name: "generic_streaming", call: Call{Name: "web_fetch", Args: json.RawMessage(`{"url":"https://example.com/a\u00e9b`), State: Streaming}},
		{name: "todo_write", call: Call{Name: tools.TodoWriteName, Args: json.RawMessage(todoArgs), State: Done, Elapsed: 3 * time.Millisecond,
			Result: textResult("Todo list updated: 1 of 3 completed. Keep it current as you work.", false, nil)}},
		{name: "plan_refused", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"rm -rf build"}`), State: Denied, RefusedBy: "plan mode",
			Reason: "Not run: plan mode runs only what reads. Accept the model's plan to make changes, or leave plan mode with shift+tab.",
			Result: textResult("cairn is in plan mode, where only commands that certainly just read run", true, nil)}},
		{name: "plan_accepted", call: Call{Name: "exit_plan_mode", Args: json.RawMessage(`{"plan":"1. Add a flag\n2. Test it"}`), State: Done,
			Result: textResult("The user accepted the plan. cairn has left plan mode and is now in auto_edit mode: edits run unasked. Carry out the plan now, step by step.", false, nil)}},
		{name: "bash_sandbox_denied", call: Call{Name: "bash", Args: json.RawMessage(`{"command":"touch /etc/cairn"}`), State: Done, Elapsed: 40 * time.Millisecond,
			Result: textResult("touch: cannot touch '/etc/cairn': Permission denied\n\nCommand exited with code 1\n\n"+
				"blocked by the sandbox: write to /etc/cairn (allowed: project, /tmp)\n"+sandboxRetryLine, true, nil)}},
	}
}

func TestRenderGolden(t *testing.T) {
	for _, c := range renderCases(t) {
		for _, width := range []int{80, 120} {
			t.Run(fmt.Sprintf("%s_w%d", c.name, width), func(t *testing.T) {
				out := Render(c.call, width, DefaultStyles(), c.expanded)
				for i, line := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(line); w != width {
						t.Errorf("line %d is %d cells wide, want %d: %q", i, w, width, ansi.Strip(line))
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

// todoArgs is a todo_write call's arguments: one item done, one in
// progress, one to do.
const todoArgs = `{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},` +
	`{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},` +
	`{"content":"Run the tests","status":"pending","activeForm":"Running the tests"}]}`

// TestViewsForPeople: the calls whose results are written for the model
// show what a person needs instead: the task list, plan mode's refusal,
// the accepted plan, the sandbox's denial with what would allow it.
func TestViewsForPeople(t *testing.T) {
	cases := map[string]struct{ want, not []string }{
		"todo_write":          {want: []string{"tasks · 1/3 done", "✓ Read the code", "▸ Fixing the bug", "○ Run the tests"}, not: []string{"Keep it current", `"status"`}},
		"plan_refused":        {want: []string{"plan mode", "leave plan mode with shift+tab"}, not: []string{"certainly just read"}},
		"plan_accepted":       {want: []string{"1. Add a flag", "Accepted: cairn is now in auto_edit mode."}, not: []string{"Carry out the plan"}},
		"bash_sandbox_denied": {want: []string{"⊘ sandbox blocked write to /etc/cairn (allowed: project, /tmp)", "allowWrite", "exit 1"}, not: []string{"dangerouslyDisableSandbox"}},
	}
	for _, c := range renderCases(t) {
		tc, ok := cases[c.name]
		if !ok {
			continue
		}
		delete(cases, c.name)
		out := ansi.Strip(Render(c.call, 120, DefaultStyles(), false))
		flat := strings.Join(strings.Fields(out), " ")
		for _, w := range tc.want {
			if !strings.Contains(flat, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, out)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: model-facing %q shown:\n%s", c.name, n, out)
			}
		}
	}
	for name := range cases {
		t.Errorf("no render case %s", name)
	}
}

// TestSandboxNotesOfExplain holds the recognition of the sandbox's notes
// to what sandbox.Policy.Explain writes.
func TestSandboxNotesOfExplain(t *testing.T) {
	p := sandbox.Policy{Project: "/work/p"}
	note := p.Explain("touch: cannot touch '/etc/x': Permission denied", "/work/p", "/home/u")
	if note == "" {
		t.Fatal("Explain found nothing")
	}
	_, denials := takeSandboxNotes("out\n\n" + note + "\n" + sandboxRetryLine)
	if len(denials) != 1 || !strings.Contains(denials[0].what, "/etc/x") {
		t.Fatalf("denials %+v from %q", denials, note)
	}
}

func FuzzTakeSandboxNotes(f *testing.F) {
	f.Add("x\n\nblocked by the sandbox: write to /a (allowed: project)\n" + sandboxRetryLine)
	f.Add("blocked by the sandbox: a network connection (network: off)")
	f.Fuzz(func(t *testing.T, s string) {
		rest, denials := takeSandboxNotes(s)
		if len(rest) > len(s) {
			t.Errorf("%q grew to %q", s, rest)
		}
		for _, d := range denials {
			if d.allow == "" {
				t.Errorf("%q: a denial with no way to allow it", s)
			}
		}
	})
}

// TestLongCommandWholeAndOnce: a command too long for the header stays
// readable whole after it ran (collapsed, within a few lines), and
// expanding shows it once, not a cut header and then the whole again.
func TestLongCommandWholeAndOnce(t *testing.T) {
	cmd := "go test ./core/agent/ ./core/session/ ./rpcmode/acp/ -run 'TestResume|TestListAndResume|TestUnpromptedSessionIsStored' -count=1 -race"
	args, _ := json.Marshal(map[string]string{"command": cmd})
	c := Call{Name: "bash", Args: args, State: Done, Elapsed: time.Second, Result: textResult("ok", false, nil)}
	for _, expanded := range []bool{false, true} {
		out := ansi.Strip(Render(c, 80, DefaultStyles(), expanded))
		var words []string
		for _, l := range strings.Split(out, "\n") {
			words = append(words, strings.Fields(l)...)
		}
		flat := strings.ReplaceAll(strings.Join(words, " "), " 1.0s", "")
		if !strings.Contains(flat, cmd) {
			t.Errorf("expanded=%v: the command is not shown whole:\n%s", expanded, out)
		}
		if n := strings.Count(out, "TestListAndResume"); n != 1 {
			t.Errorf("expanded=%v: the command shows %d times:\n%s", expanded, n, out)
		}
		if strings.Contains(out, "…") {
			t.Errorf("expanded=%v: the command is cut:\n%s", expanded, out)
		}
	}
}

// TestPlanKeepsAngleBrackets: a plan naming "<name>" is not rendered as
// markdown, which would drop it as HTML.
func TestPlanKeepsAngleBrackets(t *testing.T) {
	md := func(string, int) string { return "rendered" }
	c := Call{Name: "exit_plan_mode", Args: json.RawMessage(`{"plan":"1. Print \"Hello, <name>!\""}`), State: Pending, RenderMarkdown: md}
	if out := ansi.Strip(Render(c, 80, DefaultStyles(), false)); !strings.Contains(out, "Hello, <name>!") {
		t.Errorf("the plan lost its <name>:\n%s", out)
	}
	c.Args = json.RawMessage(`{"plan":"1. **Add** a flag"}`)
	if out := ansi.Strip(Render(c, 80, DefaultStyles(), false)); !strings.Contains(out, "rendered") {
		t.Errorf("the plan is not rendered:\n%s", out)
	}
}
