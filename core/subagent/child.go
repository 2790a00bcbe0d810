package subagent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/toolset"
)

// child is one task call's subagent, from start to answer.
type child struct {
	tool   *Tool
	def    Definition
	args   Args
	parent *agent.Session
	callID string
	update func(core.ToolUpdate)

	start      time.Time
	prog       core.SubagentProgress
	model      string
	transcript string
	// note says what the child's run should tell the parent besides its
	// answer (a model it could not use).
	note string

	// announced holds, per call id of the child's, a channel closed once
	// the call's start has been reported as progress (see childGate).
	mu        sync.Mutex
	announced map[string]chan struct{}
}

// announcedCh returns the channel closed once the child's call id has
// been reported.
func (c *child) announcedCh(id string) chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.announced == nil {
		c.announced = map[string]chan struct{}{}
	}
	ch, ok := c.announced[id]
	if !ok {
		ch = make(chan struct{})
		c.announced[id] = ch
	}
	return ch
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// maxAnnounceWait bounds how long a child's approval waits for its call's
// start to be reported first.
const maxAnnounceWait = time.Second

// Details are a task call's result details, and (with Status and Step)
// its progress updates' details.
type Details struct {
	SubagentID uint64 `json:"subagentId"`
	Agent      string `json:"agent"`
	Task       string `json:"task"`
	Model      string `json:"model,omitempty"`
	Status     string `json:"status"`
	Step       string `json:"step,omitempty"`
	Turns      int    `json:"turns"`
	// Usage is what the child's answers cost; agent.MessageUsage adds it
	// to the parent's totals.
	Usage     core.Usage `json:"usage"`
	ElapsedMs int64      `json:"elapsedMs"`
	// Transcript is the child's session file, beside the parent's; empty
	// when the parent keeps no file.
	Transcript string `json:"transcript,omitempty"`
	// Truncated says the answer was cut at MaxAnswerBytes.
	Truncated bool `json:"truncated,omitempty"`
	// Stopped says why the child was stopped before it finished:
	// "timeout", "turns" or "aborted".
	Stopped string `json:"stopped,omitempty"`
}

// run starts the child, follows it to its end, and returns the result the
// parent's model reads.
func (c *child) run(ctx context.Context) core.ToolResult {
	c.start = c.tool.opts.Now()
	c.prog = core.SubagentProgress{ID: nextID.Add(1), Agent: c.def.Name, Task: c.args.Description,
		Status: core.SubagentStarted, Step: "starting"}
	// Started comes first whatever follows, so a host sees every child's
	// start before its done.
	c.send(nil)
	cfg, err := c.config()
	if err != nil {
		return c.finish(core.ErrorResult("task: "+err.Error()), "")
	}
	sess, err := agent.New(cfg)
	if err != nil {
		return c.finish(core.ErrorResult("task: cannot start the subagent: "+err.Error()), "")
	}
	defer sess.Close()
	events, stop := sess.Subscribe()
	defer stop()
	runCtx, cancel := context.WithTimeout(ctx, c.tool.opts.Timeout)
	defer cancel()
	if err := sess.Prompt(c.args.Prompt, nil, agent.BehaviorNone); err != nil {
		return c.finish(core.ErrorResult("task: the subagent did not start: "+err.Error()), "")
	}
	stopped := c.follow(runCtx, ctx, sess, events)
	return c.finish(c.answer(sess, stopped), stopped)
}

// config is the child's session configuration: the parent's, narrowed.
func (c *child) config() (agent.Config, error) {
	cfg := c.parent.ChildConfig()
	def := c.def
	cfg.Toolset = toolset.Filter(cfg.Toolset, func(t core.Tool) bool { return def.keeps(t.Spec().Name) })
	if cfg.Approver != nil {
		cfg.Approver = childGate{parent: cfg.Approver, child: c, ask: labelledAsker{parent: c.parent, label: c.label(), callID: c.callID}}
	}
	c.resolveModel(&cfg)
	if def.Thinking != "" {
		cfg.Thinking = agent.ClampThinking(cfg.Model, def.Thinking)
	}
	c.model = cfg.Model.Provider + "/" + cfg.Model.ID
	addPrompt(&cfg, def)
	convs, path, err := transcript(c.parent, c.tool.opts.Cwd, c.callID)
	if err != nil {
		return cfg, err
	}
	cfg.Conversations, c.transcript = convs, path
	return cfg, nil
}

// resolveModel sets the definition's model, or keeps the parent's (with a
// note) when it names none cairn knows.
func (c *child) resolveModel(cfg *agent.Config) {
	name := strings.TrimSpace(c.def.Model)
	if name == "" || name == "inherit" {
		return
	}
	prov, id, ok := strings.Cut(name, "/")
	if !ok {
		prov, id = cfg.Model.Provider, name
	}
	if cfg.FindModel != nil {
		if m, err := cfg.FindModel(prov, id); err == nil {
			if _, err := cfg.Open(m); err == nil {
				cfg.Model = m
				return
			}
		}
	}
	c.note = fmt.Sprintf("(The agent's model %q is not available, so it ran on %s/%s.)", name, cfg.Model.Provider, cfg.Model.ID)
}

// addPrompt adds the definition's instructions to the system prompt.
func addPrompt(cfg *agent.Config, def Definition) {
	text := "# You are the subagent " + def.Name + "\n\n" + strings.TrimSpace(def.Prompt)
	if sections := cfg.SystemSections; sections != nil {
		cfg.SystemSections = func(tools []core.Tool) []core.PromptSection {
			return append(sections(tools), core.PromptSection{Name: "agent", Text: text})
		}
		return
	}
	prompt := cfg.SystemPrompt
	cfg.SystemPrompt = func(tools []core.Tool) string {
		if p := prompt(tools); p != "" {
			return p + "\n\n" + text
		}
		return text
	}
}

// label names the subagent in its questions: its agent and task.
func (c *child) label() string {
	return escape.Visible(fmt.Sprintf("subagent %s (%s)", c.def.Name, oneLine(c.args.Description)))
}

// follow reports the child's events as progress until it settles. It
// stops the child when runCtx ends (its time limit, or the parent's
// abort: parent says which) or at its turn limit, and says why.
func (c *child) follow(runCtx, parent context.Context, sess *agent.Session, events <-chan core.Event) (stopped string) {
	done := runCtx.Done()
	turns := 0
	for {
		var e core.Event
		select {
		case e = <-events:
		case <-done:
			done = nil
			stopped = "timeout"
			if parent.Err() != nil {
				stopped = "aborted"
			}
			sess.Abort()
			continue
		}
		switch e := e.(type) {
		case core.TurnStart:
			turns++
			if turns > c.tool.opts.MaxTurns && stopped == "" {
				stopped = "turns"
				sess.Abort()
				continue
			}
			c.prog.Status, c.prog.Step = core.SubagentAnswering, "answering"
			c.send(e)
		case core.MessageEnd:
			if a, ok := e.Message.(*core.AssistantMessage); ok {
				c.prog.Turns++
				c.prog.Usage = c.prog.Usage.Add(a.Usage)
				c.send(e)
			}
		case core.ToolExecutionStart:
			c.prog.Status, c.prog.Step = core.SubagentToolCall, StepOf(e.ToolName, e.Args)
			c.send(e)
			// Only this goroutine closes; a call id used again is
			// already announced.
			if ch := c.announcedCh(e.ToolCallID); !isClosed(ch) {
				close(ch)
			}
		case core.ToolExecutionEnd:
			c.send(e)
		case core.Settled:
			return stopped
		}
	}
}

// answer is the parent's result: the child's last answer, bounded, or
// why there is none.
func (c *child) answer(sess *agent.Session, stopped string) core.ToolResult {
	text, failed := lastAnswer(sess.Messages())
	why := map[string]string{
		"timeout": fmt.Sprintf("The subagent was stopped at its time limit (%s).", c.tool.opts.Timeout),
		"turns":   fmt.Sprintf("The subagent was stopped at its turn limit (%d answers).", c.tool.opts.MaxTurns),
		"aborted": "The task was aborted.",
	}[stopped]
	if why != "" {
		failed = true
		if text != "" {
			text = why + " Its last answer:\n\n" + text
		} else {
			text = why
		}
	}
	if text == "" {
		text, failed = "The subagent ended without an answer.", true
	}
	if c.note != "" {
		text += "\n\n" + c.note
	}
	res := core.TextResult(text)
	res.IsError = failed
	return res
}

// lastAnswer is the text of the child's last answer, or its error.
func lastAnswer(msgs []core.Message) (text string, failed bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		a, ok := msgs[i].(*core.AssistantMessage)
		if !ok {
			continue
		}
		if a.StopReason == core.StopError || a.StopReason == core.StopAborted {
			if a.ErrorMessage != "" {
				return "The subagent failed: " + a.ErrorMessage, true
			}
			continue
		}
		if t := a.Text(); t != "" {
			return t, false
		}
	}
	return "", false
}

// finish bounds the result, adds its details, and reports the end.
func (c *child) finish(res core.ToolResult, stopped string) core.ToolResult {
	text := core.PlainText(res.Content)
	truncated := false
	if len(text) > MaxAnswerBytes {
		text = cutAt(text, MaxAnswerBytes) + fmt.Sprintf("\n\n[The answer was cut at %d KB; the whole of it is in the subagent's transcript.]", MaxAnswerBytes/1024)
		truncated = true
	}
	res.Content = []core.Content{core.TextBlock(text)}
	c.prog.Status, c.prog.Step = core.SubagentDone, "done"
	c.prog.Result, c.prog.Failed = preview(text, 200), res.IsError
	d := c.details()
	d.Truncated, d.Stopped = truncated, stopped
	res.Details, _ = json.Marshal(d)
	c.send(nil)
	return res
}

// cutAt is text cut to at most n bytes, at a character's start.
func cutAt(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n]
}

// details are the progress as Details.
func (c *child) details() Details {
	return Details{SubagentID: c.prog.ID, Agent: c.def.Name, Task: c.args.Description, Model: c.model,
		Status: c.prog.Status.String(), Step: c.prog.Step, Turns: c.prog.Turns, Usage: c.prog.Usage,
		ElapsedMs: c.prog.Elapsed.Milliseconds(), Transcript: c.transcript}
}

// send reports the progress, with the child's event e if any.
func (c *child) send(e core.Event) {
	c.prog.Elapsed = c.tool.opts.Now().Sub(c.start)
	p := c.prog
	p.Event = e
	details, _ := json.Marshal(c.details())
	c.update(core.ToolUpdate{Content: []core.Content{core.TextBlock(c.statusLine())}, Details: details, Subagent: &p})
}

// statusLine says where the child is, in one line.
func (c *child) statusLine() string {
	// The description is the model's text, shown under the task call.
	parts := []string{escape.Visible(c.def.Name + ": " + oneLine(c.args.Description))}
	if c.prog.Turns > 0 {
		parts = append(parts, fmt.Sprintf("%d turns", c.prog.Turns))
	}
	if n := c.prog.Usage.TotalTokens; n > 0 {
		parts = append(parts, fmt.Sprintf("%d tokens", n))
	}
	parts = append(parts, c.prog.Elapsed.Round(100*time.Millisecond).String(), c.prog.Step)
	return strings.Join(parts, " · ")
}

// StepOf names a child's tool call for people: the tool and what it acts
// on, escaped and short.
func StepOf(tool string, args []byte) string {
	var a map[string]any
	_ = json.Unmarshal(args, &a)
	for _, k := range []string{"command", "path", "pattern", "file_path"} {
		if s, ok := a[k].(string); ok && s != "" {
			return preview(tool+": "+s, 80)
		}
	}
	return tool
}

// preview is the start of s on one line, escaped, at most n runes.
func preview(s string, n int) string {
	s = oneLine(s)
	if utf8.RuneCountInString(s) > n {
		r := []rune(s)
		s = string(r[:n-1]) + "…"
	}
	return escape.Visible(s)
}

// childGate is the parent's approver as the child's: the same gate, mode
// and rules, asking through the parent's questions.
type childGate struct {
	parent agent.Approver
	child  *child
	ask    core.Asker
}

// Check implements agent.Approver, ignoring the child's own asker. It
// first lets the call's start be reported (bounded), so a front end shows
// what the child is doing before the question about it.
func (g childGate) Check(ctx context.Context, tool core.Tool, call core.ToolCall, _ core.Asker) approval.Decision {
	timer := time.NewTimer(maxAnnounceWait)
	defer timer.Stop()
	select {
	case <-g.child.announcedCh(call.ID):
	case <-ctx.Done():
	case <-timer.C:
	}
	return g.parent.Check(ctx, tool, call, g.ask)
}

// labelledAsker puts a child's questions in the parent's queue, labelled.
type labelledAsker struct {
	parent *agent.Session
	label  string
	callID string
}

// Ask implements core.Asker.
func (a labelledAsker) Ask(ctx context.Context, q core.Question) (core.Answer, core.Outcome) {
	q.Title = a.label + ": " + q.Title
	q.Subagent = a.label
	q.ToolCallID = a.callID
	return a.parent.Ask(ctx, q)
}
