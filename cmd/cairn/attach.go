package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/cairn-dev/cairn/core"
	prochost "github.com/cairn-dev/cairn/core/host"
	"github.com/cairn-dev/cairn/rpcmode/acp"
)

// liveServe is what a live session offers attached clients: its ACP host
// (built when the first client comes) and, when the owner is the TUI, a
// second TUI drawn for an attached terminal.
type liveServe struct {
	acp func() acp.Host
	// tui runs a TUI on the session for a remote terminal; nil when the
	// owner has no TUI to offer (a headless build, an rpc host).
	tui atomic.Pointer[remoteTUI]
}

// remoteTUI draws a TUI of the session for an attached terminal.
type remoteTUI func(ctx context.Context, t remoteTerminal) error

// offerTUI lets attached terminals open a TUI of a's session (the owner's
// TUI offers one).
func (a *app) offerTUI(f remoteTUI) {
	if a.live != nil {
		a.live.tui.Store(&f)
	}
}

// goLive registers a's session as live in the process's host and starts
// the attach socket if it is not running yet: from then on `cairn ps`
// lists it and `cairn acp --attach`, `cairn attach` and the web page
// reach it. stop removes it (call it before the session closes). Set
// CAIRN_ATTACH=off to serve no socket (the session is still live in the
// process: its web page, /share, still reaches it).
func (a *app) goLive(streams IOStreams, env environment, opts *Options, front string) (stop func()) {
	if env.host == nil {
		return func() {}
	}
	o := *opts
	serve := &liveServe{acp: sync.OnceValue(func() acp.Host {
		h := acpHost(streams, env, &o, a)
		// The owner's Close is the owner's: an attached client never ends
		// the session.
		h.Close, h.Open, h.ListSessions = nil, nil, nil
		// The owner told the person what an untrusted project left out,
		// and offers its trust itself.
		h.StartNotice, h.Trust = "", nil
		return h
	})}
	a.live = serve
	unregister := env.host.Register(&prochost.Live{Session: a.session, Cwd: a.cwd, Front: front, Serve: serve})
	if attachOff(env) {
		return unregister
	}
	if _, err := env.host.Listen(prochost.Dir(env.getenv), attachHandler(env, streams)); err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: other clients cannot attach to this session: %v\n", err)
	}
	return unregister
}

// attachDir is the directory of the person's attach sockets; "" where
// the environment cannot be read (an environment built by hand).
func attachDir(env environment) string {
	if env.getenv == nil {
		return ""
	}
	return prochost.Dir(env.getenv)
}

// attachOff reports whether the person turned the attach socket off.
func attachOff(env environment) bool {
	switch strings.ToLower(env.getenv("CAIRN_ATTACH")) {
	case "off", "0", "false", "no":
		return true
	}
	return false
}

// liveDial is the web page's Dial: each page gets an ACP stream to the
// live sessions of this process (acp.ServeLive on an in-process pipe),
// exactly what a client of the attach socket gets. Closing it lets go of
// the sessions; they go on.
func liveDial(env environment, streams IOStreams) func(context.Context) (io.ReadWriteCloser, error) {
	base := acp.Host{Version: versionString(), Warn: func(msg string) { fmt.Fprintf(streams.Err, "cairn: web page: %s\n", msg) }}
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		page, agent := net.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer agent.Close()
			if err := acp.ServeLive(ctx, agent, agent, base, liveSessions{env.host}); err != nil && !errors.Is(err, io.ErrClosedPipe) {
				base.Warn(err.Error())
			}
		}()
		return &pipeStream{Conn: page, done: done}, nil
	}
}

// pipeStream is a page's end of its pipe; Close waits (bounded) for the
// other end to let go.
type pipeStream struct {
	net.Conn
	done chan struct{}
	once sync.Once
}

func (s *pipeStream) Close() error {
	var err error
	s.once.Do(func() {
		err = s.Conn.Close()
		select {
		case <-s.done:
		case <-time.After(closeLimit):
		}
	})
	return err
}

// closeLimit bounds how long closing a page's stream waits.
const closeLimit = 10 * time.Second

// liveSessions is the host's live sessions as the ACP adapter reads them.
type liveSessions struct{ h *prochost.Host }

func (l liveSessions) Sessions() []acp.LiveSession {
	var out []acp.LiveSession
	for _, s := range l.h.Sessions() {
		if ls, ok := toLive(s); ok {
			out = append(out, ls)
		}
	}
	return out
}

func (l liveSessions) Find(id string) (acp.LiveSession, error) {
	s, ambiguous, ok := l.h.Find(id)
	if !ok {
		if len(ambiguous) > 0 {
			return acp.LiveSession{}, fmt.Errorf("%q names %d live sessions (%s); give more of the id", id, len(ambiguous), strings.Join(ambiguous, ", "))
		}
		return acp.LiveSession{}, fmt.Errorf("no live session %s in this cairn (cairn ps lists them)", id)
	}
	ls, ok := toLive(s)
	if !ok {
		return acp.LiveSession{}, fmt.Errorf("session %s cannot be attached to", id)
	}
	return ls, nil
}

func toLive(s *prochost.Live) (acp.LiveSession, bool) {
	serve, ok := s.Serve.(*liveServe)
	if !ok {
		return acp.LiveSession{}, false
	}
	return acp.LiveSession{Host: serve.acp(), Front: s.Front, Started: s.Started}, true
}

// terminalMethod is the first frame of a connection that wants a TUI
// drawn for its terminal (`cairn attach`) instead of ACP; params are a
// terminalHello. Everything after that line is terminal traffic.
const terminalMethod = "_cairn/terminal"

// terminalHello describes the attaching terminal.
type terminalHello struct {
	SessionID string `json:"sessionId"`
	Cols      int    `json:"cols"`
	Rows      int    `json:"rows"`
	// Profile is the terminal's colour profile (colorprofile's number).
	Profile int `json:"profile"`
}

// helloLimit bounds the wait for a connection's first frame.
const helloLimit = 30 * time.Second

// maxHello bounds the first line of a connection.
const maxHello = 64 << 10

// attachHandler serves one connection of the attach socket: ACP, unless
// its first frame asks for a terminal.
func attachHandler(env environment, streams IOStreams) func(ctx context.Context, c net.Conn) {
	base := acp.Host{Version: versionString(), Warn: func(msg string) { fmt.Fprintf(streams.Err, "cairn: attach: %s\n", msg) }}
	live := liveSessions{env.host}
	return func(ctx context.Context, c net.Conn) {
		r := bufio.NewReaderSize(c, maxHello)
		// The first frame says what the connection is; a client that
		// sends none in helloLimit is let go.
		_ = c.SetReadDeadline(time.Now().Add(helloLimit))
		first, err := r.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
		_ = c.SetReadDeadline(time.Time{})
		var hello struct {
			Method string        `json:"method"`
			Params terminalHello `json:"params"`
		}
		if json.Unmarshal(first, &hello) == nil && hello.Method == terminalMethod {
			serveTerminal(ctx, live, hello.Params, r, c)
			return
		}
		// ACP from the first frame on (an oversized one is refused there).
		in := io.MultiReader(bytes.NewReader(append([]byte(nil), first...)), r)
		if err := acp.ServeLive(ctx, in, c, base, live); err != nil && !errors.Is(err, net.ErrClosed) {
			base.Warn(err.Error())
		}
	}
}

// serveTerminal draws a second TUI of session hello.SessionID (or the only
// live one that has a TUI) for the attached terminal.
func serveTerminal(ctx context.Context, live liveSessions, hello terminalHello, in io.Reader, c net.Conn) {
	s, err := pickTUI(live.h, hello.SessionID)
	if err != nil {
		fmt.Fprintf(c, "cairn: %v\r\n", err)
		return
	}
	serve := s.Serve.(*liveServe)
	t := newRemoteTerminal(hello, in, c)
	s.Session.Notify(core.NotifyInfo, "Another terminal (cairn attach) joined this session")
	defer s.Session.Notify(core.NotifyInfo, "Another terminal (cairn attach) left this session")
	if err := (*serve.tui.Load())(ctx, t); err != nil && ctx.Err() == nil {
		fmt.Fprintf(c, "\r\ncairn: %v\r\n", err)
	}
}

// pickTUI finds the live session named id, or the only one, that can draw
// a TUI for another terminal.
func pickTUI(h *prochost.Host, id string) (*prochost.Live, error) {
	if id != "" {
		s, ambiguous, ok := h.Find(id)
		switch {
		case !ok && len(ambiguous) > 0:
			return nil, fmt.Errorf("%q names %d live sessions (%s); give more of the id", id, len(ambiguous), strings.Join(ambiguous, ", "))
		case !ok:
			return nil, fmt.Errorf("no live session %s", id)
		}
		if serve, _ := s.Serve.(*liveServe); serve == nil || serve.tui.Load() == nil {
			return nil, fmt.Errorf("session %s runs in %s, which draws no terminal interface; attach an editor with `cairn acp --attach %s`", s.ID(), s.Front, s.ID())
		}
		return s, nil
	}
	var withTUI []*prochost.Live
	for _, s := range h.Sessions() {
		if serve, _ := s.Serve.(*liveServe); serve != nil && serve.tui.Load() != nil {
			withTUI = append(withTUI, s)
		}
	}
	if len(withTUI) != 1 {
		return nil, fmt.Errorf("%d sessions of this cairn have a terminal interface; name one", len(withTUI))
	}
	return withTUI[0], nil
}

// liveInfo is a live session as `cairn ps` and the attaching commands see
// it.
type liveInfo struct {
	Socket    string
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title"`
	UpdatedAt string `json:"updatedAt"`
	Meta      struct {
		Cairn struct {
			Front string `json:"front"`
			Busy  bool   `json:"busy"`
		} `json:"cairn"`
	} `json:"_meta"`
}

// askLimit bounds how long a process's socket has to list its sessions.
const askLimit = 3 * time.Second

// liveEverywhere lists the live sessions of every cairn process of the
// person's, asking each over its socket; a process that does not answer
// in time is left out and said in warnings.
func liveEverywhere(env environment) (out []liveInfo, warnings []string) {
	for _, path := range prochost.Sockets(prochost.Dir(env.getenv)) {
		infos, err := askSessions(path)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		out = append(out, infos...)
	}
	return out, warnings
}

// askSessions asks one socket for its live sessions over ACP.
func askSessions(path string) ([]liveInfo, error) {
	c, err := prochost.Dial(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(askLimit))
	if _, err := io.WriteString(c, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`+"\n"); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var resp struct {
			ID     int `json:"id"`
			Result struct {
				Sessions []liveInfo `json:"sessions"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &resp) != nil || resp.ID != 2 {
			continue
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("%s: %s", path, resp.Error.Message)
		}
		for i := range resp.Result.Sessions {
			resp.Result.Sessions[i].Socket = path
		}
		return resp.Result.Sessions, nil
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nil, fmt.Errorf("%s: the process closed the connection without listing its sessions", path)
}

// findLive picks the live session id names (a prefix is enough when it is
// unique), or the only one when id is "".
func findLive(env environment, id string) (liveInfo, error) {
	all, warnings := liveEverywhere(env)
	var matches []liveInfo
	for _, s := range all {
		if id == "" || s.SessionID == id {
			matches = append(matches, s)
			if id != "" {
				return s, nil
			}
		} else if strings.HasPrefix(s.SessionID, id) {
			matches = append(matches, s)
		}
	}
	switch {
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) == 0 && id == "":
		msg := "no cairn session is running (start cairn in another terminal, then attach)"
		if len(warnings) > 0 {
			msg += "; " + strings.Join(warnings, "; ")
		}
		return liveInfo{}, errors.New(msg)
	case len(matches) == 0:
		return liveInfo{}, fmt.Errorf("no running session's id starts with %q (cairn ps lists them)", id)
	}
	ids := make([]string, len(matches))
	for i, m := range matches {
		ids[i] = m.SessionID
	}
	if id == "" {
		return liveInfo{}, fmt.Errorf("%d sessions are running (%s); name one (cairn ps lists them)", len(matches), strings.Join(ids, ", "))
	}
	return liveInfo{}, fmt.Errorf("%q names %d running sessions (%s); give more of the id", id, len(matches), strings.Join(ids, ", "))
}

const psUsage = `usage: cairn ps

Lists the sessions running in your cairn processes (the TUI, rpc hosts,
editors' ACP sessions): their ids, what runs them, their directories and
titles. Attach to one with cairn attach ID (a terminal) or cairn acp
--attach ID (an editor).
`

// psCommand runs `cairn ps`.
func psCommand(args []string, streams IOStreams, getenv func(string) string) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprint(streams.Out, psUsage)
			return exitOK
		}
		fmt.Fprintf(streams.Err, "cairn ps: unknown argument %q\n%s", a, psUsage)
		return exitUsage
	}
	env := newEnvironment(getenv)
	all, warnings := liveEverywhere(env)
	for _, w := range warnings {
		fmt.Fprintf(streams.Err, "cairn: warning: %s\n", w)
	}
	if len(all) == 0 {
		fmt.Fprintln(streams.Out, "no cairn session is running")
		return exitOK
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].UpdatedAt < all[j].UpdatedAt })
	tw := tabwriter.NewWriter(streams.Out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tFRONT\tSTATE\tSTARTED\tDIRECTORY\tTITLE")
	for _, s := range all {
		state := "idle"
		if s.Meta.Cairn.Busy {
			state = "working"
		}
		started := s.UpdatedAt
		if t, err := time.Parse(time.RFC3339, s.UpdatedAt); err == nil {
			started = t.Local().Format("15:04:05")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.SessionID, s.Meta.Cairn.Front, state, started, shortHome(s.Cwd, getenv("HOME")), oneLine(s.Title, 50))
	}
	_ = tw.Flush()
	return exitOK
}

const acpAttachUsage = `usage: cairn acp --attach [SESSION]

Connects an ACP client (an editor) on stdin and stdout to a session that
is running in another cairn (the TUI, an rpc host, another editor): the
client sees the session's history, then every event as it happens, and
can prompt, cancel and answer questions. SESSION is an id or the start of
one (cairn ps lists them); without it, the only running session.
`

// acpAttachCommand runs `cairn acp --attach [SESSION]`: stdio to the
// socket of the process that runs the session.
func acpAttachCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	id := ""
	for _, a := range args {
		switch {
		case a == "--attach":
		case a == "-h" || a == "--help":
			fmt.Fprint(streams.Out, acpAttachUsage)
			return exitOK
		case strings.HasPrefix(a, "-") || id != "":
			fmt.Fprintf(streams.Err, "cairn acp: unknown argument %q\n%s", a, acpAttachUsage)
			return exitUsage
		default:
			id = a
		}
	}
	// The editor's session/new then attaches to this session.
	c, err := dialLive(getenv, id, acp.AttachMethod, func(sessionID string) any { return map[string]string{"sessionId": sessionID} })
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer c.Close()
	return pipeConn(ctx, streams, c)
}

// dialLive connects to the process that runs session id (or the only
// running session, id "") and sends the connection's first frame: a
// notification of method with the params made for the session found.
func dialLive(getenv func(string) string, id, method string, params func(sessionID string) any) (net.Conn, error) {
	target, err := findLive(newEnvironment(getenv), id)
	if err != nil {
		return nil, err
	}
	c, err := prochost.Dial(target.Socket)
	if err != nil {
		return nil, err
	}
	first, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params(target.SessionID)})
	if err == nil {
		_, err = c.Write(append(first, '\n'))
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// pipeConn copies streams.In to c and c to streams.Out until either side
// ends or ctx does. The session goes on whatever happens here.
func pipeConn(ctx context.Context, streams IOStreams, c net.Conn) int {
	done := make(chan error, 2)
	go func() {
		_, err := io.Copy(c, streams.In)
		if uc, ok := c.(*net.UnixConn); ok {
			_ = uc.CloseWrite()
		}
		done <- err
	}()
	go func() {
		_, err := io.Copy(streams.Out, c)
		done <- err
	}()
	select {
	case <-ctx.Done():
		return exitOK
	case err := <-done:
		if err != nil && !errors.Is(err, net.ErrClosed) && !errors.Is(err, os.ErrClosed) {
			fmt.Fprintf(streams.Err, "cairn: %v\n", err)
			return exitFailure
		}
		// The client's input ended: what the session still writes for it
		// (the answer to its last request) is read until the socket
		// closes, at most closeGrace.
		select {
		case <-done:
		case <-time.After(closeGrace):
		case <-ctx.Done():
		}
		return exitOK
	}
}

// closeGrace bounds the wait for the last frames after the client's input
// ended.
const closeGrace = 10 * time.Second

// shortHome writes a path under home with ~.
func shortHome(p, home string) string {
	if home != "" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}
