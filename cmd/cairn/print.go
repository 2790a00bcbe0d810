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
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// maxStdinPrompt bounds how much piped input joins the prompt.
const maxStdinPrompt = 64 << 20

// setup is a resolved model with everything needed to call it.
type setup struct {
	model    core.Model
	prov     provider.Provider
	creds    catalog.Credentials
	thinking core.ThinkingLevel
}

// loadCatalog reads the catalog and prepares the faux provider when a script
// is configured. A broken models.json is reported and the built-ins used.
func loadCatalog(streams IOStreams, env environment) (*catalog.Catalog, error) {
	cat, err := catalog.Load(catalog.Options{Dir: env.dir, Getenv: env.getenv})
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
			return nil, err
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
	if opts.APIKey != "" {
		cat.SetAPIKey(model.Provider, opts.APIKey)
	}
	creds, err := cat.Credentials(model)
	if err != nil {
		return nil, err
	}
	thinking := core.ThinkingMedium
	if level != "" {
		if thinking, err = core.ParseThinkingLevel(level); err != nil {
			return nil, err
		}
	}
	if !model.Reasoning {
		thinking = core.ThinkingOff
	}
	retry := provider.RetryPolicy{OnRetry: func(attempt int, wait time.Duration, err *provider.Error) {
		fmt.Fprintf(streams.Err, "cairn: %v; retrying in %s (attempt %d)\n", err, wait.Round(100*time.Millisecond), attempt+1)
	}}
	prov, err := cat.Open(model, provider.Options{Retry: retry})
	if err != nil {
		return nil, err
	}
	return &setup{model: model, prov: prov, creds: creds, thinking: thinking}, nil
}

func isThinkingLevel(s string) bool {
	_, err := core.ParseThinkingLevel(s)
	return err == nil
}

// printMode answers one prompt and exits: text mode streams the answer's
// text, json mode writes every event as a JSON line.
func printMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	prompt, err := readPrompt(streams, opts)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitUsage
	}
	s, err := resolve(streams, env, opts)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	if s.model.Provider == faux.ProviderName && opts.Mode == "text" {
		fmt.Fprintln(streams.Err, "cairn: using the faux provider: these answers are scripted, not written by a model")
	}
	user := &core.UserMessage{Content: []core.Content{core.TextBlock(prompt)}, Timestamp: time.Now().UnixMilli()}
	system := opts.SystemPrompt
	if system == "" {
		system = defaultSystemPrompt()
	}
	req := &provider.Request{
		Model:     s.model,
		System:    system,
		Messages:  []core.Message{user},
		Thinking:  s.thinking,
		MaxTokens: opts.MaxTokens,
		APIKey:    s.creds.APIKey,
		Headers:   s.creds.Headers,
	}
	out := bufio.NewWriterSize(streams.Out, 64<<10)
	var msg *core.AssistantMessage
	if opts.Mode == "json" {
		msg, err = streamJSON(ctx, out, s, req, user)
	} else {
		msg, err = streamText(ctx, out, s, req)
	}
	if ferr := out.Flush(); ferr != nil && err == nil {
		err = ferr
	}
	switch {
	case msg != nil && msg.StopReason == core.StopAborted:
		fmt.Fprintln(streams.Err, "cairn: aborted")
		return exitInterrupted
	case err != nil:
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	case msg != nil && msg.StopReason == core.StopLength:
		fmt.Fprintln(streams.Err, "cairn: warning: the answer stopped at the output token limit (raise --max-tokens)")
	}
	return exitOK
}

// streamText writes text deltas as they arrive, flushing each so a person
// sees the answer grow; separate text blocks are separated by a blank line.
func streamText(ctx context.Context, out *bufio.Writer, s *setup, req *provider.Request) (*core.AssistantMessage, error) {
	wrote, endsWithNewline := false, false
	var werr error
	emit := func(e provider.Event) {
		switch e.Type {
		case provider.EventTextStart:
			if wrote {
				out.WriteString("\n\n")
			}
		case provider.EventTextDelta:
			out.WriteString(e.Delta)
			wrote = true
			endsWithNewline = strings.HasSuffix(e.Delta, "\n")
			if err := out.Flush(); err != nil && werr == nil {
				werr = err
			}
		}
	}
	msg, err := s.prov.Stream(ctx, req, emit)
	if wrote && !endsWithNewline {
		out.WriteString("\n")
	}
	if err == nil {
		err = werr
	}
	return msg, err
}

// readPrompt joins the messages given as arguments and appends piped stdin.
func readPrompt(streams IOStreams, opts *Options) (string, error) {
	prompt := strings.Join(opts.Messages, " ")
	if !streams.InIsTerminal && streams.In != nil {
		data, err := io.ReadAll(io.LimitReader(streams.In, maxStdinPrompt+1))
		if err != nil {
			return "", fmt.Errorf("read stdin: %w", err)
		}
		if len(data) > maxStdinPrompt {
			return "", fmt.Errorf("stdin is larger than %d MiB; pass a smaller input", maxStdinPrompt>>20)
		}
		if in := strings.TrimRight(string(data), "\n"); in != "" {
			if prompt != "" {
				prompt += "\n\n"
			}
			prompt += in
		}
	}
	if strings.TrimSpace(prompt) == "" {
		return "", errors.New(`no prompt: pass one as an argument (cairn -p "...") or on stdin`)
	}
	return prompt, nil
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
		if _, err := cat.Credentials(m); err != nil {
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
