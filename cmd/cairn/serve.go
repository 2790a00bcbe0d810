package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/rpcmode/webui"
)

const serveUsage = `usage: cairn serve [--addr ADDR] [--port PORT] [--tls-cert FILE --tls-key FILE] [--provider NAME] [--model ID]

Serves a web page for following cairn's sessions, answering their questions
and sending prompts from a browser (a phone's too). It prints the page's
address, with its secret token, once on stdout, and runs until interrupted.

  --addr ADDR       the address to listen on (default 127.0.0.1, this machine
                    only); any other address needs --tls-cert and --tls-key
  --port PORT       the port (default: a free one)
  --tls-cert FILE   a PEM certificate for the address: serve over HTTPS
  --tls-key FILE    the certificate's PEM key
  --provider NAME   the model provider new sessions use
  --model ID        the model new sessions use

Anyone with the address can drive cairn as you: do not share it.
`

// serveStreamClose bounds how long closing a page's stream waits for its
// sessions to settle and write their files.
const serveStreamClose = 30 * time.Second

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
	srv, err := webui.Start(lc, webui.Config{
		Dial:  serveDial(streams, env, sessionArgs),
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

// serveDial is the page's webui.Config.Dial: each page that connects gets
// a cairn of its own speaking ACP on an in-process pipe, built as
// `cairn --mode acp` builds one (acpMode) from sessionArgs, over the sessions
// stored on disk. Closing the stream ends it and waits for its sessions to
// write their files.
func serveDial(streams IOStreams, env environment, sessionArgs []string) func(context.Context) (io.ReadWriteCloser, error) {
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		opts, err := parseArgs(sessionArgs)
		if err != nil {
			return nil, err
		}
		page, agent := net.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer agent.Close()
			acpMode(ctx, IOStreams{In: agent, Out: agent, Err: streams.Err}, env, opts)
		}()
		return &servedStream{Conn: page, done: done}, nil
	}
}

// servedStream is a page's end of the pipe to its cairn.
type servedStream struct {
	net.Conn
	done  chan struct{}
	close sync.Once
}

// Close ends the pipe, then waits (at most serveStreamClose) for the
// sessions on the other end to settle.
func (s *servedStream) Close() error {
	var err error
	s.close.Do(func() {
		err = s.Conn.Close()
		select {
		case <-s.done:
		case <-time.After(serveStreamClose):
		}
	})
	return err
}
