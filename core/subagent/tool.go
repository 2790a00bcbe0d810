package subagent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// ToolName is the task tool's name, as Claude Code names it.
const ToolName = "task"

// Defaults of Options.
const (
	DefaultMaxParallel = 4
	DefaultTimeout     = 10 * time.Minute
	DefaultMaxTurns    = 50
	// MaxAnswerBytes bounds the child's answer the parent receives: the
	// first 50 KB (the whole answer stays in the child's transcript).
	MaxAnswerBytes = 50 * 1024
)

// Options tune a task tool. The zero value takes the defaults.
type Options struct {
	// Definitions are the agents the tool offers; nil means the built-in
	// ones only.
	Definitions *Set
	// MaxParallel bounds how many children one tool runs at once (more
	// calls wait for a slot); 0 means DefaultMaxParallel.
	MaxParallel int
	// Timeout bounds each child's run; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxTurns bounds each child's model answers; 0 means
	// DefaultMaxTurns.
	MaxTurns int
	// Cwd is the working directory children's transcripts record.
	Cwd string
	// Now is the clock for elapsed times; nil means time.Now.
	Now func() time.Time
}

// Tool is the task tool. One value serves any number of sessions: each
// call starts its child from the session that made it (agent.CallerOf).
type Tool struct {
	opts  Options
	slots chan struct{}
	spec  core.ToolSpec
}

// nextID numbers the subagents of the process (SubagentProgress.ID).
var nextID atomic.Uint64

// New returns the task tool.
func New(opts Options) *Tool {
	if opts.Definitions == nil {
		opts.Definitions = NewSet()
	}
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = DefaultMaxParallel
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxTurns <= 0 {
		opts.MaxTurns = DefaultMaxTurns
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	t := &Tool{opts: opts, slots: make(chan struct{}, opts.MaxParallel)}
	t.spec = spec(opts.Definitions)
	return t
}

// spec describes the tool, listing the agents it offers.
func spec(defs *Set) core.ToolSpec {
	var b strings.Builder
	b.WriteString("Hand a task to a subagent: a fresh agent with its own context window that works on it alone " +
		"and answers with a report, which is this call's result (it sees nothing of this conversation, so the " +
		"prompt must say everything it needs). Use it for searches and research that would fill your context, " +
		"or for independent pieces of work; several task calls in one answer run in parallel. " +
		"The subagent cannot ask you questions; its tool approvals go to the user.\n\nAvailable agents (subagent_type):")
	names := make([]string, 0)
	for _, d := range defs.All() {
		names = append(names, d.Name)
		fmt.Fprintf(&b, "\n- %s: %s", d.Name, oneLine(d.Description))
		if d.Tools != nil {
			fmt.Fprintf(&b, " (tools: %s)", strings.Join(d.Tools, ", "))
		}
	}
	enum, _ := json.Marshal(names)
	params := `{"type":"object","properties":{` +
		`"description":{"type":"string","description":"A short (3-5 word) description of the task"},` +
		`"prompt":{"type":"string","description":"The task for the subagent, with everything it needs to know"},` +
		`"subagent_type":{"type":"string","enum":` + string(enum) + `,"description":"Which agent does the task"}},` +
		`"required":["description","prompt","subagent_type"]}`
	return core.ToolSpec{Name: ToolName, Description: b.String(), Parameters: json.RawMessage(params)}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Spec describes the tool to the model.
func (t *Tool) Spec() core.ToolSpec { return t.spec }

// Category is info: starting a child changes nothing; each of the
// child's own calls is checked by the parent's gate.
func (*Tool) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is think, as editors show delegated work.
func (*Tool) Kind() core.ToolKind { return core.KindThink }

// Args are a task call's arguments.
type Args struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

// Execute runs the call's child to its end and returns its answer.
func (t *Tool) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	var a Args
	if err := json.Unmarshal(call.Arguments, &a); err != nil {
		return core.ErrorResult("task: the arguments are not valid: " + err.Error()), nil
	}
	def := t.opts.Definitions.Find(a.SubagentType)
	if def == nil {
		return core.ErrorResult(fmt.Sprintf("task: there is no agent %q; the agents are: %s", a.SubagentType, strings.Join(t.names(), ", "))), nil
	}
	if strings.TrimSpace(a.Prompt) == "" {
		return core.ErrorResult("task: the prompt is empty; say what the subagent should do"), nil
	}
	caller, ok := agent.CallerOf(ctx)
	if !ok {
		return core.ToolResult{}, fmt.Errorf("task: no session to start the subagent from")
	}
	select {
	case t.slots <- struct{}{}:
	case <-ctx.Done():
		return core.ErrorResult("The task was cancelled before it started."), nil
	}
	defer func() { <-t.slots }()
	c := &child{tool: t, def: *def, args: a, parent: caller.Session, callID: call.ID, update: update}
	return c.run(ctx), nil
}

func (t *Tool) names() []string {
	var out []string
	for _, d := range t.opts.Definitions.All() {
		out = append(out, d.Name)
	}
	return out
}

// Agents lists the definitions the tool can start, sorted by name, for
// front ends that show what was loaded.
func (t *Tool) Agents() []Definition { return t.opts.Definitions.All() }
