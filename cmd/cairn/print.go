package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// maxStdinPrompt bounds how much piped input joins the prompt.
const maxStdinPrompt = 64 << 20

// setup is a resolved model with everything needed to call it.
type setup struct {
	cat      *catalog.Catalog
	model    core.Model
	thinking core.ThinkingLevel
	// noCredentials is set when no provider has credentials and the
	// caller allowed that (the TUI's first run); model is then the one
	// cairn would prefer.
	noCredentials bool
}

// loadCatalog reads the catalog and prepares the faux provider when a script
// is configured. A broken models.json is reported and the built-ins used.
func loadCatalog(streams IOStreams, env environment) (*catalog.Catalog, error) {
	cat, err := catalog.Load(catalog.Options{Dir: env.dir, PiDir: env.piDir, Getenv: env.getenv})
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	if script := env.getenv("CAIRN_FAUX_SCRIPT"); script != "" {
		fp, err := faux.Load(script)
		if err != nil {
			return nil, err
		}
		cat.Faux = fp
	}
	return cat, nil
}

// resolve picks the model, thinking level and credentials from the flags.
func resolve(streams IOStreams, env environment, opts *Options) (*setup, error) {
	cat, err := loadCatalog(streams, env)
	if err != nil {
		return nil, err
	}
	if opts.Demo {
		if cat.Faux, err = demoProvider(); err != nil {
			return nil, err
		}
	}
	if opts.APIKey != "" && opts.Provider == "" && opts.Model == "" {
		return nil, errors.New("--api-key needs --provider or --model to say which provider it is for")
	}
	ref, level := opts.Model, opts.Thinking
	if r, l, ok := strings.Cut(ref, ":"); ok && isThinkingLevel(l) {
		ref = r
		if level == "" {
			level = l
		}
	}
	var model core.Model
	noCredentials := false
	switch {
	case ref == "" && opts.Provider == faux.ProviderName:
		model = faux.Model
	case ref == "" && opts.Provider != "":
		ms := cat.Models()
		found := false
		for _, m := range ms {
			if m.Provider == opts.Provider {
				model, found = m, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown provider %q: known providers are %s", opts.Provider, strings.Join(cat.ProviderNames(), ", "))
		}
	case ref == "":
		if opts.BaseURL != "" {
			return nil, errors.New("--base-url needs --model to say which model the server should run")
		}
		model, err = cat.Default()
		if err != nil {
			preferred, ok := cat.Preferred()
			if !opts.allowNoCredentials || !errors.Is(err, catalog.ErrNoCredentials) || !ok {
				return nil, err
			}
			// The TUI starts anyway and explains what to set up.
			model, noCredentials = preferred, true
		}
	default:
		model, err = cat.Find(opts.Provider, ref)
		if err != nil {
			if opts.BaseURL == "" {
				return nil, err
			}
			model = cat.AdHoc(opts.Provider, ref, opts.BaseURL)
		}
	}
	if opts.BaseURL != "" {
		model.BaseURL = opts.BaseURL
	}
	if opts.wireAPI != "" {
		model.API = opts.wireAPI
	}
	if opts.APIKey != "" {
		cat.SetAPIKey(model.Provider, opts.APIKey)
	}
	if _, err := cat.Credentials(model); err != nil && !noCredentials {
		return nil, err
	}
	thinking := core.DefaultThinking
	if level != "" {
		if thinking, err = core.ParseThinkingLevel(level); err != nil {
			return nil, err
		}
	}
	if !model.Reasoning {
		thinking = core.ThinkingOff
	}
	if _, err := cat.Open(model, provider.Options{}); err != nil {
		return nil, err
	}
	return &setup{cat: cat, model: model, thinking: thinking, noCredentials: noCredentials}, nil
}

func isThinkingLevel(s string) bool {
	_, err := core.ParseThinkingLevel(s)
	return err == nil
}

// printMode answers one prompt and exits: text mode streams the answers'
// text, json mode writes every event as a JSON line. The agent may use its
// tools; calls that need approval are refused unless --approval allows them,
// since nobody is there to ask.
func printMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: find the working directory: %v\n", err)
		return exitFailure
	}
	templates, errs := loadPrompts(env, opts, cwd, projectTrustFor(streams, env, opts, cwd, nil))
	for _, e := range errs {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", e)
	}
	prompts, err := readPrompts(streams, opts)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitUsage
	}
	a, err := buildApp(streams, env, opts, true)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return buildExit(err)
	}
	defer a.close()
	a.slash.setTemplates(templates)
	if a.model.Provider == faux.ProviderName && opts.Mode == "text" {
		fmt.Fprintln(streams.Err, "cairn: using the faux provider: these answers are scripted, not written by a model")
		if opts.demoDir != "" {
			fmt.Fprintf(streams.Err, "cairn: demo: working in a throwaway copy of a sample project, %s\n", opts.demoDir)
		}
	}
	events, stop := a.session.Subscribe()
	defer stop()
	out := bufio.NewWriterSize(streams.Out, 64<<10)
	var w eventWriter
	var spin *spinner // on a terminal's stderr in text mode
	var ticks <-chan time.Time
	if opts.Mode == "json" {
		w = newJSONWriter(out, a.cwd, opts.RPCCompat == "0.73")
	} else {
		tw := &textWriter{out: out, errOut: streams.Err, progress: streams.ErrIsTerminal}
		if streams.ErrIsTerminal {
			spin = &spinner{w: streams.Err, now: time.Now}
			tw.spin = spin
			ticker := time.NewTicker(spinnerInterval)
			defer ticker.Stop()
			ticks = ticker.C
		}
		w = tw
	}
	// A prompt of an MCP server waits for its server, which starts with
	// the app.
	send := func(text string, images []core.Content) int {
		text, _ = templates.Expand(text)
		if exp, ok, err := a.mcp.servers().ExpandPrompt(ctx, text); ok {
			if err != nil {
				fmt.Fprintf(streams.Err, "cairn: %v\n", err)
				return exitUsage
			}
			text, images = exp.Text, append(images, exp.Images...)
		}
		if err := a.session.Prompt(text, images, agent.BehaviorNone); err != nil {
			fmt.Fprintf(streams.Err, "cairn: %v\n", err)
			return exitFailure
		}
		return exitOK
	}
	if code := send(prompts.first, prompts.images); code != exitOK {
		return code
	}
	queued := prompts.rest
	aborting := ctx.Done()
	var last *core.AssistantMessage
	var settled core.Settled
loop:
	for {
		select {
		case <-aborting:
			a.session.Abort()
			aborting = nil
		case <-ticks:
			spin.tick()
		case e := <-events:
			if me, ok := e.(core.MessageEnd); ok {
				if am, ok := me.Message.(*core.AssistantMessage); ok {
					last = am
				}
			}
			w.write(e)
			if n, ok := e.(core.Notice); ok && opts.Mode == "json" {
				// pi's json stream has no notices; what the session wants
				// a person to know (the MCP servers it waits for, gives up
				// on, or that failed) goes to stderr, as in text mode.
				fmt.Fprintf(streams.Err, "cairn: %s\n", n.Message)
			}
			if s, ok := e.(core.Settled); ok {
				settled = s
				// As pi, each further message is sent once the one before
				// has been answered, unless that failed or was stopped.
				if s.Error != "" || len(queued) == 0 || last != nil && last.StopReason == core.StopAborted || ctx.Err() != nil {
					break loop
				}
				next := queued[0]
				queued = queued[1:]
				if code := send(next, nil); code != exitOK {
					return code
				}
			}
		}
	}
	werr := w.finish()
	switch {
	case last != nil && last.StopReason == core.StopAborted:
		fmt.Fprintln(streams.Err, "cairn: aborted")
		return exitInterrupted
	case settled.Error != "":
		fmt.Fprintf(streams.Err, "cairn: %s\n", settled.Error)
		return exitFailure
	case werr != nil:
		fmt.Fprintf(streams.Err, "cairn: %v\n", werr)
		return exitFailure
	case last != nil && last.StopReason == core.StopLength:
		fmt.Fprintln(streams.Err, "cairn: warning: the answer stopped at the output token limit (raise --max-tokens)")
	}
	return exitOK
}

// eventWriter renders session events for print mode.
type eventWriter interface {
	write(e core.Event)
	finish() error
}

// textWriter writes the answers' text, a blank line between answers, and on
// a terminal shows tool calls on stderr as they run and a spinner while the
// model is thinking or writing. Each answer's text is held until the answer
// ends: an attempt that fails mid-stream is retried, and its partial text
// must not reach stdout ahead of the answer that replaces it, since stdout
// is what a script captures and cannot be taken back.
type textWriter struct {
	out      *bufio.Writer
	errOut   io.Writer
	progress bool
	spin     *spinner // nil: no spinner
	// held is the current answer's text (with the separator before it)
	// waiting for the answer to end.
	held []byte
	// The state of stdout as written, and as it will be once held is.
	shown, pending screenState
	err            error
}

// screenState is where the text on stdout has got to.
type screenState struct {
	wrote   bool // some text has been written
	newline bool // the text ends with a newline
	// broken: stderr ended the answer's unfinished line on the terminal
	// (before a tool line), so the screen is at the start of a line.
	broken bool
}

func (w *textWriter) write(e core.Event) {
	if w.spin != nil {
		w.spinner(e)
	}
	switch e := e.(type) {
	case core.MessageUpdate:
		switch e.Kind {
		case core.UpdateTextStart:
			if w.pending.wrote {
				if !w.pending.newline {
					w.held = append(w.held, '\n')
				}
				w.held = append(w.held, '\n')
			}
		case core.UpdateTextDelta:
			w.held = append(w.held, e.Delta...)
			w.pending.wrote, w.pending.broken = true, false
			w.pending.newline = strings.HasSuffix(e.Delta, "\n")
		}
	case core.MessageEnd:
		if am, ok := e.Message.(*core.AssistantMessage); ok {
			w.release(am.StopReason != core.StopError)
		}
	case core.ToolExecutionStart:
		if w.progress {
			if w.shown.wrote && !w.shown.newline && !w.shown.broken {
				// The tool line goes below the answer's text, not after it.
				fmt.Fprintln(w.errOut)
				w.shown.broken = true
				w.pending.broken = true
			}
			fmt.Fprintf(w.errOut, "  → %s %s\n", e.ToolName, clip(string(e.Args), 100))
		}
	case core.ToolExecutionEnd:
		// A call refused for want of anyone to ask is reported whether or
		// not stderr is a terminal: the person needs the flag that allows it.
		if e.Result.IsError && len(e.Result.Content) > 0 && strings.HasPrefix(e.Result.Content[0].Text, approval.PolicyDenialPrefix) {
			fmt.Fprintf(w.errOut, "cairn: refused %s: %s\n", e.ToolName, e.Result.Content[0].Text)
		}
	case core.AutoRetryStart:
		fmt.Fprintf(w.errOut, "cairn: %s; retrying in %s (attempt %d of %d)\n", e.ErrorMessage, e.Delay, e.Attempt, e.MaxAttempts)
	case core.AutoCompactionStart:
		fmt.Fprintln(w.errOut, "cairn: compacting the conversation…")
	case core.Notice:
		fmt.Fprintf(w.errOut, "cairn: %s\n", e.Message)
	}
}

// release ends the held answer: its text goes to stdout when keep is set
// (the answer finished, or the person aborted it and it is all there is),
// and is dropped when the attempt failed, whether or not a retry follows.
func (w *textWriter) release(keep bool) {
	if !keep {
		w.held, w.pending = w.held[:0], w.shown
		return
	}
	if len(w.held) == 0 {
		return
	}
	w.out.Write(w.held)
	w.held, w.shown = w.held[:0], w.pending
	if err := w.out.Flush(); err != nil && w.err == nil {
		w.err = err
	}
}

// spinner starts the spinner when a turn asks the model, says so while an
// answer's text is being held, stops it when that text or a tool call is
// shown, and erases it before anything else reaches stderr.
func (w *textWriter) spinner(e core.Event) {
	switch e := e.(type) {
	case core.TurnStart:
		// On a terminal stdout and stderr share the screen: erasing the
		// spinner would erase an unfinished line of the answer with it.
		if !w.shown.wrote || w.shown.newline || w.shown.broken {
			w.spin.begin()
		}
	case core.MessageUpdate:
		if e.Kind == core.UpdateTextStart {
			w.spin.writing()
		}
	case core.MessageEnd:
		if _, ok := e.Message.(*core.AssistantMessage); ok {
			w.spin.end()
		}
	case core.ToolExecutionStart, core.TurnEnd, core.AgentEnd, core.Settled:
		w.spin.end()
	case core.ToolExecutionEnd, core.AutoRetryStart, core.AutoCompactionStart, core.Notice:
		w.spin.clear()
	}
}

func (w *textWriter) finish() error {
	if w.spin != nil {
		w.spin.end()
	}
	if w.shown.wrote && !w.shown.newline {
		w.out.WriteString("\n")
	}
	if err := w.out.Flush(); err != nil && w.err == nil {
		w.err = err
	}
	return w.err
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func defaultSystemPrompt() string {
	cwd, _ := os.Getwd()
	return fmt.Sprintf("You are cairn, a coding agent working in the user's terminal. Answer concisely and precisely.\n\nCurrent date: %s\nCurrent working directory: %s",
		time.Now().Format("2006-01-02"), cwd)
}

// listModels prints the catalog as a table: provider, id, context, output,
// reasoning, and whether credentials were found.
func listModels(streams IOStreams, env environment, opts *Options) int {
	cat, err := loadCatalog(streams, env)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	tw := tabwriter.NewWriter(streams.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tMODEL\tCONTEXT\tMAX OUT\tTHINKING\tKEY")
	filter := strings.ToLower(opts.ListFilter)
	for _, m := range cat.Models() {
		if filter != "" && !strings.Contains(strings.ToLower(m.Provider+"/"+m.ID+" "+m.Name), filter) {
			continue
		}
		key := "yes"
		if !cat.HasKey(m) {
			key = "no"
		}
		think := "no"
		if m.Reasoning {
			think = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", m.Provider, m.ID, tokens(m.ContextWindow), tokens(m.MaxTokens), think, key)
	}
	if err := tw.Flush(); err != nil {
		return exitFailure
	}
	return exitOK
}

func tokens(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000:
		return fmt.Sprintf("%dK", n/1000)
	}
	return fmt.Sprint(n)
}
