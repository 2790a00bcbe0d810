package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/rpcmode/aionrs"
)

// jsonStreamOptions are the flags of aionrs's `--json-stream` command line
// (seed 000), which hosts such as AionUi pass.
type jsonStreamOptions struct {
	provider, model, baseURL, systemPrompt string
	maxTokens, maxTurns                    int
	autoApprove                            bool
	workspace                              string
	sessionID                              string // a new session known by this id
	resume                                 string // an id, or "latest"
}

// jsonStreamFlags lists the flags and whether each takes a value.
var jsonStreamFlags = map[string]bool{
	"--json-stream": false, "--provider": true, "--model": true, "--base-url": true,
	"--max-tokens": true, "--max-turns": true, "--system-prompt": true, "--auto-approve": false,
	"--workspace": true, "--session-id": true, "--resume": true,
}

// parseJSONStreamArgs reads aionrs's flags ("--flag value" or
// "--flag=value"); anything else is an error naming the flags there are.
func parseJSONStreamArgs(args []string) (*jsonStreamOptions, error) {
	o := &jsonStreamOptions{}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		takesValue, known := jsonStreamFlags[name]
		switch {
		case !known:
			return nil, fmt.Errorf("unknown argument %s for --json-stream (its flags are --provider, --model, --base-url, --max-tokens, --max-turns, --system-prompt, --auto-approve, --workspace, --session-id and --resume)", args[i])
		case !takesValue && hasValue:
			return nil, fmt.Errorf("flag %s takes no value", name)
		case takesValue && !hasValue:
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag %s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := o.set(name, value); err != nil {
			return nil, err
		}
	}
	if o.sessionID != "" && o.resume != "" {
		return nil, errors.New("--session-id and --resume cannot be used together: --session-id starts a new session, --resume continues one")
	}
	return o, nil
}

func (o *jsonStreamOptions) set(name, value string) error {
	positive := func() (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%s needs a positive number, not %q", name, value)
		}
		return n, nil
	}
	var err error
	switch name {
	case "--provider":
		o.provider = value
	case "--model":
		o.model = value
	case "--base-url":
		o.baseURL = value
	case "--system-prompt":
		o.systemPrompt = value
	case "--auto-approve":
		o.autoApprove = true
	case "--workspace":
		o.workspace = value
	case "--session-id":
		o.sessionID = value
	case "--resume":
		o.resume = value
	case "--max-tokens":
		o.maxTokens, err = positive()
	case "--max-turns":
		o.maxTurns, err = positive()
	}
	if (name == "--session-id" || name == "--resume" || name == "--workspace") && value == "" {
		return fmt.Errorf("%s needs a value", name)
	}
	return err
}

// jsonStreamMode serves aionrs's --json-stream host protocol on stdin and
// stdout, configured by that protocol's own flags. A start that fails is
// reported as a config_error frame on stdout (and on stderr) with a
// non-zero exit; once ready is out, stdin's end flushes the session file
// and exits 0.
func jsonStreamMode(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	fail := func(code int, err error) int {
		_, _ = streams.Out.Write(aionrs.ConfigError(err.Error()))
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return code
	}
	jo, err := parseJSONStreamArgs(args)
	if err != nil {
		return fail(exitUsage, err)
	}
	if jo.workspace != "" {
		// One process per conversation: the workspace is the directory
		// the whole run works in, as for cairn started there.
		if err := os.Chdir(jo.workspace); err != nil {
			return fail(exitUsage, fmt.Errorf("--workspace: %w", err))
		}
	}
	env := newEnvironment(getenv)
	opts := &Options{Mode: "json-stream", Provider: jo.provider, Model: jo.model, BaseURL: jo.baseURL,
		SystemPrompt: jo.systemPrompt, MaxTokens: jo.maxTokens}
	if jo.autoApprove {
		opts.Approval = "yolo"
	}
	if err := aionrsProvider(opts, jo.provider, jo.baseURL); err != nil {
		return fail(exitUsage, err)
	}
	sessionID, err := pickJSONStreamSession(env, opts, jo)
	if err != nil {
		return fail(exitFailure, err)
	}
	a, err := buildApp(streams, env, opts, false)
	if err != nil {
		return fail(exitFailure, err)
	}
	defer a.close()
	if jo.sessionID != "" {
		// The session layer picks its own ids; the host's id becomes the
		// session's name, which --resume finds it by.
		if err := a.session.SetName(jo.sessionID); err != nil {
			return fail(exitFailure, fmt.Errorf("name the session %q: %w", jo.sessionID, err))
		}
	}
	if sessionID == "" {
		sessionID = a.session.Conversation().ID
	}
	host := aionrs.Host{
		Session:   a.session,
		Approvals: a.gate,
		Models:    a.cat.Available,
		Tools:     a.session.Tools(),
		Dir:       a.cwd,
		SessionID: sessionID,
		MaxTurns:  jo.maxTurns,
		Log:       streams.Err,
	}
	if m := a.mcp.servers(); m != nil {
		host.MCP = m // a nil manager (--no-mcp) leaves the interface nil
	}
	if err := aionrs.Serve(ctx, streams.In, streams.Out, host); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// pickJSONStreamSession turns --resume and --session-id into the session
// options buildApp reads, and returns the id ready reports when the host
// named the session ("" for the session's own id).
func pickJSONStreamSession(env environment, opts *Options, jo *jsonStreamOptions) (string, error) {
	if jo.resume == "" && jo.sessionID == "" {
		return "", nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the working directory: %w", err)
	}
	store := sessionStore(env, opts)
	if jo.resume == "latest" {
		path, err := store.Latest(cwd)
		if err != nil {
			return "", fmt.Errorf("--resume latest: %w", err)
		}
		opts.Session = path
		return "", nil
	}
	infos, err := store.List(cwd)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if jo.sessionID != "" {
		if _, ok := findJSONStreamSession(infos, jo.sessionID); ok {
			return "", fmt.Errorf("--session-id %s: a session with that id already exists in %s; continue it with --resume %s", jo.sessionID, cwd, jo.sessionID)
		}
		return jo.sessionID, nil
	}
	in, ok := findJSONStreamSession(infos, jo.resume)
	if !ok {
		return "", fmt.Errorf("--resume %s: no session with that id in %s", jo.resume, store.ProjectDir(cwd))
	}
	opts.Session = in.Path
	if in.ID != jo.resume {
		return jo.resume, nil
	}
	return "", nil
}

// findJSONStreamSession finds a session by its own id or by the name a
// --session-id gave it; the newest wins.
func findJSONStreamSession(infos []session.Info, id string) (session.Info, bool) {
	for _, in := range infos {
		if in.ID == id || in.Name == id {
			return in, true
		}
	}
	return session.Info{}, false
}
