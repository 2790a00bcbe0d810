package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/cairn-dev/cairn/core/child"
)

// initLimit bounds a server's start (process start to the initialize
// answer) beyond which it is stopped and counted as failed.
const initLimit = 60 * time.Second

// client is one running language server for one root: the process, the
// JSON-RPC connection, the documents it was told about and the
// diagnostics it published.
type client struct {
	server Server
	root   string
	cmd    *exec.Cmd
	conn   jsonrpc2.Conn
	stderr *child.Tail
	// ctx ends when the client fails, ending whatever waits on the server.
	ctx    context.Context
	cancel context.CancelFunc

	// ready is closed once the server answered initialize; failed is
	// closed when it stopped (or never started), err then saying why.
	ready  chan struct{}
	failed chan struct{}
	once   sync.Once
	err    error

	mu    sync.Mutex
	docs  map[protocol.DocumentURI]*document
	diags map[protocol.DocumentURI]published
	// seq counts publishes; changed is closed and replaced at each one.
	seq     uint64
	changed chan struct{}
}

// document is what the server was last told of a file.
type document struct {
	version int32
	sum     [32]byte
}

// published is a file's last published diagnostics.
type published struct {
	seq     uint64
	version uint32
	list    []protocol.Diagnostic
}

// start starts s's program in root and begins initializing it; the
// returned client is ready when its ready channel closes.
func start(s Server, path, root string, env []string) (*client, error) {
	c := &client{server: s, root: root, stderr: &child.Tail{}, ready: make(chan struct{}), failed: make(chan struct{}),
		docs: map[protocol.DocumentURI]*document{}, diags: map[protocol.DocumentURI]published{}, changed: make(chan struct{})}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	cmd := exec.Command(path, s.Command[1:]...)
	cmd.Dir, cmd.Env, cmd.Stderr = root, env, c.stderr
	// Whatever the server started and left holding its stderr cannot
	// keep Wait from returning.
	cmd.WaitDelay = 2 * time.Second
	child.OwnGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", s.Command[0], err)
	}
	c.cmd = cmd
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(&pipes{r: stdout, w: stdin, stop: func() { child.KillGroup(cmd) }}))
	c.conn.Go(c.ctx, c.handle)
	// A broken connection stops the process; the process's end, whatever
	// caused it, is the client's.
	go func() {
		<-c.conn.Done()
		child.KillGroup(cmd)
	}()
	go func() {
		werr := cmd.Wait()
		if werr == nil {
			werr = errors.New("exited")
		}
		if cerr := c.conn.Err(); cerr != nil && !errors.Is(cerr, io.EOF) && !strings.Contains(cerr.Error(), "EOF") {
			werr = fmt.Errorf("%v after %v", werr, cerr)
		}
		c.fail(fmt.Errorf("%s stopped: %v%s", s.Command[0], werr, stderrNote(c.stderr)))
	}()
	go c.initialize()
	return c, nil
}

// initialize runs LSP's handshake, stopping the server if it does not
// answer within initLimit.
func (c *client) initialize() {
	ctx, cancel := context.WithTimeout(c.ctx, initLimit)
	defer cancel()
	root := uri.File(c.root)
	params := &protocol.InitializeParams{
		ProcessID:  int32(os.Getpid()),
		ClientInfo: &protocol.ClientInfo{Name: "cairn"},
		RootURI:    root,
		RootPath:   c.root,
		Capabilities: protocol.ClientCapabilities{
			TextDocument: &protocol.TextDocumentClientCapabilities{
				Synchronization:    &protocol.TextDocumentSyncClientCapabilities{DidSave: true},
				PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: true},
			},
			Workspace: &protocol.WorkspaceClientCapabilities{Configuration: true, WorkspaceFolders: true},
		},
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(root), Name: c.server.Name}},
	}
	var result protocol.InitializeResult
	if _, err := c.conn.Call(ctx, protocol.MethodInitialize, params, &result); err != nil {
		c.fail(fmt.Errorf("%s did not initialize: %v%s", c.server.Command[0], err, stderrNote(c.stderr)))
		return
	}
	if err := c.conn.Notify(ctx, protocol.MethodInitialized, &protocol.InitializedParams{}); err != nil {
		c.fail(fmt.Errorf("%s did not initialize: %v", c.server.Command[0], err))
		return
	}
	close(c.ready)
}

// fail records why the server stopped, stops it and closes failed.
func (c *client) fail(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		c.cancel()
		_ = c.conn.Close()
		child.KillGroup(c.cmd)
		close(c.failed)
	})
}

// stop stops the server.
func (c *client) stop() { c.fail(errors.New("stopped")) }

// dead reports whether the server stopped, and why.
func (c *client) dead() (bool, error) {
	select {
	case <-c.failed:
		c.mu.Lock()
		defer c.mu.Unlock()
		return true, c.err
	default:
		return false, nil
	}
}

// isReady reports whether the server is initialized, without waiting.
func (c *client) isReady() bool {
	select {
	case <-c.ready:
		return true
	default:
		return false
	}
}

// waitReady waits until the server is initialized, ctx ends or it
// stops, and reports whether it is ready.
func (c *client) waitReady(ctx context.Context) bool {
	select {
	case <-c.ready:
		return true
	case <-ctx.Done():
	case <-c.failed:
	}
	return false
}

// handle answers the server's requests and keeps its diagnostics. It runs
// on the connection's reading goroutine and never waits on anything else.
func (c *client) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.publish(p)
		}
		return reply(ctx, nil, nil)
	case protocol.MethodWorkspaceConfiguration:
		// No settings of our own: the server's defaults for every item.
		var p protocol.ConfigurationParams
		_ = json.Unmarshal(req.Params(), &p)
		return reply(ctx, make([]any, len(p.Items)), nil)
	case protocol.MethodWorkspaceWorkspaceFolders:
		return reply(ctx, []protocol.WorkspaceFolder{{URI: string(uri.File(c.root)), Name: c.server.Name}}, nil)
	case protocol.MethodWorkDoneProgressCreate, protocol.MethodClientRegisterCapability,
		protocol.MethodClientUnregisterCapability, protocol.MethodWindowShowMessageRequest:
		return reply(ctx, nil, nil)
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "cairn does not handle "+req.Method()))
	}
	return nil
}

// publish stores a file's diagnostics and wakes whoever waits for them.
func (c *client) publish(p protocol.PublishDiagnosticsParams) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.diags[p.URI] = published{seq: c.seq, version: p.Version, list: p.Diagnostics}
	close(c.changed)
	c.changed = make(chan struct{})
}

// sync tells the server of the file's current text, opening it first if
// the server does not know it. It returns the publish count before it
// spoke and the version sent, or changed false when the server already
// had this text.
func (c *client) sync(ctx context.Context, path string, text []byte) (seq uint64, version int32, changed bool, err error) {
	u := uri.File(path)
	sum := sha256.Sum256(text)
	c.mu.Lock()
	d, open := c.docs[u]
	seq = c.seq
	if open && d.sum == sum {
		c.mu.Unlock()
		return seq, d.version, false, nil
	}
	if !open {
		d = &document{}
		c.docs[u] = d
	}
	d.version++
	d.sum = sum
	version = d.version
	c.mu.Unlock()
	if !open {
		err = c.send(ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: protocol.LanguageIdentifier(languageID(path, c.server.Name)), Version: version, Text: string(text)}})
	} else {
		err = c.send(ctx, protocol.MethodTextDocumentDidChange, &wholeChange{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
			ContentChanges: []wholeText{{Text: string(text)}}})
	}
	if err == nil {
		err = c.send(ctx, protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	}
	if err != nil {
		// The server's view is unknown now: open it afresh next time.
		c.mu.Lock()
		delete(c.docs, u)
		c.mu.Unlock()
	}
	return seq, version, true, err
}

// wholeChange is didChange's parameters with the whole text as the one
// change. (protocol.TextDocumentContentChangeEvent always writes a range,
// which makes servers read it as an insertion at the start.)
type wholeChange struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []wholeText                              `json:"contentChanges"`
}

// wholeText is a change replacing a document's whole text.
type wholeText struct {
	Text string `json:"text"`
}

// send writes a notification, giving up when ctx ends: a server that
// stopped reading its input cannot hold up the caller.
func (c *client) send(ctx context.Context, method string, params any) error {
	done := make(chan error, 1)
	go func() { done <- c.conn.Notify(c.ctx, method, params) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-c.failed:
		return errors.New("the server stopped")
	}
}

// DefaultSettle is how long a file's diagnostics must stay unchanged,
// once the first answer for its version came, before they count as
// complete: servers publish in stages (syntax, then types).
const DefaultSettle = 300 * time.Millisecond

// diagnostics waits until the server published diagnostics for path
// after publish number seq (and for version or later, when it says),
// then until they stay unchanged for the server's settle time, ctx ends
// or it stops. It reports whether any answer came; the list is the
// latest.
func (c *client) diagnostics(ctx context.Context, path string, seq uint64, version int32) ([]protocol.Diagnostic, bool) {
	u := uri.File(path)
	settle := c.server.Settle
	if settle <= 0 {
		settle = DefaultSettle
	}
	quiet := time.NewTimer(settle)
	quiet.Stop()
	defer quiet.Stop()
	got := false
	var last uint64
	for {
		c.mu.Lock()
		p, ok := c.diags[u]
		changed := c.changed
		c.mu.Unlock()
		if ok && p.seq > seq && p.seq != last && (p.version == 0 || p.version >= uint32(version)) {
			// A new stage for this file: it must stay quiet from now.
			got, last = true, p.seq
			quiet.Reset(settle)
		}
		select {
		case <-changed:
			continue
		case <-quiet.C:
		case <-ctx.Done():
		case <-c.failed:
		}
		return p.list, got
	}
}

// known returns the diagnostics last published for path, and whether
// there were any.
func (c *client) known(path string) ([]protocol.Diagnostic, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.diags[uri.File(path)]
	return p.list, ok
}

// all returns every file's last diagnostics, by file path.
func (c *client) all() map[string][]protocol.Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]protocol.Diagnostic{}
	for u, p := range c.diags {
		if len(p.list) > 0 {
			out[uri.URI(u).Filename()] = p.list
		}
	}
	return out
}

// pipes joins a server's output and input as the connection's stream;
// closing it stops the server.
type pipes struct {
	r    io.ReadCloser
	w    io.WriteCloser
	stop func()
}

func (p *pipes) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipes) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *pipes) Close() error {
	p.stop()
	_ = p.w.Close()
	return p.r.Close()
}

// stderrNote is the last line a server wrote to stderr as a clause to add
// to an error, or "".
func stderrNote(t *child.Tail) string {
	s := strings.TrimSpace(t.LastLines(1))
	if s == "" {
		return ""
	}
	if len(s) > 400 {
		s = s[len(s)-400:]
	}
	return " (its last output: " + s + ")"
}
