//go:build !headless

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	prochost "github.com/cairn-dev/cairn/core/host"
	"github.com/cairn-dev/cairn/rpcmode/webui"
	"github.com/cairn-dev/cairn/tui"
)

// runRemoteTUI draws a second TUI of the session for an attached terminal,
// with the owner's options, until the terminal goes or the person quits
// it; the session goes on either way.
func runRemoteTUI(ctx context.Context, o tui.Options, t remoteTerminal) error {
	o.Terminal, o.Preview, o.Scrollback = nil, nil, nil
	o.Attached, o.Resize = true, t.Sizes
	o.OpenResume, o.FirstRun, o.Notices = false, nil, nil
	o.ColorProfile = colorprofile.Profile(t.hello.Profile)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-t.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	cols, rows := t.hello.Cols, t.hello.Rows
	if cols <= 0 || rows <= 0 {
		cols, rows = 80, 24
	}
	return tui.Run(ctx, o, tea.WithInput(t.In), tea.WithOutput(t.Out), tea.WithWindowSize(cols, rows))
}

const attachUsage = `usage: cairn attach [SESSION]

Opens the terminal interface on a session running in another cairn's TUI,
as a second client: its history, then everything as it happens; prompts,
ctrl+c and answers to questions go to that session. Quitting here leaves
the session running. SESSION is an id or the start of one (cairn ps lists
them); without it, the only running session.
`

// attachCommand runs `cairn attach [SESSION]`.
func attachCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	id := ""
	for _, a := range args {
		switch {
		case a == "-h" || a == "--help":
			fmt.Fprint(streams.Out, attachUsage)
			return exitOK
		case len(a) > 0 && a[0] == '-' || id != "":
			fmt.Fprintf(streams.Err, "cairn attach: unknown argument %q\n%s", a, attachUsage)
			return exitUsage
		default:
			id = a
		}
	}
	in, inOK := streams.In.(*os.File)
	out, outOK := streams.Out.(*os.File)
	if !inOK || !outOK || !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) {
		fmt.Fprintln(streams.Err, "cairn attach needs a terminal; from a program or an editor, use cairn acp --attach")
		return exitUsage
	}
	env := newEnvironment(getenv)
	target, err := findLive(env, id)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	c, err := prochost.Dial(target.Socket)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer c.Close()
	cols, rows, _ := term.GetSize(out.Fd())
	hello := fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{"sessionId":%q,"cols":%d,"rows":%d,"profile":%d}}`+"\n",
		terminalMethod, target.SessionID, cols, rows, int(tui.DetectColorProfile(streams.Out, getenv)))
	if _, err := c.Write([]byte(hello)); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	state, err := term.MakeRaw(in.Fd())
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: cannot put the terminal in raw mode: %v\n", err)
		return exitFailure
	}
	defer func() { _ = term.Restore(in.Fd(), state) }()
	translateNewlines(out)
	return relayTerminal(ctx, in, out, c)
}

// relayTerminal sends keys and size changes to c and draws what comes
// back, until either side ends.
func relayTerminal(ctx context.Context, in, out *os.File, c net.Conn) int {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	done := make(chan error, 2)
	var wmu = make(chan struct{}, 1) // one writer of frames at a time
	send := func(kind byte, payload []byte) error {
		wmu <- struct{}{}
		defer func() { <-wmu }()
		return writeTerminalFrame(c, kind, payload)
	}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				if werr := send(frameKeys, buf[:n]); werr != nil {
					done <- werr
					return
				}
			}
			if err != nil {
				done <- err
				return
			}
		}
	}()
	go func() {
		_, err := io.Copy(out, c)
		done <- err
	}()
	for {
		select {
		case <-winch:
			if cols, rows, err := term.GetSize(out.Fd()); err == nil {
				_ = send(frameResize, []byte{byte(cols >> 8), byte(cols), byte(rows >> 8), byte(rows)})
			}
		case err := <-done:
			if err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, os.ErrClosed) {
				return exitFailure
			}
			return exitOK
		case <-ctx.Done():
			return exitOK
		}
	}
}

// sharePage is /share: the first call starts the web page on this
// process's live sessions (127.0.0.1, a free port, a new token) and every
// call returns its address; stop ends it.
func sharePage(ctx context.Context, env environment, streams IOStreams) (share func() (string, error), stop func()) {
	var (
		mu   sync.Mutex
		addr string
		done chan error
	)
	ctx, cancel := context.WithCancel(ctx)
	share = func() (string, error) {
		mu.Lock()
		defer mu.Unlock()
		if addr != "" {
			return addr, nil
		}
		token, err := webui.NewToken()
		if err != nil {
			return "", err
		}
		srv, err := webui.Start(webui.ListenConfig{}, webui.Config{Dial: liveDial(env, streams), Token: token,
			Warn: func(msg string) { fmt.Fprintf(streams.Err, "cairn: web page: %s\n", msg) }})
		if err != nil {
			return "", err
		}
		done = make(chan error, 1)
		go func() { done <- srv.Serve(ctx) }()
		addr = srv.URL()
		return addr, nil
	}
	stop = func() {
		cancel()
		mu.Lock()
		d := done
		mu.Unlock()
		if d != nil {
			<-d
		}
	}
	return share, stop
}
