package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
	"github.com/cairn-dev/cairn/core/tools"
)

// clientCapabilities is what the client offers in initialize: its file
// system and its terminals.
type clientCapabilities struct {
	FS struct {
		ReadTextFile  bool `json:"readTextFile"`
		WriteTextFile bool `json:"writeTextFile"`
	} `json:"fs"`
	Terminal bool `json:"terminal"`
}

// ClientCallLimit bounds how long cairn waits for the client's answer to
// one of its fs or terminal requests (except terminal/wait_for_exit,
// which lasts as long as the command).
const ClientCallLimit = 30 * time.Second

// useClient routes the built-in tools' file reads, writes and commands
// of thread t through the client where it offers them, and back to the
// local machine where it does not (a second initialize may offer less).
func useClient(t *thread, s *server, caps clientCapabilities) {
	ws := t.b.host.Workspace
	if ws == nil {
		return
	}
	if caps.FS.ReadTextFile || caps.FS.WriteTextFile {
		ws.SetFS(&clientFS{s: s, t: t, read: caps.FS.ReadTextFile, write: caps.FS.WriteTextFile})
	} else {
		ws.SetFS(nil)
	}
	if caps.Terminal {
		ws.SetTerminal(clientTerminal{s: s, t: t})
	} else {
		ws.SetTerminal(nil)
	}
}

// clientError is the client's error answer to one of cairn's requests.
type clientError struct {
	method string
	err    *rpcError
}

func (e *clientError) Error() string {
	return fmt.Sprintf("the editor refused %s: %s", e.method, e.err.Message)
}

// call sends a request about thread t to the client, in order with t's
// updates, and decodes its result into result (nil ignores it). It waits
// at most limit (0: until ctx ends), and never past the end of the
// connection. A request given up on is withdrawn with $/cancel_request.
func (s *server) call(ctx context.Context, t *thread, method string, params any, limit time.Duration, result any) error {
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	answer := make(chan message, 1)
	s.mu.Lock()
	id := s.nextOut
	s.nextOut++
	s.pending[id] = answer
	s.mu.Unlock()
	t.send(outRequest{JSONRPC: "2.0", ID: &id, Method: method, Params: params})

	var m message
	select {
	case m = <-answer:
	case <-ctx.Done():
		s.dropPending(id)
		t.send(outRequest{JSONRPC: "2.0", Method: "$/cancel_request", Params: cancelRequest{RequestID: json.RawMessage(strconv.Itoa(id))}})
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && limit > 0 {
			return fmt.Errorf("the editor did not answer %s within %s", method, limit)
		}
		return ctx.Err()
	case <-s.ctx.Done():
		s.dropPending(id)
		return fmt.Errorf("the editor closed the connection before answering %s", method)
	}
	if m.Error != nil {
		return &clientError{method: method, err: m.Error}
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("the editor's answer to %s is not what ACP says: %v", method, err)
		}
	}
	return nil
}

func (s *server) dropPending(id int) {
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
}

// takePending hands a response to the call waiting for it; it reports
// false when no call waits for that id.
func (s *server) takePending(n int, m message) bool {
	s.mu.Lock()
	ch, ok := s.pending[n]
	delete(s.pending, n)
	s.mu.Unlock()
	if ok {
		ch <- m
	}
	return ok
}

// clientFS is the client's file system: fs/read_text_file and
// fs/write_text_file, for what it offers.
type clientFS struct {
	s           *server
	t           *thread
	read, write bool
}

type readTextFile struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
}

type writeTextFile struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}

func (f *clientFS) ReadTextFile(ctx context.Context, path string) (string, bool, error) {
	if !f.read {
		return "", false, nil
	}
	var r struct {
		Content *string `json:"content"`
	}
	if err := f.s.call(ctx, f.t, "fs/read_text_file", readTextFile{SessionID: f.t.id, Path: path}, f.s.host.ClientCallLimit, &r); err != nil {
		return "", true, err
	}
	if r.Content == nil {
		return "", true, errors.New(`the editor's answer to fs/read_text_file has no "content"`)
	}
	return *r.Content, true, nil
}

func (f *clientFS) WriteTextFile(ctx context.Context, path, content string) (bool, error) {
	if !f.write {
		return false, nil
	}
	return true, f.s.call(ctx, f.t, "fs/write_text_file", writeTextFile{SessionID: f.t.id, Path: path, Content: content}, f.s.host.ClientCallLimit, nil)
}

// clientTerminal runs commands in the client's terminals (terminal/*).
type clientTerminal struct {
	s *server
	t *thread
}

type (
	terminalCreate struct {
		SessionID       string     `json:"sessionId"`
		Command         string     `json:"command"`
		Args            []string   `json:"args"`
		Env             []envEntry `json:"env"`
		Cwd             string     `json:"cwd"`
		OutputByteLimit int        `json:"outputByteLimit"`
	}
	envEntry struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	terminalRef struct {
		SessionID  string `json:"sessionId"`
		TerminalID string `json:"terminalId"`
	}
	exitStatus struct {
		ExitCode *int    `json:"exitCode"`
		Signal   *string `json:"signal"`
	}
	terminalOutput struct {
		Output     string      `json:"output"`
		Truncated  bool        `json:"truncated"`
		ExitStatus *exitStatus `json:"exitStatus"`
	}
)

// Run creates a terminal for the command, waits for it to exit (killing
// it when ctx ends or its timeout passes), reads its output and releases
// it. The client keeps showing a released terminal's output in the tool
// call it was added to.
func (t clientTerminal) Run(ctx context.Context, c tools.TerminalCommand, started func(string)) (tools.TerminalRun, error) {
	s, th := t.s, t.t
	sid := th.id
	var created struct {
		TerminalID string `json:"terminalId"`
	}
	create := terminalCreate{SessionID: sid, Command: c.Shell, Args: []string{"-c", c.Line}, Env: []envEntry{}, Cwd: c.Dir, OutputByteLimit: c.OutputLimit}
	if err := s.call(ctx, th, "terminal/create", create, s.host.ClientCallLimit, &created); err != nil {
		return tools.TerminalRun{}, err
	}
	if created.TerminalID == "" {
		return tools.TerminalRun{}, errors.New(`the editor's answer to terminal/create has no "terminalId"`)
	}
	ref := terminalRef{SessionID: sid, TerminalID: created.TerminalID}
	// The terminal is released whatever happens, even after ctx ended.
	defer func() { _ = s.call(context.Background(), th, "terminal/release", ref, s.host.ClientCallLimit, nil) }()
	started(created.TerminalID)

	waitCtx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	var exit exitStatus
	err := s.call(waitCtx, th, "terminal/wait_for_exit", ref, 0, &exit)
	stopped := err != nil && waitCtx.Err() != nil
	switch {
	case stopped:
		_ = s.call(context.Background(), th, "terminal/kill", ref, s.host.ClientCallLimit, nil)
	case err != nil:
		return tools.TerminalRun{}, err
	}
	var out terminalOutput
	if err := s.call(context.Background(), th, "terminal/output", ref, s.host.ClientCallLimit, &out); err != nil && !stopped {
		return tools.TerminalRun{}, err
	}
	run := tools.TerminalRun{Output: out.Output, Truncated: out.Truncated}
	switch {
	case stopped && ctx.Err() != nil:
		run.Exit = shell.Exit{Code: -1, Cancelled: true}
	case stopped:
		run.Exit = shell.Exit{Code: -1, TimedOut: true}
	default:
		run.Exit = exit.shellExit()
	}
	return run, nil
}

// shellExit is how the command ended in the shell package's terms.
func (e exitStatus) shellExit() shell.Exit {
	switch {
	case e.Signal != nil && *e.Signal != "":
		return shell.Exit{Code: -1, Signal: *e.Signal}
	case e.ExitCode != nil:
		return shell.Exit{Code: *e.ExitCode}
	}
	return shell.Exit{Code: -1, Err: errors.New("the editor reported neither an exit code nor a signal")}
}
