package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/child"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// State is where an extension is in its life.
type State uint8

// The states of an extension.
const (
	Starting State = iota + 1
	Ready
	// Failed: it never became ready (it could not start, or its
	// initialize failed or timed out).
	Failed
	// Crashed: it stopped, or was cut off, after it was ready.
	Crashed
	Stopped
)

// String names the state.
func (s State) String() string {
	switch s {
	case Starting:
		return "starting"
	case Ready:
		return "ready"
	case Failed:
		return "failed"
	case Crashed:
		return "crashed"
	case Stopped:
		return "stopped"
	}
	return "unknown"
}

// extension is one running extension process.
type extension struct {
	m      *Manager
	cfg    Config
	stderr child.Tail

	mu       sync.Mutex
	state    State
	err      error
	name     string
	tools    []*Tool
	commands []CommandDef
	events   map[string]bool
	// members are the extensions a host extension runs (version 2).
	members []Member
	// version is the protocol version the extension answered.
	version int
	conn    *conn
	cmd     *exec.Cmd
	// updates routes tool_update notifications to the running calls.
	updates map[string]func(core.ToolUpdate)
	// ops are cairn's calls in flight: aborting one ends the dialogs the
	// extension opened while it ran.
	ops map[*opCtx]struct{}
	// dialogs counts open dialogs: an event handler's time limit does not
	// run while one is open.
	dialogs int
	exited  chan struct{}
	// startReason is session_start's reason when the process has started
	// ("" for "startup"); reloads counts its reloads (reload.go).
	startReason string
	reloads     int
	// customs are the components it shows (custom.go).
	customs components
}

type opCtx struct{ ctx context.Context }

func (e *extension) snapshot() (State, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.state, e.err
}

// start runs the process and its initialize; it returns when the
// extension is ready or has failed.
func (e *extension) start(ctx context.Context) {
	if e.cfg.Err != nil {
		e.fail(e.cfg.Err)
		return
	}
	cmd := exec.Command(e.cfg.Command, e.cfg.Args...)
	cmd.Dir = e.cfg.Dir
	if e.cfg.Scope == ScopeSettings || cmd.Dir == "" {
		cmd.Dir = e.m.opts.Cwd
	}
	cmd.Env = child.Env(e.m.opts.Getenv)
	for _, k := range slices.Sorted(maps.Keys(e.cfg.Env)) {
		cmd.Env = append(cmd.Env, k+"="+e.cfg.Env[k])
	}
	cmd.Stderr = &e.stderr
	cmd.WaitDelay = stopGrace
	child.OwnGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		e.fail(err)
		return
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		e.fail(err)
		return
	}
	log := e.openLog()
	if log != nil {
		cmd.Stderr = io.MultiWriter(&e.stderr, log)
	}
	if err := cmd.Start(); err != nil {
		if log != nil {
			log.Close()
		}
		e.fail(fmt.Errorf("start %s: %w", e.cfg.Command, err))
		return
	}
	c := newConn(stdin, e.serve)
	c.inline = e.servedInline
	if tr := e.m.opts.Trace; tr != nil {
		c.trace = func(in bool, line []byte) { tr(e.cfg.Name, in, line) }
	}
	e.mu.Lock()
	e.conn, e.cmd = c, cmd
	stopped := e.state == Stopped
	e.mu.Unlock()
	go func() {
		e.watch(stdout)
		if log != nil {
			log.Close()
		}
	}()
	if stopped {
		// The session ended while the process started: stop it now,
		// and return once it is gone (Close waits for this).
		c.close()
		e.kill()
		<-e.exited
		return
	}

	ictx, cancel := context.WithTimeout(ctx, e.m.opts.StartTimeout)
	defer cancel()
	raw, err := c.call(ictx, MethodInitialize, InitializeParams{
		ProtocolVersion: ProtocolVersion, CairnVersion: e.m.opts.CairnVersion, Cwd: e.m.opts.Cwd,
		Mode: e.m.opts.Mode, HasUI: e.m.hasUI(), UI: nonNil(e.m.ui()), Flags: flagValues(e.m.opts.Flags),
	})
	if err == nil {
		err = e.initialized(raw)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("it did not answer initialize within %s", e.m.opts.StartTimeout)
		}
		e.fail(e.withStderr(e.why(err)))
		e.kill()
		return
	}
	e.m.changed()
	if e.handles("session_start") {
		e.mu.Lock()
		reason := e.startReason
		e.mu.Unlock()
		if reason == "" {
			reason = "startup"
		}
		_, _ = e.event(ctx, "session_start", map[string]any{"type": "session_start", "reason": reason})
	}
}

// initialized takes the registrations of initialize's result.
func (e *extension) initialized(raw json.RawMessage) error {
	var r InitializeResult
	if err := strictJSON(raw, &r); err != nil {
		return fmt.Errorf("its initialize result cannot be read: %w", err)
	}
	if r.ProtocolVersion < MinProtocolVersion || r.ProtocolVersion > ProtocolVersion {
		return fmt.Errorf("it speaks protocol version %d; cairn speaks %d to %d", r.ProtocolVersion, MinProtocolVersion, ProtocolVersion)
	}
	if r.ProtocolVersion < 2 && len(r.Members) > 0 {
		return fmt.Errorf("it answers \"members\", which protocol version %d does not have", r.ProtocolVersion)
	}
	for _, ev := range r.Events {
		if !knownEventFor(ev, r.ProtocolVersion) {
			return fmt.Errorf("it handles an event cairn does not have: %q", jsonrpc2.Echo(ev))
		}
	}
	tools := make([]*Tool, 0, len(r.Tools))
	for _, d := range r.Tools {
		t, err := e.newTool(d)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(tools, func(o *Tool) bool { return o.def.Name == d.Name }) {
			return fmt.Errorf("it registers the tool %q twice", d.Name)
		}
		tools = append(tools, t)
	}
	for _, c := range r.Commands {
		if err := checkCommand(c); err != nil {
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state != Starting {
		return fmt.Errorf("it stopped while starting")
	}
	e.name = r.Name
	e.tools, e.commands = tools, r.Commands
	e.members = r.Members
	e.version = r.ProtocolVersion
	e.events = map[string]bool{}
	for _, ev := range r.Events {
		e.events[ev] = true
	}
	e.state = Ready
	e.registerProviders(r)
	return nil
}

// watch reads the extension's output until it ends, then reaps it and
// records why it stopped; a crash after start-up is told once.
func (e *extension) watch(stdout io.Reader) {
	e.conn.read(newGuard(stdout, e.m.opts.Now))
	readErr := e.conn.readErr()
	if readErr != io.EOF {
		// Cut off: it wrote too much, or nonsense.
		e.kill()
	}
	e.conn.close()
	waitErr := e.cmd.Wait()
	why := readErr
	if why == io.EOF {
		why = errors.New("it closed its output")
		if waitErr != nil {
			why = fmt.Errorf("it exited: %v", waitErr)
		}
	} else {
		why = fmt.Errorf("cut off: it %w", readErr)
	}
	why = e.withStderr(why)
	e.mu.Lock()
	was := e.state
	switch was {
	case Starting:
		e.state, e.err = Failed, why
	case Ready:
		e.state, e.err = Crashed, why
	}
	e.mu.Unlock()
	e.dropProviders()
	e.m.changed()
	if was == Ready && !e.m.closing() {
		e.m.show(core.Notice{Level: core.NotifyError, Message: fmt.Sprintf("extension %q stopped: %v", e.cfg.Name, why)})
	}
	// Closed last: a call that failed because the extension is gone
	// returns after the crash was told, so it is told in its run.
	close(e.exited)
}

// why says why a call failed: for an extension that is gone, why it
// stopped (with the last lines of its stderr).
func (e *extension) why(err error) error {
	if errors.Is(err, errClosed) {
		<-e.exitedOrNow()
		if _, werr := e.snapshot(); werr != nil {
			return werr
		}
	}
	return err
}

// withStderr adds the last lines of stderr, and where the rest is, to
// err.
func (e *extension) withStderr(err error) error {
	if t := e.stderr.LastLines(tailLines); t != "" {
		err = fmt.Errorf("%w\nlast lines of its stderr:\n%s", err, t)
	}
	if path := e.logPath(); path != "" {
		err = fmt.Errorf("%w\nfull log: %s", err, path)
	}
	return err
}

// exitedOrNow returns a channel closed when the process is reaped, or at
// once when it never ran.
func (e *extension) exitedOrNow() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cmd == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	return e.exited
}

const tailLines = 10

// maxLogSize is the size past which an extension's log starts afresh.
const maxLogSize = 5 << 20

// logPath is where the extension's stderr is kept; "" without LogDir.
func (e *extension) logPath() string {
	if e.m.opts.LogDir == "" {
		return ""
	}
	name := strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, e.cfg.Name)
	if strings.Trim(name, ".") == "" {
		name = "extension"
	}
	return filepath.Join(e.m.opts.LogDir, name+".log")
}

// openLog opens the extension's stderr log for appending, or returns nil
// (no LogDir, or it cannot be written: the tail is still kept).
func (e *extension) openLog() *os.File {
	dir := e.m.opts.LogDir
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return nil
	}
	path := e.logPath()
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if info, err := os.Stat(path); err == nil && info.Size() > maxLogSize {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return nil
	}
	return f
}

// stopGrace is how long a stopping extension has after its stdin closes.
const stopGrace = 2 * time.Second

func (e *extension) fail(err error) {
	e.mu.Lock()
	if e.state == Starting {
		e.state, e.err = Failed, err
	}
	e.mu.Unlock()
	e.m.changed()
}

func (e *extension) kill() {
	e.mu.Lock()
	cmd := e.cmd
	e.mu.Unlock()
	if cmd != nil {
		child.KillGroup(cmd)
	}
}

// stop closes the extension's stdin (the session's end told it
// session_shutdown) and kills it when it has not gone after stopGrace.
func (e *extension) stop() {
	e.mu.Lock()
	c := e.conn
	if e.state == Ready || e.state == Starting {
		e.state = Stopped
	}
	e.mu.Unlock()
	if c == nil {
		return
	}
	c.close()
	select {
	case <-e.exited:
	case <-time.After(stopGrace):
		e.kill()
		<-e.exited
	}
}

func (e *extension) handles(event string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.state == Ready && e.events[event]
}

// callOp makes a call on the extension's behalf of an operation whose ctx
// aborts the dialogs it opens.
func (e *extension) callOp(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return e.callCtx(ctx, method, params, true)
}

// callDrawing makes a call that opens no dialog (a render): its end,
// which cancels its ctx, must not close the dialogs and components that
// other calls opened meanwhile.
func (e *extension) callDrawing(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return e.callCtx(ctx, method, params, false)
}

func (e *extension) callCtx(ctx context.Context, method string, params any, isOp bool) (json.RawMessage, error) {
	e.mu.Lock()
	c := e.conn
	if e.state != Ready || c == nil {
		err := e.err
		e.mu.Unlock()
		if err == nil {
			err = errClosed
		}
		return nil, err
	}
	if !isOp {
		e.mu.Unlock()
		return c.call(ctx, method, params)
	}
	op := &opCtx{ctx}
	e.ops[op] = struct{}{}
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.ops, op)
		e.mu.Unlock()
	}()
	return c.call(ctx, method, params)
}

// servedInline says which of an extension's requests never wait, and are
// served in order on the reading goroutine: UI calls that show something
// (notify, setStatus, setWidget, setTitle, set_editor_text), not dialogs,
// and send_user_message and send_message.
func (e *extension) servedInline(m jsonrpc2.Message) bool {
	if m.Method == MethodSendUserMessage || m.Method == MethodSendMessage {
		// Queued before the answer of the handler that sent it is read:
		// an agent_end handler's follow-up is in the queue when the run
		// looks for one.
		return true
	}
	if m.Method != MethodUI {
		return false
	}
	var p struct {
		Method core.UIMethod `json:"method"`
	}
	return json.Unmarshal(m.Params, &p) == nil && p.Method != "" && !p.Method.Dialog()
}
