package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/cairn-dev/cairn/rpcmode/jsonrpc"
)

// jsonrpcMode serves OpenAgent-Terminal's JSON-RPC protocol on a Unix
// socket (--socket, or $XDG_RUNTIME_DIR/cairn-<pid>.sock) until the process
// is told to stop; every client gets a session of its own. The socket's
// path goes to stderr once it accepts clients; stdout stays empty.
func jsonrpcMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	newAgent, closeFirst, err := agentFactory(streams, env, opts)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer closeFirst()
	path := opts.Socket
	if path == "" {
		path = jsonrpc.DefaultSocketPath(env.getenv, os.Getpid())
	}
	sock, err := jsonrpc.Listen(path)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer sock.Close()
	fmt.Fprintf(streams.Err, "cairn: listening on %s\n", sock.Path())
	err = jsonrpc.Serve(ctx, sock, jsonrpc.Config{NewAgent: newAgent, Version: versionString(), Log: streams.Err})
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// agentFactory builds a session per client. The first is built at once, so
// a configuration error stops cairn before it listens, and it goes to the
// first client: it alone honours --session and --continue, since two
// sessions appending to one file would corrupt it. Later clients get new
// sessions, built from a copy of the options (buildApp fills them in) one
// at a time. closeFirst closes the first session if no client took it.
func agentFactory(streams IOStreams, env environment, opts *Options) (newAgent func() (*jsonrpc.Agent, error), closeFirst func(), err error) {
	first, err := buildApp(streams, env, opts, false)
	if err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	taken := false
	later := *opts
	later.Session, later.Continue = "", false
	// Each client decides trust afresh: control files can arrive or
	// change while cairn listens (a git pull), and --trust-project
	// approved only what was there at start.
	later.trust, later.TrustProject = nil, false
	newAgent = func() (*jsonrpc.Agent, error) {
		mu.Lock()
		defer mu.Unlock()
		if !taken {
			taken = true
			return agentOf(first), nil
		}
		o := later
		a, err := buildApp(streams, env, &o, false)
		if err != nil {
			return nil, err
		}
		return agentOf(a), nil
	}
	closeFirst = func() {
		mu.Lock()
		defer mu.Unlock()
		if !taken {
			taken = true
			first.close()
		}
	}
	return newAgent, closeFirst, nil
}

func agentOf(a *app) *jsonrpc.Agent {
	return &jsonrpc.Agent{Session: a.session, Tools: a.session.Tools(), Models: a.cat.Available(), Dir: a.cwd, Close: a.close}
}
