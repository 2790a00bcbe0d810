package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
}

// Hooks runs the hooks of a Config. Its methods are safe for concurrent
// use.
type Hooks struct {
	cfg  Config
	opts Options
	env  []string
}

// New returns the Hooks of cfg.
func New(cfg Config, opts Options) *Hooks {
	env := shell.InheritedEnv(opts.Getenv)
	env = append(env, "CLAUDE_PROJECT_DIR="+opts.Dir, "CAIRN_PROJECT_DIR="+opts.Dir)
	return &Hooks{cfg: cfg, opts: opts, env: env}
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
// selects one of names, each with in on stdin (a command named twice runs
// once, as in Claude Code), and combines their answers. Without names (the
// events Claude Code has no matchers for: UserPromptSubmit, Stop) every
// group's hooks run, whatever its matcher says. err joins the failures,
// naming each hook; the answers of the others still count.
func (h *Hooks) Fire(ctx context.Context, in Input, names ...string) (Answer, error) {
	var cmds []Command
	seen := map[string]bool{}
	for _, g := range h.cfg.Events[in.HookEventName] {
		if len(names) > 0 && !g.Matcher.Match(names...) {
			continue
		}
		for _, c := range g.Hooks {
			if !seen[c.Command] {
				seen[c.Command] = true
				cmds = append(cmds, c)
			}
		}
	}
	if len(cmds) == 0 {
		return Answer{}, nil
	}
	if in.Cwd == "" {
		in.Cwd = h.opts.Dir
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		return Answer{}, fmt.Errorf("hook input: %w", err)
	}
	answers := make([]Answer, len(cmds))
	errs := make([]error, len(cmds))
	var wg sync.WaitGroup
	for i, c := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := h.run(ctx, c, stdin)
			a, err := Decode(in.HookEventName, r)
			if err != nil {
				err = fmt.Errorf("hook %q (%s): %w", c.Command, c.Origin, err)
			}
			answers[i], errs[i] = a, err
		}()
	}
	wg.Wait()
	return combine(answers), errors.Join(errs...)
}

// run runs one hook to its end or its time limit.
func (h *Hooks) run(ctx context.Context, c Command, stdin []byte) Result {
	stdout, stderr := &capped{limit: MaxOutput}, &capped{limit: MaxOutput}
	p, err := shell.Start(ctx, shell.Command{
		Line: c.Command, Shell: h.opts.Shell, Dir: h.opts.Dir, Env: h.env,
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
