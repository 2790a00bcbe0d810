package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// fakeTool is a tool with a name and a category; it never runs.
type fakeTool struct {
	name string
	cat  core.ApprovalCategory
}

func (t fakeTool) Spec() core.ToolSpec             { return core.ToolSpec{Name: t.name} }
func (t fakeTool) Category() core.ApprovalCategory { return t.cat }
func (t fakeTool) Kind() core.ToolKind             { return core.KindOther }
func (t fakeTool) Execute(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
	return core.ToolResult{}, errors.New("fakeTool does not run")
}

var (
	bashTool = fakeTool{"bash", core.CategoryExec}
	editTool = fakeTool{"edit", core.CategoryEdit}
	readTool = fakeTool{"read", core.CategoryInfo}
	mcpTool  = fakeTool{"github_search", core.CategoryMCP}
)

func bashCall(cmd string) core.ToolCall { return call("bash", map[string]string{"command": cmd}) }
func editCall(p string) core.ToolCall   { return call("edit", map[string]string{"path": p}) }

func call(name string, args map[string]string) core.ToolCall {
	data, _ := json.Marshal(args)
	return core.ToolCall{ID: "call_1", Name: name, Arguments: data}
}

// answer is one scripted reply of fakeUI.
type answer struct {
	value string
	text  string // free text given with the answer
	ok    bool
	// block makes the dialog wait for its context to end, then give up.
	block bool
}

// fakeUI answers questions from a script and records what it was asked,
// as a session's asker does. started receives each question's title as it
// opens. A blocking answer waits for ctx or the question's timeout.
type fakeUI struct {
	mu      sync.Mutex
	answers []answer
	selects []core.Question
	inputs  []core.Question
	started chan string
}

func newFakeUI(answers ...answer) *fakeUI {
	return &fakeUI{answers: answers, started: make(chan string, 16)}
}

func pick(option Option) answer { return answer{value: string(option), ok: true} }

func typed(text string) answer { return answer{value: text, ok: true} }

// Ask implements core.Asker.
func (u *fakeUI) Ask(ctx context.Context, q core.Question) (core.Answer, core.Outcome) {
	u.mu.Lock()
	if q.Kind == core.QuestionSelect {
		u.selects = append(u.selects, q)
	} else {
		u.inputs = append(u.inputs, q)
	}
	if len(u.answers) == 0 {
		u.mu.Unlock()
		panic("fakeUI: unexpected question " + q.Title)
	}
	a := u.answers[0]
	u.answers = u.answers[1:]
	u.mu.Unlock()
	u.started <- q.Title
	if a.block {
		var expired <-chan time.Time
		if q.Timeout > 0 {
			expired = time.After(q.Timeout)
		}
		select {
		case <-ctx.Done():
			return core.Answer{}, core.Aborted
		case <-expired:
			return core.Answer{}, core.TimedOut
		}
	}
	if !a.ok {
		return core.Answer{}, core.Dismissed
	}
	return core.Answer{Value: a.value, Text: a.text}, core.Answered
}

// optionValues returns a select question's option values.
func optionValues(q core.Question) []Option {
	out := make([]Option, len(q.Options))
	for i, o := range q.Options {
		out[i] = Option(o.Value)
	}
	return out
}

func (u *fakeUI) asked() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.selects)
}

func (u *fakeUI) lastSelect() core.Question {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.selects[len(u.selects)-1]
}

func openGate(t *testing.T, cfg Config) *Gate {
	t.Helper()
	g, err := Open(cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return g
}

func TestModeAsksMatrix(t *testing.T) {
	cats := []core.ApprovalCategory{core.CategoryInfo, core.CategoryEdit, core.CategoryExec, core.CategoryMCP, "future"}
	want := map[Mode][]bool{
		ModeDefault:  {false, true, true, true, true},
		ModeAutoEdit: {false, false, true, true, true},
		ModeAuto:     {false, false, false, false, false},
		ModeYolo:     {false, false, false, false, false},
		"bogus":      {false, true, true, true, true},
	}
	for mode, asks := range want {
		for i, c := range cats {
			if got := mode.Asks(c); got != asks[i] {
				t.Errorf("%s asks for %s = %v, want %v", mode, c, got, asks[i])
			}
		}
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"default": ModeDefault, "auto_edit": ModeAutoEdit, " YOLO ": ModeYolo, "auto-edit": ModeAutoEdit, "auto": ModeAuto} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseMode("careful")
	if err == nil || !strings.Contains(err.Error(), `"careful"`) || !strings.Contains(err.Error(), "default, auto_edit, auto or yolo") {
		t.Errorf("ParseMode(careful) error = %v, want it to name the input and list the modes", err)
	}
	var m Mode
	if err := json.Unmarshal([]byte(`"auto_edit"`), &m); err != nil || m != ModeAutoEdit {
		t.Errorf("unmarshal mode = %q, %v", m, err)
	}
}

func TestGateModes(t *testing.T) {
	ctx := context.Background()
	ui := newFakeUI()
	g := openGate(t, Config{Mode: ModeYolo})
	for _, c := range []struct {
		tool core.Tool
		call core.ToolCall
	}{{bashTool, bashCall("rm -rf ~")}, {editTool, editCall("x")}, {mcpTool, call("github_search", nil)}} {
		if d := g.Check(ctx, c.tool, c.call, ui); !d.Allow || d.By != ByMode {
			t.Errorf("yolo %s: %+v", c.tool.Spec().Name, d)
		}
	}
	g.SetMode(ModeAutoEdit)
	if d := g.Check(ctx, editTool, editCall("x"), ui); !d.Allow || d.By != ByMode {
		t.Errorf("auto_edit edit: %+v", d)
	}
	g.SetMode(ModeDefault)
	if d := g.Check(ctx, readTool, call("read", map[string]string{"path": "/etc/passwd"}), ui); !d.Allow || d.By != ByMode {
		t.Errorf("default read: %+v", d)
	}
	if ui.asked() != 0 {
		t.Errorf("asked %d questions, want none", ui.asked())
	}
	if g.Mode() != ModeDefault {
		t.Errorf("Mode() = %s", g.Mode())
	}
}

func TestGateQuestionTitleAndOptions(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		tool        core.Tool
		call        core.ToolCall
		wantTitle   string
		wantOptions []Option
	}{
		{bashTool, bashCall("git status && make test"), "Allow bash: git status && make test?",
			[]Option{OptionAllowOnce, OptionAllowSession, OptionAllowAlways, OptionDeny, OptionDenyReason}},
		{bashTool, bashCall("$CMD --force"), "Allow bash: $CMD --force?",
			[]Option{OptionAllowOnce, OptionDeny, OptionDenyReason}},
		{editTool, editCall(filepath.Join(dir, "src", "main.go")), "Allow edit: src/main.go?",
			[]Option{OptionAllowOnce, OptionAllowSession, OptionAllowProject, OptionAllowAlways, OptionDeny, OptionDenyReason}},
		{editTool, editCall("/etc/hosts"), "Allow edit: /etc/hosts?",
			[]Option{OptionAllowOnce, OptionAllowSession, OptionAllowAlways, OptionDeny, OptionDenyReason}},
		{mcpTool, call("github_search", nil), "Allow github_search?",
			[]Option{OptionAllowOnce, OptionAllowSession, OptionAllowAlways, OptionDeny, OptionDenyReason}},
	}
	for _, tt := range tests {
		ui := newFakeUI(pick(OptionDeny))
		g := openGate(t, Config{Dir: dir, RulesFile: ProjectRulesFile(dir), Timeout: time.Minute})
		g.Check(context.Background(), tt.tool, tt.call, ui)
		req := ui.lastSelect()
		if req.Title != tt.wantTitle || !slices.Equal(optionValues(req), tt.wantOptions) || req.Timeout != time.Minute {
			t.Errorf("asked %q %q (timeout %v)\nwant %q %q", req.Title, optionValues(req), req.Timeout, tt.wantTitle, tt.wantOptions)
		}
		for _, o := range req.Options {
			if o.Label != Option(o.Value).Label() || o.Label == o.Value {
				t.Errorf("option %q has label %q", o.Value, o.Label)
			}
		}
		if req.Purpose != core.PurposeApproval || req.ToolCallID != tt.call.ID {
			t.Errorf("purpose %v, call %q", req.Purpose, req.ToolCallID)
		}
	}
}

func TestGateWithoutRulesFileDoesNotOfferAlways(t *testing.T) {
	ui := newFakeUI(pick(OptionDeny))
	g := openGate(t, Config{})
	g.Check(context.Background(), bashTool, bashCall("ls"), ui)
	if slices.Contains(optionValues(ui.lastSelect()), OptionAllowAlways) {
		t.Errorf("options %q offer %q with nowhere to save it", optionValues(ui.lastSelect()), OptionAllowAlways)
	}
}

func TestGateAllowOnceAsksAgain(t *testing.T) {
	ui := newFakeUI(pick(OptionAllowOnce), pick(OptionAllowOnce))
	g := openGate(t, Config{})
	for range 2 {
		d := g.Check(context.Background(), bashTool, bashCall("git status"), ui)
		if !d.Allow || d.By != ByPerson || d.Scope != ScopeOnce || d.Rules != nil {
			t.Fatalf("decision %+v", d)
		}
	}
	if ui.asked() != 2 {
		t.Errorf("asked %d times, want 2", ui.asked())
	}
}

func TestGateAllowForSession(t *testing.T) {
	ctx := context.Background()
	ui := newFakeUI(pick(OptionAllowSession), pick(OptionDeny))
	g := openGate(t, Config{})
	d := g.Check(ctx, bashTool, bashCall("git status && go test ./..."), ui)
	if !d.Allow || d.Scope != ScopeSession || !slices.Equal(d.Rules, prefix("git status", "go test")) {
		t.Fatalf("decision %+v", d)
	}
	for _, covered := range []string{"git status --short", "go test -race ./core/...", "go test ./x; git status"} {
		if d := g.Check(ctx, bashTool, bashCall(covered), ui); !d.Allow || d.By != ByRule || d.Scope != ScopeSession {
			t.Errorf("%q: %+v", covered, d)
		}
	}
	if ui.asked() != 1 {
		t.Errorf("asked %d times for covered commands", ui.asked())
	}
	if d := g.Check(ctx, bashTool, bashCall("git status && git push"), ui); d.Allow || ui.asked() != 2 {
		t.Errorf("git push was not asked about: %+v", d)
	}
	if got := g.Rules(ScopeSession); !slices.Equal(got, prefix("git status", "go test")) {
		t.Errorf("session rules %v", got)
	}
	if got := g.Rules(ScopeAlways); len(got) != 0 {
		t.Errorf("always rules %v", got)
	}
}

func TestGateEditRules(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ui := newFakeUI(pick(OptionAllowSession), pick(OptionAllowProject), pick(OptionDeny))
	g := openGate(t, Config{Dir: dir})
	if d := g.Check(ctx, editTool, editCall("src/main.go"), ui); !d.Allow || !slices.Equal(d.Rules, []Rule{{Tool: "edit", Path: "src/main.go"}}) {
		t.Fatalf("decision %+v", d)
	}
	if d := g.Check(ctx, editTool, editCall(filepath.Join(dir, "src/main.go")), ui); d.By != ByRule {
		t.Errorf("absolute path to the same file was asked about: %+v", d)
	}
	if d := g.Check(ctx, editTool, editCall("src/other.go"), ui); d.By != ByPerson || d.Scope != ScopeSession {
		t.Fatalf("other file: %+v", d)
	}
	if d := g.Check(ctx, editTool, editCall("docs/a/b.md"), ui); d.By != ByRule {
		t.Errorf("project rule did not cover docs/a/b.md: %+v", d)
	}
	if d := g.Check(ctx, editTool, editCall("../elsewhere.go"), ui); d.Allow {
		t.Errorf("project rule covered a file outside it: %+v", d)
	}
	if ui.asked() != 3 {
		t.Errorf("asked %d times, want 3", ui.asked())
	}
}

func TestGateAlwaysPersists(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := ProjectRulesFile(dir)
	ui := newFakeUI(pick(OptionAllowAlways), pick(OptionAllowAlways))
	g := openGate(t, Config{Dir: dir, RulesFile: file})
	if d := g.Check(ctx, bashTool, bashCall("git status"), ui); !d.Allow || d.Scope != ScopeAlways {
		t.Fatalf("decision %+v", d)
	}
	if d := g.Check(ctx, editTool, editCall("README.md"), ui); !d.Allow || d.Scope != ScopeAlways {
		t.Fatalf("decision %+v", d)
	}
	var saved rulesFile
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatalf("saved file is not JSON: %v\n%s", err, data)
	}
	want := []Rule{{Tool: "bash", Command: "git status"}, {Tool: "edit", Path: "README.md"}}
	if saved.Version != 1 || !slices.Equal(saved.Rules, want) {
		t.Errorf("saved %+v, want version 1 and %v", saved, want)
	}
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
		t.Errorf("files left in .cairn: %v", entries)
	}

	// A new gate, as in the next session, reads the rules and asks nothing.
	ui2 := newFakeUI()
	g2 := openGate(t, Config{Dir: dir, RulesFile: file})
	if d := g2.Check(ctx, bashTool, bashCall("git status --short"), ui2); !d.Allow || d.By != ByRule || d.Scope != ScopeAlways {
		t.Errorf("next session: %+v", d)
	}
	if d := g2.Check(ctx, editTool, editCall("README.md"), ui2); d.By != ByRule {
		t.Errorf("next session edit: %+v", d)
	}
	if !slices.Equal(g2.Rules(ScopeAlways), want) {
		t.Errorf("always rules %v", g2.Rules(ScopeAlways))
	}
}

func TestGateAlwaysKeepsRulesWrittenMeanwhile(t *testing.T) {
	dir := t.TempDir()
	file := ProjectRulesFile(dir)
	ui := newFakeUI(pick(OptionAllowAlways))
	g := openGate(t, Config{RulesFile: file})
	// Another cairn saves a rule after this gate opened.
	if err := saveRules(file, prefix("make lint")); err != nil {
		t.Fatal(err)
	}
	g.Check(context.Background(), bashTool, bashCall("ls"), ui)
	rules, err := loadRules(file)
	if err != nil || !slices.Equal(rules, prefix("make lint", "ls")) {
		t.Errorf("file holds %v, %v", rules, err)
	}
}

func TestGateCorruptRulesFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := ProjectRulesFile(dir)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	garbage := []byte(`{"version": 1, "rules": [{"tool": "bash", "comm`)
	if err := os.WriteFile(file, garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	ui := newFakeUI(pick(OptionAllowAlways))
	g, err := Open(Config{RulesFile: file})
	if !errors.Is(err, ErrCorruptRules) || !strings.Contains(err.Error(), file) {
		t.Fatalf("Open error = %v, want ErrCorruptRules naming the file", err)
	}
	if g == nil {
		t.Fatal("Open returned no gate")
	}
	d := g.Check(ctx, bashTool, bashCall("git status"), ui)
	if !d.Allow || d.Scope != ScopeSession {
		t.Errorf("always with a corrupt file: %+v, want allowed for the session", d)
	}
	if !strings.Contains(d.Warning, "session only") {
		t.Errorf("warning %q", d.Warning)
	}
	if data, _ := os.ReadFile(file); string(data) != string(garbage) {
		t.Errorf("corrupt file was overwritten with %s", data)
	}
	if d := g.Check(ctx, bashTool, bashCall("git status -s"), ui); d.By != ByRule {
		t.Errorf("session rule from a failed save: %+v", d)
	}
}

func TestOpenReportsBadRulesAndKeepsGoodOnes(t *testing.T) {
	dir := t.TempDir()
	file := ProjectRulesFile(dir)
	data := `{"version":1,"rules":[{"tool":"bash","command":"git status"},{"tool":"bash","command":"$X"},{"command":"ls"}]}`
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	ui := newFakeUI()
	g, err := Open(Config{RulesFile: file})
	if !errors.Is(err, ErrCorruptRules) {
		t.Errorf("Open error = %v", err)
	}
	if d := g.Check(context.Background(), bashTool, bashCall("git status"), ui); d.By != ByRule {
		t.Errorf("good rule ignored: %+v", d)
	}

	if err := os.WriteFile(file, []byte(fmt.Sprintf(`{"version":%d,"rules":[]}`, rulesFileVersion+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Config{RulesFile: file}); !errors.Is(err, ErrCorruptRules) || !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("newer version: %v", err)
	}
}

func TestGateDeny(t *testing.T) {
	ui := newFakeUI(pick(OptionDeny))
	g := openGate(t, Config{})
	d := g.Check(context.Background(), bashTool, bashCall("rm -rf build"), ui)
	if d.Allow || d.By != ByPerson || d.DenialText() != "The user denied this tool call." {
		t.Errorf("decision %+v, text %q", d, d.DenialText())
	}
}

func TestGateDenyWithReason(t *testing.T) {
	ui := newFakeUI(pick(OptionDenyReason), typed("  use make clean instead "))
	g := openGate(t, Config{})
	d := g.Check(context.Background(), bashTool, bashCall("rm -rf build"), ui)
	if d.Allow || d.By != ByPerson || d.Reason != "use make clean instead" {
		t.Fatalf("decision %+v", d)
	}
	if got, want := d.DenialText(), "The user denied this tool call: use make clean instead"; got != want {
		t.Errorf("DenialText = %q, want %q", got, want)
	}
	if len(ui.inputs) != 1 || !strings.Contains(ui.inputs[0].Title, "bash: rm -rf build") {
		t.Errorf("reason asked as %+v", ui.inputs)
	}
}

// A front end that already has the reason gives it with the choice, and
// the gate asks nothing more.
func TestGateDenyWithReasonGivenWithTheChoice(t *testing.T) {
	ui := newFakeUI(answer{value: string(OptionDenyReason), text: " use make clean ", ok: true})
	g := openGate(t, Config{})
	d := g.Check(context.Background(), bashTool, bashCall("rm -rf build"), ui)
	if d.Allow || d.By != ByPerson || d.Reason != "use make clean" || len(ui.inputs) != 0 {
		t.Fatalf("decision %+v, asked %d more questions", d, len(ui.inputs))
	}
}

func TestGateDenyWithDismissedReason(t *testing.T) {
	ui := newFakeUI(pick(OptionDenyReason), answer{})
	g := openGate(t, Config{})
	d := g.Check(context.Background(), bashTool, bashCall("rm -rf build"), ui)
	if d.Allow || d.By != ByPerson || d.Reason != "" {
		t.Errorf("decision %+v", d)
	}
}

func TestGateDismissedQuestionDenies(t *testing.T) {
	for _, a := range []answer{{}, typed("Allow everything forever")} {
		ui := newFakeUI(a)
		g := openGate(t, Config{})
		if d := g.Check(context.Background(), bashTool, bashCall("ls"), ui); d.Allow || d.By != ByPerson {
			t.Errorf("answer %+v: %+v", a, d)
		}
	}
	g := openGate(t, Config{})
	if d := g.Check(context.Background(), bashTool, bashCall("ls"), nil); d.Allow {
		t.Errorf("no UI: %+v", d)
	}
}

func TestGateCancelDenies(t *testing.T) {
	ui := newFakeUI(answer{block: true})
	g := openGate(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Decision)
	go func() { done <- g.Check(ctx, bashTool, bashCall("make deploy"), ui) }()
	waitFor(t, ui.started)
	cancel()
	select {
	case d := <-done:
		if d.Allow || d.By != ByAbort || d.DenialText() == "" {
			t.Errorf("decision %+v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Check did not return after cancel")
	}
}

func TestGateCancelledContextDoesNotAsk(t *testing.T) {
	ui := newFakeUI()
	g := openGate(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d := g.Check(ctx, bashTool, bashCall("ls"), ui); d.Allow || d.By != ByAbort {
		t.Errorf("decision %+v", d)
	}
}

func TestGateTimeoutDenies(t *testing.T) {
	ui := newFakeUI(answer{block: true})
	g := openGate(t, Config{Timeout: 20 * time.Millisecond})
	d := g.Check(context.Background(), bashTool, bashCall("make deploy"), ui)
	if d.Allow || d.By != ByTimeout || !strings.Contains(d.DenialText(), "in time") {
		t.Errorf("decision %+v, text %q", d, d.DenialText())
	}

	// A timeout while typing the reason denies too.
	ui = newFakeUI(pick(OptionDenyReason), answer{block: true})
	g = openGate(t, Config{Timeout: 20 * time.Millisecond})
	if d := g.Check(context.Background(), bashTool, bashCall("make deploy"), ui); d.Allow || d.By != ByTimeout {
		t.Errorf("reason timed out: %+v", d)
	}
}

func TestGateMCPRule(t *testing.T) {
	ui := newFakeUI(pick(OptionAllowSession))
	g := openGate(t, Config{})
	g.Check(context.Background(), mcpTool, call("github_search", map[string]string{"q": "a"}), ui)
	if d := g.Check(context.Background(), mcpTool, call("github_search", map[string]string{"q": "b"}), ui); d.By != ByRule {
		t.Errorf("decision %+v", d)
	}
}

func TestGateConcurrentChecks(t *testing.T) {
	answers := make([]answer, 16)
	for i := range answers {
		answers[i] = pick(OptionAllowSession)
	}
	ui := newFakeUI(answers...)
	g := openGate(t, Config{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			g.Check(context.Background(), bashTool, bashCall("git status"), ui)
			if i%2 == 0 {
				g.SetMode(ModeDefault)
			}
			g.Rules(ScopeSession)
		})
	}
	wg.Wait()
	if d := g.Check(context.Background(), bashTool, bashCall("git status"), ui); d.By != ByRule {
		t.Errorf("decision %+v", d)
	}
}

func TestDenialText(t *testing.T) {
	tests := []struct {
		d    Decision
		want string
	}{
		{Decision{Allow: true, By: ByPerson}, ""},
		{Decision{By: ByPerson}, "The user denied this tool call."},
		{Decision{By: ByPerson, Reason: "not now"}, "The user denied this tool call: not now"},
		{Decision{By: ByTimeout}, "The user did not answer the approval request in time, so this tool call was not run."},
		{Decision{By: ByAbort}, "This tool call was cancelled before the user approved it."},
	}
	for _, tt := range tests {
		if got := tt.d.DenialText(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.d, got, tt.want)
		}
	}
}

func waitFor(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("timed out waiting for a question")
		return ""
	}
}

// nobody is an asker with no one behind it, as an unattended session is.
type nobody struct{}

func (nobody) Ask(context.Context, core.Question) (core.Answer, core.Outcome) {
	return core.Answer{}, core.NoOneToAsk
}

// An MCP tool refused where nobody can be asked: the refusal names what
// allows it (yolo, or its server's rule), never auto_edit, which is set
// already and does not.
func TestUnattendedMCPRefusalNamesWhatAllowsIt(t *testing.T) {
	g := openGate(t, Config{Mode: ModeAutoEdit})
	tool := fakeTool{"mcp__everything__echo", core.CategoryMCP}
	text := g.Check(context.Background(), tool, call("mcp__everything__echo", nil), nobody{}).DenialText()
	if !strings.Contains(text, "--approval yolo") || !strings.Contains(text, `{"tool": "mcp__everything__*"}`) || strings.Contains(text, "auto_edit") {
		t.Errorf("refusal %q", text)
	}
}

func TestGateRefusesByPolicyWhenNoOneCanBeAsked(t *testing.T) {
	g := openGate(t, Config{})
	d := g.Check(context.Background(), bashTool, bashCall("make deploy"), nobody{})
	if d.Allow || d.By != ByPolicy {
		t.Fatalf("decision %+v", d)
	}
	text := d.DenialText()
	if !strings.HasPrefix(text, PolicyDenialPrefix) || !strings.Contains(text, "--approval yolo") || strings.Contains(text, "auto_edit") || IsDenial(text) {
		t.Errorf("DenialText = %q: want the policy wording, the flag that allows a command, and no claim that a person denied it", text)
	}
	// An edit is allowed by auto_edit, so the refusal says so.
	if d := g.Check(context.Background(), editTool, editCall("x"), nobody{}); !strings.Contains(d.DenialText(), "--approval auto_edit") {
		t.Errorf("edit refused: %q", d.DenialText())
	}
	// The mode still lets calls through that need no asking.
	if d := g.Check(context.Background(), readTool, call("read", map[string]string{"path": "x"}), nobody{}); !d.Allow {
		t.Errorf("info tool: %+v", d)
	}
}

// TestQuestionShowsTheRuleItWouldSave: the approval question says which
// rule "Allow for this session" and "Always allow" would remember, and the
// gate tells its Saved hook after writing the rules file, not before or
// for a session rule.
func TestQuestionShowsTheRuleItWouldSave(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := ProjectRulesFile(dir)
	saves := 0
	g := openGate(t, Config{Dir: dir, RulesFile: file, Saved: func() {
		if _, err := os.Stat(file); err != nil {
			t.Errorf("Saved ran before the rules file was written: %v", err)
		}
		saves++
	}})
	ui := newFakeUI(pick(OptionAllowSession), pick(OptionAllowAlways))
	g.Check(ctx, bashTool, bashCall("git diff HEAD"), ui)
	if got, want := ui.lastSelect().Message, "Remembering allows bash: git diff (plus safe options and operands)."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if saves != 0 {
		t.Errorf("a session rule called Saved %d times", saves)
	}
	g.Check(ctx, bashTool, bashCall("make lint"), ui)
	if saves != 1 {
		t.Errorf("Always allow called Saved %d times, want 1", saves)
	}
}

func TestGateDenyTool(t *testing.T) {
	ui := newFakeUI() // any question panics
	dir := t.TempDir()
	g := openGate(t, Config{Dir: dir})
	g.DenyTool("bash")
	g.DenyTool("edit")
	d := g.Check(context.Background(), bashTool, bashCall("ls"), ui)
	if d.Allow || d.By != ByRule || d.DenialText() != "The user denied this tool call." {
		t.Errorf("denied tool: %+v %q", d, d.DenialText())
	}
	// A protected file is denied too, without asking.
	if d := g.Check(context.Background(), editTool, editCall(filepath.Join(dir, "AGENTS.md")), ui); d.Allow {
		t.Errorf("denied tool on a protected file: %+v", d)
	}
	// What the mode does not ask about still runs.
	if d := g.Check(context.Background(), readTool, call("read", map[string]string{"path": "a"}), ui); !d.Allow {
		t.Errorf("read: %+v", d)
	}
	g.SetMode(ModeYolo)
	if d := g.Check(context.Background(), bashTool, bashCall("ls"), ui); !d.Allow || d.By != ByMode {
		t.Errorf("yolo asks about nothing, so nothing is denied: %+v", d)
	}
	if ui.asked() != 0 {
		t.Errorf("asked %d questions", ui.asked())
	}
}

func TestGateAllowMCPServer(t *testing.T) {
	g := openGate(t, Config{})
	search := fakeTool{"mcp__github__search", core.CategoryMCP}
	ui := newFakeUI(pick(OptionAllowServer), pick(OptionDeny), pick(OptionDeny))
	d := g.Check(context.Background(), search, call(search.name, nil), ui)
	if !d.Allow || d.Scope != ScopeSession || len(d.Rules) != 1 || d.Rules[0].Tool != "mcp__github__*" {
		t.Fatalf("allow server: %+v", d)
	}
	if !slices.Contains(optionValues(ui.lastSelect()), OptionAllowServer) {
		t.Errorf("options %v", optionValues(ui.lastSelect()))
	}
	// Every tool of the server runs now; other servers' tools, and a tool
	// whose name could be another server's, are still asked about.
	issues := fakeTool{"mcp__github__issues", core.CategoryMCP}
	if d := g.Check(context.Background(), issues, call(issues.name, nil), ui); !d.Allow || d.By != ByRule {
		t.Errorf("another tool of the server: %+v", d)
	}
	for _, name := range []string{"mcp__gitlab__search", "mcp__github__x__y"} {
		tool := fakeTool{name, core.CategoryMCP}
		if d := g.Check(context.Background(), tool, call(name, nil), ui); d.Allow {
			t.Errorf("%s: %+v", name, d)
		}
	}
	if ui.asked() != 3 {
		t.Errorf("asked %d questions, want 3", ui.asked())
	}
}

func TestMCPServerRuleOnlyForClearNames(t *testing.T) {
	for name, want := range map[string]string{
		"mcp__github__search":    "mcp__github__*",
		"mcp__github__a__b":      "",
		"mcp____x":               "",
		"mcp__github__":          "",
		"bash":                   "",
		"mcp__git*hub__search":   "",
		"mcp__my_srv__list_dirs": "mcp__my_srv__*",
	} {
		r, ok := MCPServerRule(name)
		if ok != (want != "") || r.Tool != want {
			t.Errorf("MCPServerRule(%q) = %q %v, want %q", name, r.Tool, ok, want)
		}
	}
}

// Rules saved before MCP tool names kept hyphens (mcp__sequential_thinking__*)
// still cover the tools of the server, now named as Claude Code names them;
// a rule with the hyphen covers no other server's tools.
func TestLegacyMCPRulesStillHold(t *testing.T) {
	for _, c := range []struct {
		rule, tool string
		want       bool
	}{
		{"mcp__sequential_thinking__*", "mcp__sequential-thinking__sequentialthinking", true},
		{"mcp__sequential_thinking__sequentialthinking", "mcp__sequential-thinking__sequentialthinking", true},
		{"mcp__sequential-thinking__*", "mcp__sequential-thinking__sequentialthinking", true},
		{"mcp__sequential-thinking__*", "mcp__sequential_thinking__sequentialthinking", false},
		{"mcp__other__*", "mcp__sequential-thinking__sequentialthinking", false},
	} {
		cr, err := compile(Rule{Tool: c.rule})
		if err != nil {
			t.Fatal(err)
		}
		if got := (ruleSet{cr}).covers(c.tool, core.CategoryMCP, ""); got != c.want {
			t.Errorf("rule %s covers %s: %v, want %v", c.rule, c.tool, got, c.want)
		}
	}
}

func FuzzMCPServerRule(f *testing.F) {
	f.Add("mcp__github__search", "mcp__github__issues")
	f.Add("mcp__a__b", "mcp__a__b__c")
	f.Add("mcp__a__b", "mcp__ab__c")
	f.Add("mcp__a_b__c", "mcp__a-b__d")
	f.Fuzz(func(t *testing.T, first, other string) {
		r, ok := MCPServerRule(first)
		if !ok {
			return
		}
		c, err := compile(r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if !c.coversServerTool(first) {
			t.Fatalf("the rule of %q does not cover it", first)
		}
		// It covers another name only when that name is the same
		// server's by the same reading.
		if c.coversServerTool(other) {
			o, ok := MCPServerRule(other)
			legacy := !strings.Contains(r.Tool, "-") && strings.ReplaceAll(o.Tool, "-", "_") == r.Tool
			if !ok || o != r && !legacy {
				t.Fatalf("the rule of %q (%s) covers %q", first, r.Tool, other)
			}
		}
	})
}

func TestRulesFileServerRule(t *testing.T) {
	dir := t.TempDir()
	file := ProjectRulesFile(dir)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"version":1,"rules":[{"tool":"mcp__github__*"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := openGate(t, Config{Dir: dir, RulesFile: file})
	ui := newFakeUI(pick(OptionDeny))
	search := fakeTool{"mcp__github__search", core.CategoryMCP}
	if d := g.Check(context.Background(), search, call(search.name, nil), ui); !d.Allow || d.Scope != ScopeAlways {
		t.Errorf("a tool of the server: %+v", d)
	}
	other := fakeTool{"mcp__gitlab__search", core.CategoryMCP}
	if d := g.Check(context.Background(), other, call(other.name, nil), ui); d.Allow {
		t.Errorf("another server's tool: %+v", d)
	}
	if r := (Rule{Tool: "mcp__github__*"}).String(); r != "every tool of the MCP server github (mcp__github__*)" {
		t.Errorf("String = %q", r)
	}
}
