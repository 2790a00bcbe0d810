package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/rpcmode/webui"
)

const serveUsage = `usage: cairn serve [--addr ADDR] [--port PORT] [--tls-cert FILE --tls-key FILE] [--provider NAME] [--model ID]

Starts a session in this directory and serves a web page for it (and for
every other session of this process): follow it as it streams, answer its
questions and send prompts from a browser (a phone's too). It prints the
page's address, with its secret token, once on stdout, and runs until
interrupted. Editors and terminals can join the same session
(cairn acp --attach, cairn attach); /share in the TUI serves the TUI's
session the same way.

  --addr ADDR       the address to listen on (default 127.0.0.1, this machine
                    only); any other address needs --tls-cert and --tls-key
  --port PORT       the port (default: a free one)
  --tls-cert FILE   a PEM certificate for the address: serve over HTTPS
  --tls-key FILE    the certificate's PEM key
  --provider NAME   the model provider the session uses
  --model ID        the model the session uses

Anyone with the address can drive cairn as you: do not share it.
`

// serveCommand runs `cairn serve`.
func serveCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	lc, sessionArgs, code, ok := serveArgs(args, streams)
	if !ok {
		return code
	}
	token, err := webui.NewToken()
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	env := newEnvironment(getenv)
	defer env.host.Close()
	opts, err := parseArgs(sessionArgs)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn serve: %v\n", err)
		return exitUsage
	}
	// The session the page drives, registered live like every other: a
	// page (several at once), an editor or a terminal can join it.
	opts.allowNoCredentials, opts.front = true, "web"
	a, err := buildApp(streams, env, opts, false)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer a.close()
	if a.noCredentials {
		fmt.Fprintf(streams.Err, "cairn: warning: %s\n", unconfigured(a))
	}
	srv, err := webui.Start(lc, webui.Config{
		Dial:  liveDial(env, streams),
		Token: token,
		Warn:  func(msg string) { fmt.Fprintf(streams.Err, "cairn: %s\n", msg) },
	})
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn serve: %v\n", err)
		return exitUsage
	}
	page := srv.URL()
	if cwd, err := os.Getwd(); err == nil {
		// The page offers new sessions in the directory cairn serves from.
		page += "?cwd=" + url.QueryEscape(cwd)
	}
	fmt.Fprintln(streams.Out, page)
	fmt.Fprintln(streams.Err, "cairn: serving the web page at the address above; anyone with it can drive cairn as you. Ctrl-C stops.")
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintf(streams.Err, "cairn serve: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// serveArgs reads serve's flags (--flag value or --flag=value): where to
// listen, and the arguments each session is built with. Anything else is
// refused.
func serveArgs(args []string, streams IOStreams) (lc webui.ListenConfig, sessionArgs []string, code int, ok bool) {
	sessionArgs = []string{"--mode", "acp"}
	// The session answers its questions through the page, as ACP's do.
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(args[i], "=")
		if name == "-h" || name == "--help" {
			fmt.Fprint(streams.Out, serveUsage)
			return lc, nil, exitOK, false
		}
		switch name {
		case "--addr", "--port", "--tls-cert", "--tls-key", "--provider", "--model":
		default:
			fmt.Fprintf(streams.Err, "cairn serve: unknown argument %s\n%s", args[i], serveUsage)
			return lc, nil, exitUsage, false
		}
		if !hasVal {
			if i+1 >= len(args) {
				fmt.Fprintf(streams.Err, "cairn serve: %s needs a value\n", name)
				return lc, nil, exitUsage, false
			}
			i++
			val = args[i]
		}
		switch name {
		case "--addr":
			lc.Addr = val
		case "--port":
			p, err := strconv.Atoi(val)
			if err != nil || p < 0 || p > 65535 {
				fmt.Fprintf(streams.Err, "cairn serve: --port needs a port number from 0 (a free one) to 65535, not %q\n", val)
				return lc, nil, exitUsage, false
			}
			lc.Port = p
		case "--tls-cert":
			lc.TLSCert = val
		case "--tls-key":
			lc.TLSKey = val
		default:
			sessionArgs = append(sessionArgs, name, val)
		}
	}
	return lc, sessionArgs, exitOK, true
}
