package extension

// Version 2's interactive components (pi's ctx.ui.custom): the component
// lives in the extension, which draws it; cairn shows its lines and sends
// it keys and its size.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// Methods of version 2's components.
const (
	// MethodCustomShow (extension to cairn, a request) shows a
	// component; cairn answers when the extension closes it
	// (custom_close) or the person dismisses it, with CustomShowResult.
	MethodCustomShow = "custom_show"
	// MethodCustomRender (extension to cairn, a notification) is the
	// component's lines drawn anew.
	MethodCustomRender = "custom_render"
	// MethodCustomClose (extension to cairn, a notification) says the
	// extension is done with the component (pi's done()).
	MethodCustomClose = "custom_close"
	// MethodCustomInput (cairn to extension, a notification) is a key
	// or paste for the component, as the bytes a terminal writes.
	MethodCustomInput = "custom_input"
	// MethodCustomResize (cairn to extension, a notification) is the
	// terminal's size; the extension answers with custom_render.
	MethodCustomResize = "custom_resize"
	// MethodCustomAction (extension to cairn, a notification) is what
	// an editor component asks of cairn (CustomActionParams).
	MethodCustomAction = "custom_action"
)

// Bounds of a component's drawing: more lines, or longer ones, are cut.
const (
	MaxComponentLines    = 500
	MaxComponentLineSize = 4096
	// maxComponents bounds the components one extension has open.
	maxComponents = 8
)

// CustomShowParams opens a component.
type CustomShowParams struct {
	ID      string `json:"id"`
	Overlay bool   `json:"overlay,omitempty"`
	// Editor shows it in the editor's place until the extension closes
	// it (pi's setEditorComponent): cairn's own keys stay cairn's, and
	// the person cannot dismiss it.
	Editor bool `json:"editor,omitempty"`
}

// CustomActionParams is an editor component's request: Action is
// core.EditorSubmit (with Text), core.EditorInterrupt or core.EditorExit.
type CustomActionParams struct {
	ID     string `json:"id"`
	Action string `json:"action"`
	Text   string `json:"text,omitempty"`
}

// CustomShowResult says how a component ended: Dismissed when the person
// (or cairn, for a stopped session) closed it rather than the extension.
type CustomShowResult struct {
	Dismissed bool `json:"dismissed"`
}

// CustomRenderParams is a component's lines; an overlay's are placed at
// Row and Col (0-based cells from the top left).
type CustomRenderParams struct {
	ID    string   `json:"id"`
	Lines []string `json:"lines"`
	Row   int      `json:"row,omitempty"`
	Col   int      `json:"col,omitempty"`
}

// CustomCloseParams names the component the extension is done with.
type CustomCloseParams struct {
	ID string `json:"id"`
}

// CustomInputParams is a key for a component.
type CustomInputParams struct {
	ID   string `json:"id"`
	Data string `json:"data"`
}

// CustomResizeParams is the terminal's size, for a component.
type CustomResizeParams struct {
	ID     string `json:"id"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// component is one open component of an extension.
type component struct {
	e  *extension
	id string
	// closed is closed by the extension's custom_close; dismissed by
	// the person's Dismiss. Each at most once.
	closeOnce, dismissOnce sync.Once
	closed, dismissed      chan struct{}
	// editor is set for an editor component (pi's setEditorComponent).
	editor atomic.Bool
	// out is what the front end sends the extension, written in order
	// by writeOut while the component is shown.
	out chan outgoing
}

// components are an extension's open components, by id.
type components struct {
	mu   sync.Mutex
	open map[string]*component
}

// get returns the component id, opening its record when absent: a close
// or a drawing may arrive before the request that shows it is served.
func (cs *components) get(e *extension, id string) (*component, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c := cs.open[id]; c != nil {
		return c, true
	}
	if len(cs.open) >= maxComponents {
		return nil, false
	}
	if cs.open == nil {
		cs.open = map[string]*component{}
	}
	c := &component{e: e, id: id, closed: make(chan struct{}), dismissed: make(chan struct{}), out: make(chan outgoing, componentQueue)}
	cs.open[id] = c
	return c, true
}

// isEditor reports whether id is an open editor component.
func (cs *components) isEditor(id string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c := cs.open[id]
	return c != nil && c.editor.Load()
}

func (cs *components) drop(id string) {
	cs.mu.Lock()
	delete(cs.open, id)
	cs.mu.Unlock()
}

// Input implements core.Component.
func (c *component) Input(data string) {
	c.send(MethodCustomInput, CustomInputParams{ID: c.id, Data: data})
}

// Resize implements core.Component.
func (c *component) Resize(width, height int) {
	c.send(MethodCustomResize, CustomResizeParams{ID: c.id, Width: max(width, 1), Height: max(height, 1)})
}

// Dismiss implements core.Component.
func (c *component) Dismiss() { c.dismissOnce.Do(func() { close(c.dismissed) }) }

// componentQueue bounds the keys and sizes waiting to be written to the
// extension: past it (an extension that stopped reading) they are
// dropped, and the front end never waits.
const componentQueue = 256

// outgoing is a notification for the extension.
type outgoing struct {
	method string
	params any
}

// send queues a notification for the extension, in order, without
// waiting: the front end calls it from its event loop.
func (c *component) send(method string, params any) {
	select {
	case c.out <- outgoing{method, params}:
	default:
	}
}

// writeOut writes the queued notifications in order until done is
// closed.
func (c *component) writeOut(done <-chan struct{}) {
	for {
		select {
		case o := <-c.out:
			c.e.mu.Lock()
			conn, ready := c.e.conn, c.e.state == Ready
			c.e.mu.Unlock()
			if conn != nil && ready {
				_ = conn.notify(o.method, o.params)
			}
		case <-done:
			return
		}
	}
}

// custom serves the component methods.
func (e *extension) custom(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	switch m.Method {
	case MethodCustomRender:
		var p CustomRenderParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		if _, ok := e.customs.get(e, p.ID); !ok {
			return nil, jsonrpc2.Errorf(CodeRefused, "too many components open")
		}
		e.m.show(core.ComponentRendered{ID: e.componentID(p.ID), Lines: boundLines(p.Lines), Row: max(p.Row, 0), Col: max(p.Col, 0)})
		return nil, nil
	case MethodCustomAction:
		var p CustomActionParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		switch p.Action {
		case core.EditorSubmit, core.EditorInterrupt, core.EditorExit:
		default:
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "custom_action: unknown action %q (submit, interrupt or exit)", jsonrpc2.Echo(p.Action))
		}
		if !e.customs.isEditor(p.ID) {
			return nil, jsonrpc2.Errorf(CodeRefused, "custom_action: no editor component %q is shown", jsonrpc2.Echo(p.ID))
		}
		e.m.show(core.ComponentAction{ID: e.componentID(p.ID), Action: p.Action, Text: p.Text})
		return nil, nil
	case MethodCustomClose:
		var p CustomCloseParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		if c, ok := e.customs.get(e, p.ID); ok {
			c.closeOnce.Do(func() { close(c.closed) })
		}
		return nil, nil
	}
	var p CustomShowParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	return e.showComponent(p)
}

// showComponent shows a component and waits until it ends: the extension
// closes it, the person dismisses it, the call it was opened in is
// aborted or the extension stops.
func (e *extension) showComponent(p CustomShowParams) (any, *jsonrpc2.Error) {
	if p.ID == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "custom_show needs an id")
	}
	if !slices.Contains(e.m.ui(), core.UICustom) {
		return nil, &jsonrpc2.Error{Code: CodeNoUI, Message: fmt.Sprintf("no UI in this mode: %s cannot show a component", e.m.opts.Mode)}
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, &jsonrpc2.Error{Code: CodeNoUI, Message: "no UI: the session has ended"}
	}
	c, ok := e.customs.get(e, p.ID)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "too many components open (%d)", maxComponents)
	}
	defer e.customs.drop(p.ID)
	// A component lives as a dialog does; an editor for the extension's
	// life, not a call's, holding no handler's time limit.
	life := e.dialogContext
	if p.Editor {
		life = e.lifeContext
		c.editor.Store(true)
	}
	ctx, cancel := life()
	defer cancel()
	writing := make(chan struct{})
	defer close(writing)
	go c.writeOut(writing)
	id := e.componentID(p.ID)
	h.Show(core.ComponentShown{ID: id, Extension: e.cfg.Name, Overlay: p.Overlay && !p.Editor, Editor: p.Editor, Handle: c})
	defer h.Show(core.ComponentClosed{ID: id})
	select {
	case <-c.closed:
		return CustomShowResult{}, nil
	case <-c.dismissed:
	case <-ctx.Done():
	}
	return CustomShowResult{Dismissed: true}, nil
}

// componentID is a component's id among every extension's: the
// extension's own id, under the name it was configured with.
func (e *extension) componentID(id string) string { return e.cfg.Name + "/" + id }

// boundLines cuts a component's drawing to MaxComponentLines lines of at
// most MaxComponentLineSize bytes, never inside a character.
func boundLines(lines []string) []string {
	if len(lines) > MaxComponentLines {
		lines = lines[:MaxComponentLines]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) > MaxComponentLineSize {
			n := MaxComponentLineSize
			for n > 0 && !utf8.RuneStart(l[n]) {
				n--
			}
			l = l[:n]
		}
		out[i] = l
	}
	return out
}
