package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// synapsRPCCommand is `cairn rpc ...`: synaps's own command line for its
// rpc mode, which the synaps-bridge daemon runs for every Slack thread as
//
//	BINARY rpc [--continue ID] [--system PROMPT_OR_FILE] [--model M] [--profile P]
//
// so that cairn can be the bridge's rpc.binary with no wrapper. It serves
// synaps rpc (as --mode synaps). cairn's own flags may follow synaps's
// (--provider, --approval, --trust-project...); a positional argument is
// an error.
func synapsRPCCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	opts, ref, err := parseSynapsRPCArgs(args)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn rpc: %v\n", err)
		return exitUsage
	}
	env := newEnvironment(getenv)
	if ref != "" {
		cwd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(streams.Err, "cairn rpc: find the working directory: %v\n", err)
			return exitFailure
		}
		if opts.Session, err = findSession(sessionStore(env, opts), ref, cwd); err != nil {
			// Never another conversation: the bridge maps this thread
			// to the id it gave, so a stand-in would mix two threads.
			fmt.Fprintf(streams.Err, "cairn rpc: --continue %s: %v\n", ref, err)
			return exitFailure
		}
	}
	return synapsMode(ctx, streams, env, opts)
}

// parseSynapsRPCArgs reads synaps's rpc flags and then cairn's own.
// ref is --continue's session id, name or id prefix ("" for none; a bare
// --continue is cairn's: the latest session here).
func parseSynapsRPCArgs(args []string) (opts *Options, ref string, err error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		next := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag %s needs a value", name)
			}
			i++
			return args[i], nil
		}
		switch name {
		case "--continue":
			switch {
			case hasValue:
				ref = value
			case i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
				i++
				ref = args[i]
			default:
				rest = append(rest, "--continue")
			}
			if hasValue && value == "" {
				return nil, "", errors.New("--continue= needs a session id, name or id prefix")
			}
		case "--system", "-s":
			text, err := next()
			if err != nil {
				return nil, "", err
			}
			// synaps takes a prompt or a file holding one.
			if b, err := os.ReadFile(text); err == nil {
				text = string(b)
			}
			rest = append(rest, "--system-prompt", text)
		case "--profile":
			p, err := next()
			if err != nil {
				return nil, "", err
			}
			return nil, "", fmt.Errorf("--profile %s: cairn has no named configuration profiles; leave rpc.default_profile empty in bridge.toml, or give this bridge its own settings directory with CAIRN_DIR", p)
		default:
			rest = append(rest, args[i])
		}
	}
	opts, err = parseArgs(rest)
	switch {
	case err != nil:
		return nil, "", err
	case len(opts.ExtFlags) > 0:
		// synaps's command line is the bridge's: no extension flags.
		return nil, "", fmt.Errorf("unknown flag --%s (see cairn --help)", opts.ExtFlags[0].Name)
	case len(opts.Messages) > 0:
		return nil, "", fmt.Errorf("unexpected argument %q: cairn rpc reads its prompts from stdin (synaps rpc frames); its flags are --continue ID, --system PROMPT_OR_FILE, --model M and cairn's own", opts.Messages[0])
	case opts.Mode != "text" || opts.Print:
		return nil, "", errors.New("cairn rpc always speaks synaps rpc: leave out --mode, --rpc-dialect and --print")
	case ref != "" && (opts.Continue || opts.Session != ""):
		return nil, "", errors.New("--continue ID names the session already: leave out --session and a second --continue")
	}
	opts.Mode = "synaps"
	return opts, ref, nil
}
