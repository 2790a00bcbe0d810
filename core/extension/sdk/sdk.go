// Package sdk is for writing cairn extensions in Go. An extension is a
// program cairn starts and talks to over its stdin and stdout (JSON-RPC
// 2.0, one message per line; docs/extensions.md): it registers tools, `/`
// commands and event handlers, then calls Run. The names follow pi's
// ExtensionAPI (registerTool, registerCommand, on, ctx.ui.select, ...), so
// a pi extension's logic ports line by line.
//
// The package uses only the standard library, so an extension built with
// it stays small and starts fast. It lives under core/extension because
// it is the other half of that package's protocol, versioned with it.
package sdk

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
)

// ProtocolVersion is the protocol version this package speaks.
const ProtocolVersion = 1

// Content is a block of a tool's result: text, or an image.
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// Text is a text block.
func Text(s string) Content { return Content{Type: "text", Text: s} }

// Result is what a tool returns, in pi's shape.
type Result struct {
	Content []Content `json:"content"`
	Details any       `json:"details,omitempty"`
	IsError bool      `json:"isError,omitempty"`
}

// Tool is a tool the model may call. Execute's error becomes a failed
// result whose text is the error's (pi: throwing from execute).
type Tool struct {
	Name        string
	Label       string
	Description string
	// Parameters is the JSON Schema of the arguments (type object).
	Parameters json.RawMessage
	// Inactive tools are not offered until SetActiveTools names them.
	Inactive bool
	Execute  func(ctx context.Context, call *Call) (Result, error)
}

// Call is one call of a tool.
type Call struct {
	ID     string
	Params json.RawMessage
	x      *Extension
}

// Update sends partial output while the call runs.
func (c *Call) Update(content []Content, details any) error {
	return c.x.notify("tool_update", map[string]any{"toolCallId": c.ID, "content": content, "details": details})
}

// Command is a `/` command.
type Command struct {
	Name        string
	Description string
	Handler     func(ctx context.Context, args string, c *Context) error
}

// Handler handles an event: ev is the event as cairn sent it (pi's
// fields); the result (nil for none) is the event's result, for example
// map[string]any{"block": true, "reason": "..."} for tool_call. An error
// fails the handler: cairn then never allows what it could have blocked.
type Handler func(ctx context.Context, ev json.RawMessage, c *Context) (any, error)

// Context is what handlers get: the mode, whether there is a UI, and the
// UI.
type Context struct {
	Mode  string
	HasUI bool
	Cwd   string
	UI    *UI
}

// Extension is an extension being written: register, then Run.
type Extension struct {
	Name string

	tools    []*Tool
	commands []Command
	handlers map[string][]Handler
	order    []string

	in  io.Reader
	out io.Writer
	wmu sync.Mutex

	mu      sync.Mutex
	next    int64
	pending map[string]chan response
	cancels map[string]context.CancelFunc
	ctx     Context
}

// New returns an extension named name.
func New(name string) *Extension {
	x := &Extension{Name: name, handlers: map[string][]Handler{}, in: os.Stdin, out: os.Stdout,
		pending: map[string]chan response{}, cancels: map[string]context.CancelFunc{}}
	x.ctx.UI = &UI{x: x}
	return x
}

// RegisterTool registers a tool (pi's registerTool).
func (x *Extension) RegisterTool(t Tool) { x.tools = append(x.tools, &t) }

// RegisterCommand registers a `/` command (pi's registerCommand).
func (x *Extension) RegisterCommand(c Command) { x.commands = append(x.commands, c) }

// On adds a handler of event (pi's on): "tool_call", "input", ...
func (x *Extension) On(event string, h Handler) {
	if _, ok := x.handlers[event]; !ok {
		x.order = append(x.order, event)
	}
	x.handlers[event] = append(x.handlers[event], h)
}

// SetActiveTools names the extension's tools offered from now on.
func (x *Extension) SetActiveTools(ctx context.Context, names []string) error {
	_, err := x.call(ctx, "set_active_tools", map[string]any{"names": names})
	return err
}

// SendUserMessage sends text as the person's message; deliverAs is "",
// "steer" or "followUp" (pi's sendUserMessage).
func (x *Extension) SendUserMessage(ctx context.Context, text, deliverAs string) error {
	p := map[string]any{"content": text}
	if deliverAs != "" {
		p["deliverAs"] = deliverAs
	}
	_, err := x.call(ctx, "send_user_message", p)
	return err
}

type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

type response struct {
	result json.RawMessage
	err    *Error
}

// Error is a JSON-RPC error; Code CodeNoUI means the front end has no UI
// for the call (print mode): handle it, do not wait.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// CodeNoUI is the code of a UI call the front end cannot do.
const CodeNoUI = -32001

// IsNoUI reports whether err says there is no UI for the call.
func IsNoUI(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeNoUI
}

// Run serves cairn until it closes stdin. Requests are served
// concurrently; it returns nil at the end of input.
func (x *Extension) Run() error {
	r := bufio.NewReaderSize(x.in, 1<<16)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var m message
			if jerr := json.Unmarshal(line, &m); jerr == nil {
				x.dispatch(m, &wg)
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func (x *Extension) dispatch(m message, wg *sync.WaitGroup) {
	switch {
	case m.Method == "" && m.ID != nil:
		x.mu.Lock()
		ch := x.pending[string(m.ID)]
		delete(x.pending, string(m.ID))
		x.mu.Unlock()
		if ch != nil {
			ch <- response{m.Result, m.Error}
		}
	case m.Method == "cancel":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(m.Params, &p)
		x.mu.Lock()
		if c := x.cancels[string(p.ID)]; c != nil {
			c()
		}
		x.mu.Unlock()
	case m.ID != nil:
		ctx, cancel := context.WithCancel(context.Background())
		x.mu.Lock()
		x.cancels[string(m.ID)] = cancel
		x.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				x.mu.Lock()
				delete(x.cancels, string(m.ID))
				x.mu.Unlock()
				cancel()
			}()
			result, err := x.serve(ctx, m)
			x.respond(m.ID, result, err)
		}()
	}
}

func (x *Extension) serve(ctx context.Context, m message) (any, error) {
	switch m.Method {
	case "initialize":
		var p struct {
			Mode  string   `json:"mode"`
			HasUI bool     `json:"hasUI"`
			Cwd   string   `json:"cwd"`
			UI    []string `json:"ui"`
		}
		_ = json.Unmarshal(m.Params, &p)
		x.mu.Lock()
		x.ctx.Mode, x.ctx.HasUI, x.ctx.Cwd = p.Mode, p.HasUI, p.Cwd
		x.mu.Unlock()
		return x.initResult(), nil
	case "execute_tool":
		var p struct {
			ToolCallID string          `json:"toolCallId"`
			Name       string          `json:"name"`
			Params     json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, err
		}
		for _, t := range x.tools {
			if t.Name == p.Name {
				res, err := t.Execute(ctx, &Call{ID: p.ToolCallID, Params: p.Params, x: x})
				if err != nil {
					return nil, err
				}
				if res.Content == nil {
					res.Content = []Content{}
				}
				return res, nil
			}
		}
		return nil, fmt.Errorf("no tool named %q", p.Name)
	case "run_command":
		var p struct {
			Name string `json:"name"`
			Args string `json:"args"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return nil, err
		}
		for _, c := range x.commands {
			if c.Name == p.Name {
				return nil, c.Handler(ctx, p.Args, x.context())
			}
		}
		return nil, fmt.Errorf("no command named %q", p.Name)
	case "event":
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(m.Params, &head)
		var last any
		for _, h := range x.handlers[head.Type] {
			r, err := h(ctx, m.Params, x.context())
			if err != nil {
				return nil, err
			}
			if r != nil {
				last = r
			}
		}
		return last, nil
	}
	return nil, &Error{Code: -32601, Message: "method not found: " + m.Method}
}

func (x *Extension) context() *Context {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := x.ctx
	return &c
}

func (x *Extension) initResult() map[string]any {
	tools := make([]map[string]any, 0, len(x.tools))
	for _, t := range x.tools {
		d := map[string]any{"name": t.Name, "description": t.Description, "parameters": t.Parameters}
		if t.Label != "" {
			d["label"] = t.Label
		}
		if t.Inactive {
			d["active"] = false
		}
		tools = append(tools, d)
	}
	cmds := make([]map[string]any, 0, len(x.commands))
	for _, c := range x.commands {
		cmds = append(cmds, map[string]any{"name": c.Name, "description": c.Description})
	}
	return map[string]any{"protocolVersion": ProtocolVersion, "name": x.Name, "tools": tools, "commands": cmds, "events": append([]string{}, x.order...)}
}

func (x *Extension) write(m any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	x.wmu.Lock()
	defer x.wmu.Unlock()
	_, err = x.out.Write(append(b, '\n'))
	return err
}

func (x *Extension) respond(id json.RawMessage, result any, err error) {
	m := map[string]any{"jsonrpc": "2.0", "id": id}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: -32000, Message: err.Error()}
		}
		m["error"] = e
	} else {
		if result == nil {
			result = json.RawMessage("null")
		}
		m["result"] = result
	}
	_ = x.write(m)
}

func (x *Extension) notify(method string, params any) error {
	return x.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request to cairn and waits for its answer or ctx.
func (x *Extension) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ch := make(chan response, 1)
	x.mu.Lock()
	x.next++
	id := strconv.FormatInt(x.next, 10)
	x.pending[id] = ch
	x.mu.Unlock()
	if err := x.write(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, r.err
		}
		return r.result, nil
	case <-ctx.Done():
		x.mu.Lock()
		delete(x.pending, id)
		x.mu.Unlock()
		return nil, ctx.Err()
	}
}
