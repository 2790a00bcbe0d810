package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
)

// This file holds plan mode (ModePlan): which calls it refuses before
// anything is asked, the exit_plan_mode tool, and the question that
// accepts a plan.
//
// In plan mode a call runs only if it cannot change anything: info tools
// (read, grep, find, ls, ...), MCP tools their server marks read-only
// (readOnlyHint), and bash running a line ReadOnlyCommand accepts. Every
// other call is refused unasked, with a result telling the model it is in
// plan mode. What is left is judged as in the mode plan mode was entered
// from (Gate.SetMode), so plan mode never lets through more than that
// mode would.

// ExitPlanModeTool is the name of the tool the model presents its plan
// with (Claude Code's name and shape: one "plan" argument, Markdown).
const ExitPlanModeTool = "exit_plan_mode"

// ByPlan: the call was refused because of plan mode (a call that may
// change something, or exit_plan_mode outside plan mode), or the person
// kept planning; Reason is what the model is told.
const ByPlan Decider = "plan"

// readOnlyRuleTool is the tool name the read-only rules are compiled
// under; no real tool has it.
const readOnlyRuleTool = "plan mode"

// readOnlyCommands are the rules plan mode lets bash lines through by:
// prefix rules for the programs known to just read their operands
// (operandsRead), with the safe options of extras.go, and git's and go's
// subcommands that only look. They are matched as any rule is, so the
// whole line must be covered: pipes, substitutions and `sh -c` included,
// no redirection to a file, no variable that changes what runs. They are
// compiled on first use, not at every start of cairn.
var readOnlyCommands = sync.OnceValue(func() ruleSet {
	var rules []Rule
	for name := range operandsRead {
		// The environment holds API keys; reading it is not exploring.
		if name != "printenv" {
			rules = append(rules, Rule{Tool: readOnlyRuleTool, Command: name})
		}
	}
	for _, c := range []string{"git status", "git diff", "git log", "git show", "git blame", "git grep",
		"git ls-files", "git rev-parse", "git shortlog", "git describe", "go version", "go doc"} {
		rules = append(rules, Rule{Tool: readOnlyRuleTool, Command: c})
	}
	for _, c := range []string{"git branch", "git branch --show-current", "git branch -a", "git branch -v", "git remote", "git remote -v", "git tag", "git tag -l"} {
		// Given operands these create branches, remotes and tags.
		rules = append(rules, Rule{Tool: readOnlyRuleTool, Command: c, Exact: true})
	}
	set, err := compileAll(rules)
	if err != nil {
		panic(err) // the list above is this package's own
	}
	return set
})

// ReadOnlyCommand reports whether every command line runs is certainly
// only reading: each simple command is one of the programs known to just
// read their operands (ls, cat, grep, rg, sort, ...) with options on its
// safe list, or a git subcommand that only looks (status, diff, log,
// show, ...), and the line writes no file, sets no variable that changes
// what runs, and runs nothing built at run time. A line it cannot
// understand is not read-only.
func ReadOnlyCommand(line string) bool {
	return readOnlyCommands().coversCommand(readOnlyRuleTool, line)
}

// planRefusal says why plan mode refuses a call before anything is asked,
// or "" when the call only reads and may go on to be judged.
func planRefusal(tool core.Tool, call core.ToolCall) string {
	name := toolName(tool, call)
	switch tool.Category() {
	case core.CategoryInfo:
		return ""
	case core.CategoryExec:
		command := stringArgument(call.Arguments, "command")
		if ReadOnlyCommand(command) {
			return ""
		}
		return fmt.Sprintf("cairn is in plan mode, where only commands that certainly just read run (such as ls, cat, grep, rg, git status, git diff or git log, with no output redirected to a file), and %q is not one of them, so it was not run. Explore with the read, grep, find and ls tools, and when you know what to change, present your plan with %s.", escape.Visible(command), ExitPlanModeTool)
	case core.CategoryMCP:
		if tool.Kind() == core.KindRead {
			return ""
		}
		return fmt.Sprintf("cairn is in plan mode, where only MCP tools their server marks read-only run, and %s is not one of them, so it was not run. When you know what to change, present your plan with %s.", name, ExitPlanModeTool)
	case core.CategoryNetwork:
		return networkPlanRefusal(name)
	}
	return fmt.Sprintf("cairn is in plan mode, where nothing is changed, so %s was not run. Explore with the read, grep, find and ls tools, and when you know what to change, present your plan with %s; once the user accepts it, you can make the changes.", name, ExitPlanModeTool)
}

// checkPlan decides the calls plan mode settles by itself: exit_plan_mode
// (in any mode), and in plan mode the calls that may change something.
// done is false when the call is left to the rest of Check.
func (g *Gate) checkPlan(ctx context.Context, tool core.Tool, call core.ToolCall, ask core.Asker) (d Decision, done bool) {
	mode := g.Mode()
	if exit, ok := tool.(*ExitPlanTool); ok && exit.gate == g {
		return g.checkExitPlan(ctx, mode, tool, call, ask), true
	}
	if mode != ModePlan {
		return Decision{}, false
	}
	if reason := planRefusal(tool, call); reason != "" && !g.planAllowsNetwork(tool, call) {
		return Decision{By: ByPlan, Reason: reason}, true
	}
	return Decision{}, false
}

// judging is the mode a call is judged by: the mode itself, or for
// ModePlan the mode it was entered from.
func (g *Gate) judging() Mode {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.mode == ModePlan {
		return g.before
	}
	return g.mode
}

// The options of the question that accepts a plan.
const (
	// OptionPlanDefault accepts the plan and goes on in ModeDefault.
	OptionPlanDefault Option = "plan_default"
	// OptionPlanAutoEdit accepts the plan and goes on in ModeAutoEdit.
	OptionPlanAutoEdit Option = "plan_auto_edit"
	// OptionPlanAuto accepts the plan and goes on in ModeAuto; offered
	// only when plan mode was entered from it.
	OptionPlanAuto Option = "plan_auto"
	// OptionPlanYolo accepts the plan and goes on in ModeYolo; offered
	// only when plan mode was entered from it.
	OptionPlanYolo Option = "plan_yolo"
	// OptionKeepPlanning refuses the plan: plan mode goes on, and the
	// person's feedback (the answer's Text, or asked for) is the tool
	// result.
	OptionKeepPlanning Option = "keep_planning"
)

// planOptions are the accepting options and the modes they go on in.
var planOptions = sync.OnceValue(func() map[Option]Mode {
	return map[Option]Mode{
		OptionPlanDefault: ModeDefault, OptionPlanAutoEdit: ModeAutoEdit, OptionPlanAuto: ModeAuto, OptionPlanYolo: ModeYolo,
	}
})

func init() {
	optionLabels()[OptionPlanDefault] = "Yes, and ask before edits and commands (default)"
	optionLabels()[OptionPlanAutoEdit] = "Yes, and edit files without asking (auto_edit)"
	optionLabels()[OptionPlanAuto] = "Yes, and run tools without asking, protected files aside (auto)"
	optionLabels()[OptionPlanYolo] = "Yes, and run everything without asking (yolo)"
	optionLabels()[OptionKeepPlanning] = "No, keep planning (tell the model what to change)"
}

// AcceptsPlan returns the mode an option accepting a plan goes on in; ok
// is false for any other option.
func (o Option) AcceptsPlan() (m Mode, ok bool) {
	m, ok = planOptions()[o]
	return m, ok
}

// PlanQuestion reports whether q is the question accepting a plan (its
// options are OptionPlanDefault and the like), for front ends that map
// approval options onto buttons of their own.
func PlanQuestion(q core.Question) bool {
	for _, o := range q.Options {
		if _, ok := Option(o.Value).AcceptsPlan(); ok {
			return true
		}
	}
	return false
}

// unattendedPlanReason is the result of exit_plan_mode where nobody can
// answer: the plan is not accepted, and the mode stays plan.
const unattendedPlanReason = "cairn is running where nobody can answer questions (print, json or synaps mode), so the plan cannot be accepted and cairn stays in plan mode. Give the plan as your answer instead; the user can run it again with --approval default or auto_edit."

// checkExitPlan asks the person to accept the plan of an exit_plan_mode
// call, outside plan mode refusing it. Accepting allows the call and
// records the chosen mode, which the tool switches to when it runs (after
// every call of the turn was judged in plan mode); keeping on planning
// refuses it with the person's feedback.
func (g *Gate) checkExitPlan(ctx context.Context, mode Mode, tool core.Tool, call core.ToolCall, ask core.Asker) Decision {
	if mode != ModePlan {
		return Decision{By: ByPlan, Reason: "cairn is not in plan mode (the user left it, or never entered it), so there is no plan to accept: go on with the task."}
	}
	args, err := core.CheckArguments(tool.Spec(), call.Arguments)
	if err != nil {
		return Decision{By: ByArguments, Reason: err.Error()}
	}
	plan := strings.TrimSpace(stringArgument(args, "plan"))
	if plan == "" {
		return Decision{By: ByArguments, Reason: ExitPlanModeTool + " needs the plan, as Markdown, in its plan argument."}
	}
	if ctx.Err() != nil {
		return Decision{By: ByAbort}
	}
	if ask == nil {
		return Decision{By: ByPolicy, Reason: unattendedPlanReason}
	}
	offered := []Option{OptionPlanDefault, OptionPlanAutoEdit}
	g.mu.Lock()
	switch g.before {
	case ModeAuto:
		offered = append(offered, OptionPlanAuto)
	case ModeYolo:
		offered = append(offered, OptionPlanYolo)
	}
	g.mu.Unlock()
	offered = append(offered, OptionKeepPlanning)
	opts := make([]core.Option, len(offered))
	for i, o := range offered {
		opts[i] = core.Option{Value: string(o), Label: o.Label()}
	}
	a, out := ask.Ask(ctx, core.Question{
		Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Accept this plan and leave plan mode?", Message: escape.VisibleLines(plan),
		Options: opts, ToolCallID: call.ID, Timeout: g.timeout,
	})
	if out != core.Answered {
		d := unanswered(ctx, out)
		if d.By == ByPolicy {
			d.Reason = unattendedPlanReason
		}
		return d
	}
	choice := Option(a.Value)
	if next, ok := choice.AcceptsPlan(); ok && slices.Contains(offered, choice) {
		g.mu.Lock()
		if g.exits == nil {
			g.exits = map[string]Mode{}
		}
		g.exits[call.ID] = next
		g.mu.Unlock()
		return Decision{Allow: true, By: ByPerson, Scope: ScopeOnce}
	}
	feedback := strings.TrimSpace(a.Text)
	if choice == OptionKeepPlanning && feedback == "" {
		fa, fout := ask.Ask(ctx, core.Question{
			Kind: core.QuestionInput, Purpose: core.PurposeDenyReason,
			Title: "What should change in the plan? (the model is told)", Hint: "what to change, or leave empty",
			ToolCallID: call.ID, Timeout: g.timeout,
		})
		if fout == core.Answered {
			feedback = strings.TrimSpace(fa.Value)
		}
	}
	return Decision{By: ByPlan, Reason: keepPlanningText(feedback)}
}

// keepPlanningText is what the model is told when the person keeps
// planning.
func keepPlanningText(feedback string) string {
	text := "The user did not accept the plan: cairn stays in plan mode. "
	if feedback == "" {
		return text + "Ask what they want changed, or revise the plan and present it again with " + ExitPlanModeTool + "."
	}
	return text + "Their feedback: " + feedback + "\nRevise the plan accordingly and present it again with " + ExitPlanModeTool + "."
}

// Declares reports whether the model is to be told about tool in the
// current mode, for a declarations-only view of the session's tools
// (toolset.FilterDeclared): in plan mode only the tools that may run there
// (info tools, bash, read-only MCP tools) and exit_plan_mode; in the other
// modes every tool but exit_plan_mode. A call of a tool not declared is
// still judged by Check, which says why it did not run.
func (g *Gate) Declares(tool core.Tool) bool {
	plan := g.Mode() == ModePlan
	if _, ok := tool.(*ExitPlanTool); ok {
		return plan
	}
	if !plan {
		return true
	}
	switch tool.Category() {
	case core.CategoryInfo, core.CategoryExec:
		return true
	case core.CategoryNetwork:
		// Declared so that hosts allowed before stay reachable; the
		// others are refused unasked.
		return true
	case core.CategoryMCP:
		return tool.Kind() == core.KindRead
	}
	return false
}

// ExitPlanTool is the exit_plan_mode tool of one gate: the model presents
// its plan with it, the gate's Check asks the person to accept it, and
// running it (only once accepted) switches the gate to the mode the person
// chose.
type ExitPlanTool struct{ gate *Gate }

// ExitPlanTool returns the gate's exit_plan_mode tool.
func (g *Gate) ExitPlanTool() *ExitPlanTool { return &ExitPlanTool{gate: g} }

var exitPlanParams = json.RawMessage(`{"type":"object","properties":{"plan":{"type":"string","description":"The plan, in Markdown: what you will change, file by file, in order, and how you will check the result. Concise, but complete enough to act on."}},"required":["plan"],"additionalProperties":false}`)

// Spec describes the tool to the model.
func (*ExitPlanTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: ExitPlanModeTool, Parameters: exitPlanParams,
		Description: "Present your plan to the user and ask to leave plan mode. Call it once you have explored enough to know what to change; the user either accepts the plan, and you then carry it out, or tells you what to change in it. Only for plans of changes to make: do not call it to answer a question or after only reading."}
}

// Category is info: the tool changes no file; the gate asks the person
// about every call all the same.
func (*ExitPlanTool) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is other.
func (*ExitPlanTool) Kind() core.ToolKind { return core.KindOther }

// Execute leaves plan mode for the mode the person chose when accepting
// this call's plan. A call nobody accepted changes nothing.
func (t *ExitPlanTool) Execute(_ context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	g := t.gate
	g.mu.Lock()
	next, ok := g.exits[call.ID]
	delete(g.exits, call.ID)
	if ok {
		g.mode = next
	}
	g.mu.Unlock()
	if !ok {
		return core.ErrorResult("The plan was not accepted, so cairn is still in plan mode."), nil
	}
	return core.TextResult(fmt.Sprintf("The user accepted the plan. cairn has left plan mode and is now in %s mode: %s. Carry out the plan now, step by step.", next, modeEffect(next))), nil
}

// modeEffect says what a mode lets the model do, for the result of an
// accepted plan.
func modeEffect(m Mode) string {
	switch m {
	case ModeAutoEdit:
		return "file edits in the project run without asking; commands still ask"
	case ModeAuto, ModeYolo:
		return "tools run without asking"
	}
	return "edits and commands ask the user first"
}
