package approval

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestReadOnlyCommand(t *testing.T) {
	yes := []string{
		"ls -la", "cat a.go | grep -n func | sort | uniq -c", "git status", "git diff --stat HEAD",
		"git log --oneline -5", "rg -n foo src", "cd src && ls", "git branch", "git remote -v",
		"wc -l $(git ls-files)", "head -n 20 README.md; tail -5 go.mod", "grep -r TODO . || true",
		"git show HEAD:go.mod", "tree -L 2", "du -sh .", "diff a b", "jq .name package.json",
		"echo hi > /dev/null",
	}
	no := []string{
		"", "rm x", "ls > out", "sort -o f x", "git branch new", "git tag v1", "git remote add o u",
		"git push", "make", "printenv", "echo hi > f", "echo hi >> f", "sed -i s/a/b/ f",
		"find . -delete", "cat x | sh", "uniq a b", "tee f", "git diff --output=f",
		"PATH=/tmp ls", "bash -c 'rm x'", "ls; rm x", "eval ls", "date -s 2020-01-01",
		"rg --pre sh x", "tree -o f", "go build ./...", "npm test", "cat $(rm x)", "ls && touch x",
		"git checkout .", "git stash", "xargs rm < list", "cp a b", "mkdir d", "git -C x status",
		"cd sub && git status", "env GIT_DIR=x git status", "python3 -c 'print(1)'", "f() { ls; }; f",
	}
	for _, c := range yes {
		if !ReadOnlyCommand(c) {
			t.Errorf("ReadOnlyCommand(%q) = false, want true", c)
		}
	}
	for _, c := range no {
		if ReadOnlyCommand(c) {
			t.Errorf("ReadOnlyCommand(%q) = true, want false", c)
		}
	}
}

// FuzzReadOnlyCommand checks that a line accepted as read-only never
// writes a file, and that nothing panics.
func FuzzReadOnlyCommand(f *testing.F) {
	for _, s := range []string{"ls -la", "git status", "cat a | sort > f", "rm -rf x", "echo $(ls)", "sh -c 'ls'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !ReadOnlyCommand(line) {
			return
		}
		a := survey(line)
		for _, w := range a.writes {
			if w.path.text != "/dev/null" {
				t.Fatalf("ReadOnlyCommand(%q) accepted a line that writes %q", line, w.path.text)
			}
		}
		for _, c := range a.cmds {
			if len(c.args) > 0 && (exactPrograms()[c.args[0].text] || interpreters()[c.args[0].text] || shells()[c.args[0].text]) {
				t.Fatalf("ReadOnlyCommand(%q) accepted %q", line, c.args[0].text)
			}
		}
	})
}

// readOnlyMCP is an MCP tool its server marks read-only.
type readOnlyMCP struct{ fakeTool }

func (readOnlyMCP) Kind() core.ToolKind { return core.KindRead }

func planGate(t *testing.T, from Mode) *Gate {
	t.Helper()
	g, err := Open(Config{Mode: from, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	g.SetMode(ModePlan)
	return g
}

func TestPlanModeRefusesUnasked(t *testing.T) {
	g := planGate(t, ModeYolo)
	write := fakeTool{"write", core.CategoryEdit}
	for _, tc := range []struct {
		tool core.Tool
		call core.ToolCall
		want string
	}{
		{write, call("write", map[string]string{"path": "a.go", "content": "x"}), "nothing is changed"},
		{editTool, editCall("a.go"), "nothing is changed"},
		{bashTool, bashCall("rm -rf src"), "only commands that certainly just read"},
		{bashTool, bashCall("ls > listing"), "only commands that certainly just read"},
		{mcpTool, call("github_search", nil), "marks read-only"},
		{fakeTool{"task", "subagent"}, call("task", nil), "nothing is changed"},
	} {
		ui := newFakeUI() // any question panics
		d := g.Check(context.Background(), tc.tool, tc.call, ui)
		if d.Allow || d.By != ByPlan || !strings.Contains(d.DenialText(), tc.want) || !strings.Contains(d.DenialText(), "plan mode") {
			t.Errorf("%s %s: %+v, want a plan-mode refusal saying %q", tc.tool.Spec().Name, tc.call.Arguments, d, tc.want)
		}
		if ui.asked() != 0 {
			t.Errorf("%s: asked %d questions", tc.tool.Spec().Name, ui.asked())
		}
	}
}

func TestPlanModeJudgesReadsAsTheModeItCameFrom(t *testing.T) {
	// From yolo: read-only commands and read-only MCP tools run unasked.
	g := planGate(t, ModeYolo)
	for _, tc := range []struct {
		tool core.Tool
		call core.ToolCall
	}{
		{bashTool, bashCall("git status && ls")},
		{readTool, call("read", nil)},
		{readOnlyMCP{mcpTool}, call("github_search", nil)},
	} {
		if d := g.Check(context.Background(), tc.tool, tc.call, newFakeUI()); !d.Allow {
			t.Errorf("from yolo, %s: %+v, want allowed", tc.tool.Spec().Name, d)
		}
	}
	// From default: a read-only command still asks, as default does.
	g = planGate(t, ModeDefault)
	ui := newFakeUI(pick(OptionDeny))
	if d := g.Check(context.Background(), bashTool, bashCall("ls"), ui); d.Allow || d.By != ByPerson || ui.asked() != 1 {
		t.Errorf("from default, ls: %+v after %d questions, want asked and denied", d, ui.asked())
	}
	// A remembered rule for a command that writes does not hold in plan
	// mode.
	g = planGate(t, ModeDefault)
	g.remember([]Rule{{Tool: "bash", Command: "make"}})
	if d := g.Check(context.Background(), bashTool, bashCall("make"), newFakeUI()); d.Allow || d.By != ByPlan {
		t.Errorf("make under a rule: %+v, want refused by plan mode", d)
	}
}

func exitCall(id, plan string) core.ToolCall {
	data, _ := json.Marshal(map[string]string{"plan": plan})
	return core.ToolCall{ID: id, Name: ExitPlanModeTool, Arguments: data}
}

func TestExitPlanModeAccepted(t *testing.T) {
	g := planGate(t, ModeDefault)
	tool := g.ExitPlanTool()
	ui := newFakeUI(pick(OptionPlanAutoEdit))
	d := g.Check(context.Background(), tool, exitCall("c1", "1. Edit a.go\n2. Test"), ui)
	if !d.Allow {
		t.Fatalf("accepted plan: %+v", d)
	}
	q := ui.selects[0]
	if got := optionValues(q); !slices.Equal(got, []Option{OptionPlanDefault, OptionPlanAutoEdit, OptionKeepPlanning}) {
		t.Errorf("options %v", got)
	}
	if q.Purpose != core.PurposeApproval || q.ToolCallID != "c1" || !strings.Contains(q.Message, "1. Edit a.go\n2. Test") || !PlanQuestion(q) {
		t.Errorf("question %+v", q)
	}
	// Judged but not yet run: still plan mode, so the other calls of the
	// turn are judged in plan mode.
	if g.Mode() != ModePlan {
		t.Fatalf("mode %s before the tool ran", g.Mode())
	}
	if d := g.Check(context.Background(), editTool, editCall("a.go"), newFakeUI()); d.By != ByPlan {
		t.Errorf("edit in the same turn: %+v", d)
	}
	res, err := tool.Execute(context.Background(), exitCall("c1", "x"), nil)
	if err != nil || res.IsError || !strings.Contains(res.Content[0].Text, "auto_edit") {
		t.Fatalf("Execute: %+v, %v", res, err)
	}
	if g.Mode() != ModeAutoEdit {
		t.Fatalf("mode %s after accepting with auto_edit", g.Mode())
	}
	if d := g.Check(context.Background(), editTool, editCall("a.go"), newFakeUI()); !d.Allow {
		t.Errorf("edit after the plan was accepted in auto_edit: %+v", d)
	}
	// Running again (no acceptance recorded) changes nothing.
	g.SetMode(ModePlan)
	if res, _ := tool.Execute(context.Background(), exitCall("c1", "x"), nil); !res.IsError || g.Mode() != ModePlan {
		t.Errorf("unaccepted Execute: %+v, mode %s", res, g.Mode())
	}
}

func TestExitPlanModeOffersTheModeItCameFrom(t *testing.T) {
	for from, want := range map[Mode]Option{ModeAuto: OptionPlanAuto, ModeYolo: OptionPlanYolo} {
		g := planGate(t, from)
		ui := newFakeUI(pick(want))
		if d := g.Check(context.Background(), g.ExitPlanTool(), exitCall("c", "p"), ui); !d.Allow {
			t.Fatalf("from %s: %+v", from, d)
		}
		if !slices.Contains(optionValues(ui.selects[0]), want) {
			t.Errorf("from %s: options %v", from, optionValues(ui.selects[0]))
		}
	}
	// From default, yolo is not offered, and choosing it anyway keeps
	// planning.
	g := planGate(t, ModeDefault)
	ui := newFakeUI(pick(OptionPlanYolo))
	d := g.Check(context.Background(), g.ExitPlanTool(), exitCall("c", "p"), ui)
	if d.Allow || d.By != ByPlan {
		t.Errorf("unoffered yolo: %+v", d)
	}
}

func TestExitPlanModeKeepPlanning(t *testing.T) {
	g := planGate(t, ModeDefault)
	ui := newFakeUI(pick(OptionKeepPlanning), typed("also update the docs"))
	d := g.Check(context.Background(), g.ExitPlanTool(), exitCall("c", "p"), ui)
	if d.Allow || !strings.Contains(d.DenialText(), "also update the docs") || !strings.Contains(d.DenialText(), "stays in plan mode") {
		t.Errorf("keep planning: %+v / %q", d, d.DenialText())
	}
	if len(ui.inputs) != 1 || ui.inputs[0].Purpose != core.PurposeDenyReason {
		t.Errorf("feedback question: %+v", ui.inputs)
	}
	// Feedback given with the choice is not asked for again.
	ui = newFakeUI(answer{value: string(OptionKeepPlanning), text: "smaller steps", ok: true})
	d = g.Check(context.Background(), g.ExitPlanTool(), exitCall("c", "p"), ui)
	if !strings.Contains(d.DenialText(), "smaller steps") || len(ui.inputs) != 0 {
		t.Errorf("feedback with the choice: %q, %d inputs", d.DenialText(), len(ui.inputs))
	}
	if g.Mode() != ModePlan {
		t.Errorf("mode %s", g.Mode())
	}
}

// noOne is the asker of print and json modes.
type noOne struct{}

func (noOne) Ask(context.Context, core.Question) (core.Answer, core.Outcome) {
	return core.Answer{}, core.NoOneToAsk
}

func TestExitPlanModeUnattendedOrOutsidePlanMode(t *testing.T) {
	g := planGate(t, ModeDefault)
	d := g.Check(context.Background(), g.ExitPlanTool(), exitCall("c", "p"), noOne{})
	if d.Allow || !strings.Contains(d.DenialText(), "nobody can answer") || g.Mode() != ModePlan {
		t.Errorf("unattended: %+v, mode %s", d, g.Mode())
	}
	if d := g.Check(context.Background(), g.ExitPlanTool(), exitCall("c", ""), newFakeUI()); d.By != ByArguments {
		t.Errorf("empty plan: %+v", d)
	}
	g.SetMode(ModeDefault)
	d = g.Check(context.Background(), g.ExitPlanTool(), exitCall("c", "p"), newFakeUI())
	if d.Allow || !strings.Contains(d.DenialText(), "not in plan mode") {
		t.Errorf("outside plan mode: %+v", d)
	}
}

func TestDeclares(t *testing.T) {
	g := planGate(t, ModeDefault)
	exit := g.ExitPlanTool()
	declared := func() []string {
		var names []string
		for _, tool := range []core.Tool{readTool, bashTool, editTool, fakeTool{"write", core.CategoryEdit}, mcpTool, readOnlyMCP{fakeTool{"docs", core.CategoryMCP}}, exit} {
			if g.Declares(tool) {
				names = append(names, tool.Spec().Name)
			}
		}
		return names
	}
	if got := declared(); !slices.Equal(got, []string{"read", "bash", "docs", ExitPlanModeTool}) {
		t.Errorf("plan mode declares %v", got)
	}
	g.SetMode(ModeAutoEdit)
	if got := declared(); !slices.Equal(got, []string{"read", "bash", "edit", "write", "github_search", "docs"}) {
		t.Errorf("auto_edit declares %v", got)
	}
}

func TestParseModePlan(t *testing.T) {
	if m, err := ParseMode(" Plan "); err != nil || m != ModePlan {
		t.Errorf("ParseMode(plan) = %q, %v", m, err)
	}
	if _, err := ParseMode("planning"); err == nil || !strings.Contains(err.Error(), "plan, default") {
		t.Errorf("error %v", err)
	}
	if !ModePlan.Asks(core.CategoryExec) || ModePlan.Asks(core.CategoryInfo) {
		t.Error("plan asks as default does")
	}
}

// BenchmarkReadOnlyCommand measures plan mode's check of a typical
// exploring line.
func BenchmarkReadOnlyCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if !ReadOnlyCommand("git log --oneline -20 -- core/ | grep -i plan | sort | uniq -c") {
			b.Fatal("not read-only")
		}
	}
}
