package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
)

// MaxOutput bounds what a hook's stdout and stderr each keep; a hook that
// writes more has failed.
const MaxOutput = 1 << 20

// Options say how hooks run.
type Options struct {
	// Dir is the project directory: where hooks run, their cwd, and
	// CLAUDE_PROJECT_DIR and CAIRN_PROJECT_DIR.
	Dir string
	// Getenv reads cairn's environment, of which hooks get only
	// shell.InheritedEnv (never API keys).
	Getenv func(string) string
	// Shell runs the command lines; empty means shell.Path("").
	Shell string
	// Notify, when set, shows the person what async hooks answer when
	// they finish (their systemMessage, or why they failed).
	Notify func(string)
}

// Hooks runs the hooks of a Config. Its methods are safe for concurrent
// use.
type Hooks struct {
	cfg  Config
	opts Options
	env  []string

	// bg is the context async hooks run in; stop cancels it and
	// background counts them, for Close.
	bg         context.Context
	stop       context.CancelFunc
	background sync.WaitGroup

	mu sync.Mutex
	// ran are the once hooks that ran.
	ran map[string]bool
	// later is what async hooks answered for the model, given with the
	// next event that adds context.
	later []string
}

// New returns the Hooks of cfg.
func New(cfg Config, opts Options) *Hooks {
	env := shell.InheritedEnv(opts.Getenv)
	env = append(env, "CLAUDE_PROJECT_DIR="+opts.Dir, "CAIRN_PROJECT_DIR="+opts.Dir)
	bg, stop := context.WithCancel(context.Background())
	return &Hooks{cfg: cfg, opts: opts, env: env, bg: bg, stop: stop, ran: map[string]bool{}}
}

// OnAsync sets what shows the person the answers of async hooks (as
// Options.Notify); call it before the first Fire.
func (h *Hooks) OnAsync(notify func(string)) { h.opts.Notify = notify }

// Wait waits for the async hooks still running to end (each within its
// time limit).
func (h *Hooks) Wait() { h.background.Wait() }

// Close stops the async hooks still running and waits for them.
func (h *Hooks) Close() {
	h.stop()
	h.background.Wait()
}

// Has reports whether any hook runs for e.
func (h *Hooks) Has(e Event) bool {
	for _, g := range h.cfg.Events[e] {
		if len(g.Hooks) > 0 {
			return true
		}
	}
	return false
}

// Dir is the directory hooks run in.
func (h *Hooks) Dir() string { return h.opts.Dir }

// Longest is the longest time limit of e's hooks; they run in parallel,
// so no firing of e lasts much longer.
func (h *Hooks) Longest(e Event) time.Duration {
	var d time.Duration
	for _, g := range h.cfg.Events[e] {
		for _, c := range g.Hooks {
			d = max(d, c.Timeout)
		}
	}
	return d
}

// Fire runs, in parallel, every hook of in.HookEventName whose matcher
// selects one of names (and whose "if" the call fits), each with in on
// stdin (a command named twice runs once, as in Claude Code), and combines
// their answers. Without names (the events Claude Code has no matchers
// for: UserPromptSubmit, Stop) every group's hooks run, whatever its
// matcher says. err joins the failures, naming each hook; the answers of
// the others still count. Async hooks are started and not waited for;
// what they answered since the last firing is added to the Context of
// events that carry context.
func (h *Hooks) Fire(ctx context.Context, in Input, names ...string) (Answer, error) {
	cmds := h.selected(in, names)
	if in.Cwd == "" {
		in.Cwd = h.opts.Dir
	}
	var later []string
	if carriesContext(in.HookEventName) {
		h.mu.Lock()
		later, h.later = h.later, nil
		h.mu.Unlock()
	}
	if len(cmds) == 0 {
		return Answer{Context: later}, nil
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		return Answer{}, fmt.Errorf("hook input: %w", err)
	}
	var waited []Command
	for _, c := range cmds {
		if c.Async {
			h.startAsync(in.HookEventName, c, stdin)
		} else {
			waited = append(waited, c)
		}
	}
	answers := make([]Answer, len(waited))
	errs := make([]error, len(waited))
	var wg sync.WaitGroup
	for i, c := range waited {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], errs[i] = h.runOne(ctx, in.HookEventName, c, stdin)
		}()
	}
	wg.Wait()
	out := combine(answers)
	out.Context = append(later, out.Context...)
	return out, errors.Join(errs...)
}

// selected are the hooks of in's event that run for names, once each.
func (h *Hooks) selected(in Input, names []string) []Command {
	var cmds []Command
	seen := map[string]bool{}
	for _, g := range h.cfg.Events[in.HookEventName] {
		if len(names) > 0 && !g.Matcher.Match(names...) {
			continue
		}
		for _, c := range g.Hooks {
			if c.If != nil && !c.If.Match(names, in.ToolInput, h.opts.Dir, h.home()) {
				continue
			}
			key := c.PluginRoot + "\x00" + c.Command
			if seen[key] || c.Once && !h.firstRun(key) {
				continue
			}
			seen[key] = true
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// firstRun reports whether the once hook key has not run yet, and notes
// that it now has.
func (h *Hooks) firstRun(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ran[key] {
		return false
	}
	h.ran[key] = true
	return true
}

func (h *Hooks) home() string {
	if h.opts.Getenv == nil {
		return ""
	}
	return h.opts.Getenv("HOME")
}

// carriesContext reports whether e's answer can add context for the model.
func carriesContext(e Event) bool {
	switch e {
	case UserPromptSubmit, SessionStart, PreToolUse, PostToolUse, PostToolUseFailure:
		return true
	}
	return false
}

// runOne runs one hook and reads its answer.
func (h *Hooks) runOne(ctx context.Context, e Event, c Command, stdin []byte) (Answer, error) {
	a, err := Decode(e, h.run(ctx, c, stdin))
	if err != nil {
		err = fmt.Errorf("hook %q (%s): %w", c.Command, c.Origin, err)
	}
	return a, err
}

// startAsync runs c in the background: its messages and failure go to
// Options.Notify, what it says for the model waits for the next firing
// that carries context. A Rewake hook's block (exit 2) is such context.
func (h *Hooks) startAsync(e Event, c Command, stdin []byte) {
	h.background.Add(1)
	go func() {
		defer h.background.Done()
		a, err := h.runOne(h.bg, e, c, stdin)
		var later []string
		if c.Rewake && a.Block {
			later = append(later, strings.TrimSpace(c.RewakeMessage+"\n"+a.Reason))
		}
		later = append(later, a.Context...)
		h.mu.Lock()
		h.later = append(h.later, later...)
		h.mu.Unlock()
		if h.opts.Notify == nil {
			return
		}
		for _, m := range a.Messages {
			h.opts.Notify(fmt.Sprintf("%s hook: %s", e, m))
		}
		if err != nil && h.bg.Err() == nil {
			h.opts.Notify(fmt.Sprintf("%s hook (async) failed: %v", e, err))
		}
	}()
}

// run runs one hook to its end or its time limit.
func (h *Hooks) run(ctx context.Context, c Command, stdin []byte) Result {
	stdout, stderr := &capped{limit: MaxOutput}, &capped{limit: MaxOutput}
	sh := h.opts.Shell
	if c.Shell == "bash" {
		sh = "bash"
	}
	env := h.env
	if c.PluginRoot != "" {
		env = append(slices.Clip(env), "CLAUDE_PLUGIN_ROOT="+c.PluginRoot)
	}
	p, err := shell.Start(ctx, shell.Command{
		Line: h.expand(c), Shell: sh, Dir: h.opts.Dir, Env: env,
		Stdin: bytes.NewReader(stdin), Output: stdout, Stderr: stderr,
		Timeout: c.Timeout,
	})
	if err != nil {
		return Result{Failure: "could not start: " + err.Error()}
	}
	exit := p.Wait()
	r := Result{Code: exit.Code, Stdout: stdout.String(), Stderr: stderr.String()}
	switch {
	case exit.TimedOut:
		r.Failure = fmt.Sprintf("did not finish within %s and was stopped", c.Timeout)
	case exit.Cancelled:
		r.Failure = "stopped: the work it was for was cancelled"
	case exit.Err != nil:
		r.Failure = exit.Err.Error()
	case stdout.exceeded() || stderr.exceeded():
		r.Failure = fmt.Sprintf("wrote more than %d bytes of output", MaxOutput)
	case exit.Signal != "":
		r.Failure = "ended by signal " + exit.Signal
	}
	return r
}

// expand puts the plugin's directory and the project's in place of
// ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PROJECT_DIR} in c's command, as
// Claude Code does before the shell reads it (the variables are set as
// well, for scripts and for the unbraced forms).
func (h *Hooks) expand(c Command) string {
	line := strings.ReplaceAll(c.Command, "${CLAUDE_PROJECT_DIR}", h.opts.Dir)
	if c.PluginRoot != "" {
		line = strings.ReplaceAll(line, "${CLAUDE_PLUGIN_ROOT}", c.PluginRoot)
	}
	return line
}

// capped keeps the first limit bytes written to it and notes the rest.
type capped struct {
	mu    sync.Mutex
	buf   strings.Builder
	limit int
	over  bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - c.buf.Len()
	if len(p) > room {
		c.over = true
		c.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capped) exceeded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}
