package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/jsonl"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// settleTimeout bounds the wait for a disconnected client's query to wind
// down before its session is closed (Close waits for it in any case).
const settleTimeout = 10 * time.Second

// conn is one client: its socket, its session, and the state the reader
// and the translator share.
type conn struct {
	nc    net.Conn
	cfg   Config
	ag    *Agent
	sess  *agent.Session
	sub   *agent.Subscription
	tools map[string]core.Tool
	hang  sync.Once

	mu          sync.Mutex
	initialized bool
	// running is the id of the query running, "" when idle; set by the
	// reader when it accepts a query, cleared by the translator just
	// before the query's stream.complete is written.
	running string
	// queued are the queries accepted while one ran, started in order
	// by the translator as each one before them completes.
	queued    []*pendingQuery
	nextQuery int
	// approvals are the open approval questions by execution id.
	approvals map[string]core.Question
	terminal  terminalState
}

func newConn(nc net.Conn, cfg Config) *conn {
	return &conn{nc: nc, cfg: cfg, approvals: map[string]core.Question{}}
}

// hangUp disconnects the client; serve then cleans up.
func (c *conn) hangUp() { c.hang.Do(func() { _ = c.nc.Close() }) }

// serve builds the client's session, reads its requests until it
// disconnects, then cancels its query, closes its session and flushes the
// session file.
func (c *conn) serve() {
	defer c.hangUp()
	ag, err := c.cfg.NewAgent()
	if err != nil {
		fmt.Fprintf(c.cfg.Log, "cairn: jsonrpc: could not start a session for a client: %v\n", err)
		_ = c.nc.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.nc.Write(encodeLine(response{JSONRPC: "2.0", ID: nullID, Error: errorf(CodeInternalError, "cairn could not start a session: %v", err)}))
		return
	}
	c.ag, c.sess = ag, ag.Session
	c.tools = map[string]core.Tool{}
	for _, t := range ag.Tools {
		c.tools[t.Spec().Name] = t
	}
	c.sub = c.sess.Follow()
	translated := make(chan struct{})
	tr := newTranslator(c)
	go func() {
		defer close(translated)
		tr.run(c.sub.Events())
	}()

	c.readLoop()

	c.sess.Abort()
	ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
	_ = c.sess.Wait(ctx)
	cancel()
	c.sub.Mark(endMark{})
	<-translated
	c.sub.Stop()
	if ag.Close != nil {
		ag.Close()
	} else {
		c.sess.Close()
	}
}

// readLoop reads and answers requests until the client disconnects.
func (c *conn) readLoop() {
	fr := jsonl.NewReader(c.nc, c.cfg.MaxMessageBytes).SkipBlank()
	for {
		line, tooLong, err := fr.Next()
		if err != nil {
			return
		}
		if tooLong {
			c.replyError(nullID, errorf(CodeInvalidRequest, "the message is longer than %d bytes, the most a message may be", c.cfg.MaxMessageBytes))
			continue
		}
		req, rerr := decodeRequest(line)
		if rerr != nil {
			id := req.ID
			if id == nil {
				id = nullID
			}
			c.replyError(id, rerr)
			continue
		}
		c.dispatch(req)
	}
}

// dispatch answers one request (or acts on one notification).
func (c *conn) dispatch(req request) {
	c.mu.Lock()
	ready := c.initialized
	c.mu.Unlock()
	if !ready && req.Method != "initialize" && req.Method != "context.update" {
		c.reply(req, nil, errorf(CodeInvalidRequest, "send initialize first"))
		return
	}
	var result any
	var err *Error
	switch req.Method {
	case "initialize":
		result, err = c.initialize(req.Params)
	case "agent.query":
		c.query(req)
		return
	case "agent.cancel":
		c.cancel(req)
		return
	case "tool.approve":
		result, err = c.approve(req.Params)
	case "context.update":
		result, err = c.updateContext(req.Params)
	case "session.save":
		result, err = c.save(req.Params)
	case "session.load":
		result, err = c.load(req.Params)
	case "session.list":
		result, err = c.list(req.Params)
	case "session.export":
		result, err = c.export(req.Params)
	case "session.delete":
		result, err = c.delete(req.Params)
	case rewindMethod:
		result, err = c.rewind(req.Params)
	default:
		err = &Error{Code: CodeMethodNotFound, Message: codeMessage(CodeMethodNotFound), Data: fmt.Sprintf("cairn has no method %q", jsonrpc2.Echo(req.Method))}
	}
	c.reply(req, result, err)
}

// reply answers req, in order with the notifications already queued; a
// notification gets no answer.
func (c *conn) reply(req request, result any, err *Error) {
	if req.notification() {
		return
	}
	if err != nil {
		c.replyError(req.ID, err)
		return
	}
	if r, ok := result.(*streamedResult); ok {
		c.sendStreamed(req.ID, r)
		return
	}
	c.send(response{JSONRPC: "2.0", ID: req.ID, Result: result})
}

// streamedResult is a result too large to encode first (a long session's
// transcript): head, what body writes, tail. The translator writes it as
// body encodes it.
type streamedResult struct {
	head []byte
	body io.WriterTo
	tail []byte
}

// sendStreamed queues the response to id whose result is r, written in
// pieces (jsonl.Frame) after every event the session published so far.
func (c *conn) sendStreamed(id json.RawMessage, r *streamedResult) {
	idJSON, err := json.Marshal(id)
	if err != nil {
		c.replyError(id, errorf(CodeInternalError, "encode the answer: %v", err))
		return
	}
	head := append([]byte(`{"jsonrpc":"2.0","id":`), idJSON...)
	head = append(append(head, `,"result":`...), r.head...)
	tail := append(slices.Clip(r.tail), "}\n"...)
	c.sub.Mark(piecesMark{jsonl.Frame{Head: head, Body: r.body, Tail: tail}})
}

func (c *conn) replyError(id json.RawMessage, err *Error) {
	c.send(response{JSONRPC: "2.0", ID: id, Error: err})
}

// send queues a message after every event the session published so far.
func (c *conn) send(v any) { c.sub.Mark(frameMark{line: encodeLine(v)}) }

// initializeParams are initialize's params; cairn reads only the version
// and the terminal's size.
type initializeParams struct {
	ProtocolVersion string         `json:"protocol_version"`
	ClientInfo      map[string]any `json:"client_info"`
	TerminalSize    *terminalSize  `json:"terminal_size"`
	Capabilities    []string       `json:"capabilities"`
}

type terminalSize struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

type modelInfo struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Loaded bool   `json:"loaded"`
}

func (c *conn) initialize(params json.RawMessage) (any, *Error) {
	var p initializeParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion != "" && majorVersion(p.ProtocolVersion) != majorVersion(ProtocolVersion) {
		return nil, &Error{Code: CodeInvalidParams, Message: codeMessage(CodeInvalidParams),
			Data: map[string]any{"reason": "cairn speaks protocol version " + ProtocolVersion, "supported_versions": []string{ProtocolVersion}}}
	}
	c.mu.Lock()
	c.initialized = true
	if p.TerminalSize != nil {
		c.terminal.size = *p.TerminalSize
	}
	c.mu.Unlock()
	current := c.sess.State().Model
	models := []modelInfo{{Name: modelName(current), Type: "chat", Loaded: true}}
	for _, m := range c.ag.Models {
		if m.Provider != current.Provider || m.ID != current.ID {
			models = append(models, modelInfo{Name: modelName(m), Type: "chat"})
		}
	}
	return map[string]any{
		"status":           "ready",
		"protocol_version": ProtocolVersion,
		"server_info":      map[string]string{"name": "cairn", "version": c.cfg.Version},
		"capabilities":     c.capabilities(),
		"models":           models,
		"session_id":       c.sess.Conversation().ID,
	}, nil
}

// capabilities are initialize's; "rewind" (cairn's, for cairn.rewind) is
// there while checkpoints are on.
func (c *conn) capabilities() []string {
	caps := []string{"streaming", "blocks", "tool_execution", "tool_approval", "context_aware", "session_persistence"}
	if c.sess.Checkpoints() != nil {
		caps = append(caps, "rewind")
	}
	return caps
}

func majorVersion(v string) string {
	for i, r := range v {
		if r == '.' {
			return v[:i]
		}
	}
	return v
}

func modelName(m core.Model) string { return m.Provider + "/" + m.ID }

// queryParams are agent.query's params.
type queryParams struct {
	Message *string          `json:"message"`
	Context *terminalContext `json:"context"`
	Options map[string]any   `json:"options"`
}

// query accepts a query: its response (the query id) is queued before the
// session publishes anything for it, then the prompt starts.
func (c *conn) query(req request) {
	var p queryParams
	if err := decodeParams(req.Params, &p); err != nil {
		c.reply(req, nil, err)
		return
	}
	if p.Message == nil || isBlank(*p.Message) {
		c.reply(req, nil, errorf(CodeInvalidParams, "message must be a non-empty string"))
		return
	}
	c.mu.Lock()
	if c.running != "" && len(c.queued) >= maxQueued {
		running := c.running
		c.mu.Unlock()
		c.reply(req, nil, &Error{Code: CodeAgentError, Message: codeMessage(CodeAgentError),
			Data: map[string]string{"reason": fmt.Sprintf("%d queries already wait for the running one on this connection; cancel one or wait for a stream.complete", maxQueued), "query_id": running}})
		return
	}
	c.nextQuery++
	id := "q-" + strconv.Itoa(c.nextQuery)
	if p.Context != nil {
		c.terminal.merge(*p.Context)
	}
	text := *p.Message + c.terminal.prompt(p.Context)
	if c.running != "" {
		// The shipped terminal sends its next query while the last one
		// still streams (ctrl+c there stops reading, it sends no
		// agent.cancel) and ignores an error: run it next, in order.
		c.queued = append(c.queued, &pendingQuery{id: id, text: text})
		c.mu.Unlock()
		c.reply(req, map[string]string{"query_id": id, "status": "queued"}, nil)
		return
	}
	c.running = id
	c.mu.Unlock()

	c.reply(req, map[string]string{"query_id": id, "status": "processing"}, nil)
	c.sub.Mark(queryMark{id: id, start: c.cfg.Now()})
	if err := c.sess.Prompt(text, nil, agent.BehaviorNone); err != nil {
		c.sub.Mark(failMark{id: id, err: err})
	}
}

// cancel stops the running query; it then ends with
// stream.complete{status:"cancelled"}.
func (c *conn) cancel(req request) {
	var p struct {
		QueryID *string `json:"query_id"`
	}
	if err := decodeParams(req.Params, &p); err != nil {
		c.reply(req, nil, err)
		return
	}
	c.mu.Lock()
	running := c.running
	id := running
	if p.QueryID != nil {
		id = *p.QueryID
	}
	for i, q := range c.queued {
		if q.id == id {
			c.queued = append(c.queued[:i:i], c.queued[i+1:]...)
			c.mu.Unlock()
			c.reply(req, map[string]any{"cancelled": true, "query_id": id}, nil)
			c.completeCancelled(id)
			return
		}
	}
	c.mu.Unlock()
	if running == "" || id != running {
		c.reply(req, map[string]any{"cancelled": false, "query_id": id, "reason": "no query with this id is running"}, nil)
		return
	}
	c.reply(req, map[string]any{"cancelled": true, "query_id": id}, nil)
	c.sub.Mark(cancelMark{id: id})
	c.sess.Abort()
}

// completeCancelled ends a query that never started with its one
// stream.complete.
func (c *conn) completeCancelled(id string) {
	c.send(notification{JSONRPC: "2.0", Method: "stream.complete", Params: map[string]any{"query_id": id, "status": "cancelled",
		"metadata": map[string]any{"total_tokens": 0, "tools_executed": []string{}, "duration_ms": 0}}})
}

func (c *conn) updateContext(params json.RawMessage) (any, *Error) {
	var p terminalContext
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.terminal.merge(p)
	c.mu.Unlock()
	return map[string]bool{"updated": true}, nil
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

// maxQueued bounds the queries that may wait for the running one.
const maxQueued = 8

// pendingQuery is a query accepted while another ran.
type pendingQuery struct {
	id, text string
}

// The marks the reader places in the translator's stream.
type (
	// frameMark is a message to write as it is.
	frameMark struct{ line []byte }
	// piecesMark is a message written in pieces (sendStreamed).
	piecesMark struct{ frame jsonl.Frame }
	// queryMark starts a query.
	queryMark struct {
		id    string
		start time.Time
	}
	// cancelMark says the host cancelled the query.
	cancelMark struct{ id string }
	// failMark says the query's prompt was refused.
	failMark struct {
		id  string
		err error
	}
	// endMark is the last mark: the translator stops after it.
	endMark struct{}
)

func (frameMark) EventType() string  { return "jsonrpc_frame" }
func (piecesMark) EventType() string { return "jsonrpc_pieces" }
func (queryMark) EventType() string  { return "jsonrpc_query" }
func (cancelMark) EventType() string { return "jsonrpc_cancel" }
func (failMark) EventType() string   { return "jsonrpc_fail" }
func (endMark) EventType() string    { return "jsonrpc_end" }
