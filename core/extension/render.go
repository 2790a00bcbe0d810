package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// MethodRender (version 2, cairn → extension) asks for the lines of
// something the extension draws, at a width: the footer or header it set,
// or its renderer of a custom message, a custom entry or a tool's call
// and result. The answer is a RenderResult; null means "draw your own".
const MethodRender = "render"

// RenderTarget names what a render request draws.
type RenderTarget string

// The render targets.
const (
	RenderFooter     RenderTarget = "footer"
	RenderHeader     RenderTarget = "header"
	RenderMessage    RenderTarget = "message"
	RenderEntry      RenderTarget = "entry"
	RenderToolCall   RenderTarget = "toolCall"
	RenderToolResult RenderTarget = "toolResult"
)

// RenderParams asks for lines at Width cells. The fields a target does
// not use are left out: a message has CustomType, Content and Details; an
// entry CustomType and Data; a tool ToolName, ToolCallID and Args, and
// its result Content, Details, IsError and IsPartial.
type RenderParams struct {
	Target     RenderTarget    `json:"target"`
	Width      int             `json:"width"`
	Expanded   bool            `json:"expanded,omitempty"`
	CustomType string          `json:"customType,omitempty"`
	Content    []core.Content  `json:"content,omitempty"`
	Details    json.RawMessage `json:"details,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	Args       json.RawMessage `json:"args,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
	IsPartial  bool            `json:"isPartial,omitempty"`
}

// RenderResult is the lines drawn, each at most the width asked.
type RenderResult struct {
	Lines []string `json:"lines"`
}

// Limits of one render: a drawing is chrome, never worth a stalled
// screen or a flooded one.
const (
	// RenderTimeout bounds a render request.
	RenderTimeout = 2 * time.Second
	// MaxRenderLines bounds the lines kept of one drawing.
	MaxRenderLines = 200
	// MaxRenderWidth bounds the width asked for.
	MaxRenderWidth = 1000
	// maxRenderLineBytes bounds one line's bytes.
	maxRenderLineBytes = 8 << 10
)

// ErrNoRenderer answers a render no extension draws: the front end
// draws its own.
var ErrNoRenderer = errors.New("no extension draws this")

// Render asks an extension for the lines of p: the named extension for a
// footer or header (the one that set it), otherwise the one whose members
// registered a renderer of p's custom type or tool. It waits at most
// RenderTimeout and keeps at most MaxRenderLines lines of at most 8 KiB
// each; the front end fits them to its width and shows their escapes as
// it shows any untrusted text.
func (m *Manager) Render(ctx context.Context, extension string, p RenderParams) ([]string, error) {
	if p.Width <= 0 {
		return nil, fmt.Errorf("render %s: width %d", p.Target, p.Width)
	}
	p.Width = min(p.Width, MaxRenderWidth)
	e := m.renderer(extension, p)
	if e == nil {
		return nil, ErrNoRenderer
	}
	ctx, cancel := context.WithTimeout(ctx, RenderTimeout)
	defer cancel()
	raw, err := e.callDrawing(ctx, MethodRender, p)
	if err != nil {
		return nil, fmt.Errorf("%s: render %s: %w", e.cfg.Name, p.Target, e.why(err))
	}
	if string(raw) == "null" {
		return nil, ErrNoRenderer
	}
	var r RenderResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("%s: render %s: the lines cannot be read: %w", e.cfg.Name, p.Target, err)
	}
	if len(r.Lines) > MaxRenderLines {
		r.Lines = r.Lines[:MaxRenderLines]
	}
	for i, l := range r.Lines {
		if len(l) > maxRenderLineBytes {
			r.Lines[i] = strings.ToValidUTF8(l[:maxRenderLineBytes], "")
		}
	}
	return r.Lines, nil
}

// renderer is the ready version 2 extension that draws p.
func (m *Manager) renderer(name string, p RenderParams) *extension {
	for _, e := range m.exts {
		e.mu.Lock()
		ok := e.state == Ready && e.version >= 2 && e.draws(name, p)
		e.mu.Unlock()
		if ok {
			return e
		}
	}
	return nil
}

// draws reports whether e draws p; e.mu is held. A member still loading
// at initialize may register renderers cairn was not told of: such an
// extension is asked, and answers null when it draws nothing.
func (e *extension) draws(name string, p RenderParams) bool {
	var names func(Member) []string
	switch p.Target {
	case RenderFooter, RenderHeader:
		return e.cfg.Name == name
	case RenderToolCall, RenderToolResult:
		if !slices.ContainsFunc(e.tools, func(t *Tool) bool { return t.def.Name == p.ToolName }) {
			return false
		}
		names = func(mb Member) []string { return mb.ToolRenderers }
	case RenderMessage:
		names = func(mb Member) []string { return mb.MessageRenderers }
	case RenderEntry:
		names = func(mb Member) []string { return mb.EntryRenderers }
	default:
		return false
	}
	key := p.CustomType
	if p.ToolName != "" {
		key = p.ToolName
	}
	return slices.ContainsFunc(e.members, func(mb Member) bool { return mb.State == "loading" || slices.Contains(names(mb), key) })
}

// Draws reports whether an extension draws p's target for its custom type
// or tool (a message, an entry, a tool's call or result), so a front end
// asks only then.
func (m *Manager) Draws(p RenderParams) bool { return m.renderer("", p) != nil }

// chromeEvent is the session event a chrome UI call shows (version 2).
func (e *extension) chromeEvent(p UIParams) (core.Event, *jsonrpc2.Error) {
	switch p.Method {
	case core.UISetFooter, core.UISetHeader:
		place := core.ChromeFooter
		if p.Method == core.UISetHeader {
			place = core.ChromeHeader
		}
		return core.ChromeSet{Extension: e.cfg.Name, Place: place, Set: p.Component != nil && *p.Component}, nil
	case core.UISetWorkingMessage:
		msg := p.Message
		return core.WorkingChanged{Message: &msg}, nil
	case core.UISetWorkingIndicator:
		if p.Indicator == nil {
			off := false
			return core.WorkingChanged{Indicator: &off}, nil
		}
		if p.Indicator.IntervalMs < 0 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "intervalMs must not be negative")
		}
		on := true
		frames := p.Indicator.Frames
		if len(frames) > maxIndicatorFrames {
			frames = frames[:maxIndicatorFrames]
		}
		return core.WorkingChanged{Indicator: &on, Frames: frames, Interval: p.Indicator.IntervalMs}, nil
	case core.UISetWorkingVisible:
		if p.Visible == nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "setWorkingVisible needs visible")
		}
		return core.WorkingChanged{Visible: p.Visible}, nil
	case core.UISetHiddenThinkingLabel:
		label := p.Message
		return core.WorkingChanged{ThinkingLabel: &label}, nil
	}
	return core.RenderRequested{Extension: e.cfg.Name}, nil
}

// maxIndicatorFrames bounds a working indicator's frames.
const maxIndicatorFrames = 64

// WorkingIndicator is a working indicator an extension sets: its frames,
// shown in turn every IntervalMs milliseconds (none: hidden).
type WorkingIndicator struct {
	Frames     []string `json:"frames"`
	IntervalMs int      `json:"intervalMs,omitempty"`
}
