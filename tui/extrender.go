package tui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/extension"
)

// What extensions draw in cairn's own places (pi's setFooter, setHeader,
// message renderers, working indicator): the extension builds a component
// and renders it to lines for a width when cairn asks. Asking never
// blocks the screen: it happens in a tea.Cmd, bounded by
// extension.RenderTimeout, and cairn draws its own until the lines come;
// the lines are kept per width until the extension says they changed.

// Bounds of the asking.
const (
	// maxDrawingsAsked is how many render requests may be in flight.
	maxDrawingsAsked = 4
	// maxDrawnItems is how many of the newest extension-drawn transcript
	// items are asked for again after a resize; older ones keep cairn's
	// own drawing until then.
	maxDrawnItems = 64
	// maxDrawings bounds the drawings kept.
	maxDrawings = 512
)

// drawKey is one drawing asked for: a place (item nil) or a transcript
// item, at a width, expanded or not.
type drawKey struct {
	target   extension.RenderTarget
	item     *extItem
	width    int
	expanded bool
	// ver is a tool call's state when drawn: a new state, new lines.
	ver int
}

// drawnMsg brings an extension's lines, or why there are none.
type drawnMsg struct {
	key   drawKey
	gen   int
	lines []string
	err   error
}

// extDrawings is the extensions' drawings and what they set of the
// working line.
type extDrawings struct {
	// places names the extension holding the footer or header.
	places map[core.ChromePlace]string
	// drawn holds the lines of each drawing (nil: cairn draws its own);
	// stale, those from before the extension asked for a new rendering,
	// shown until the new ones come.
	drawn, stale map[drawKey][]string
	asking       map[drawKey]bool
	// header is the transcript's entry of an extension's header.
	header  *entry
	gen     int
	items   []*extItem
	working workingLook
}

// workingLook is what extensions set of the working line.
type workingLook struct {
	message   *string
	indicator bool // frames replace cairn's spinner
	frames    []string
	interval  int
	hidden    bool
	// thinkingLabel names folded thinking; "" is cairn's own.
	thinkingLabel string
}

// extItem is a transcript item an extension draws (a custom message, a
// tool call), with cairn's own drawing until its lines come.
type extItem struct {
	p     extension.RenderParams
	own   item
	entry *entry
	// lines are its drawings; stale, those from before its extension
	// asked for new ones, shown until they come.
	lines, stale map[drawKey][]string
	// tool is the call drawn (p is then made from its state); draws says
	// whether an extension draws its tool, asked once its name is known.
	tool      *toolItem
	toolName  string
	toolDraws bool
}

// get is the drawing k, or its stale one.
func (it *extItem) get(k drawKey) ([]string, bool) {
	if lines, ok := it.lines[k]; ok {
		return lines, true
	}
	lines, ok := it.stale[k]
	return lines, ok
}

func (it *extItem) render(rc *renderContext) string {
	if lines, ok := it.get(drawKey{target: it.p.Target, item: it, width: rc.contentWidth(), expanded: rc.expandTools}); ok && lines != nil {
		return indent(strings.Join(lines, "\n"))
	}
	return it.own.render(rc)
}

// addToolCall lets an extension draw a tool call (pi's renderCall and
// renderResult), once its tool is known to be one it draws.
func (m *Model) addToolCall(e *entry) {
	t := e.it.(*toolItem)
	if m.opts.ExtensionDraws == nil || m.opts.RenderExtension == nil {
		return
	}
	it := &extItem{tool: t, entry: e, lines: map[drawKey][]string{}}
	if t.name != "" && !it.drawsTool(m.opts.ExtensionDraws) {
		return
	}
	t.drawn = it
	m.draw.track(it)
}

// drawsTool reports whether an extension draws the call's tool.
func (it *extItem) drawsTool(draws func(extension.RenderParams) bool) bool {
	if it.tool.name != it.toolName {
		it.toolName = it.tool.name
		it.toolDraws = it.toolName != "" && draws(extension.RenderParams{Target: extension.RenderToolCall, ToolName: it.toolName})
	}
	return it.toolDraws
}

// toolParams is what a tool call's drawing is asked with.
func (it *extItem) toolParams(target extension.RenderTarget) extension.RenderParams {
	t := it.tool
	p := extension.RenderParams{Target: target, ToolName: t.name, ToolCallID: t.id}
	if json.Valid(t.args) && strings.HasPrefix(strings.TrimSpace(string(t.args)), "{") {
		p.Args = t.args
	}
	if target == extension.RenderToolResult {
		switch {
		case t.result != nil:
			p.Content, p.Details, p.IsError = t.result.Content, t.result.Details, t.result.IsError
		case t.partial != nil:
			p.Content, p.Details, p.IsPartial = t.partial.Content, t.partial.Details, true
		}
	}
	return p
}

// toolVer is the call's state, for its drawings' keys.
func toolVer(t *toolItem) int {
	v := int(t.state) * 2
	if t.partial != nil {
		v++
	}
	return v
}

// toolKeys are the drawings a tool call needs: its call, and its result
// once there is one, partial or whole.
func (it *extItem) toolKeys(width int, expanded bool) []drawKey {
	ver := toolVer(it.tool)
	keys := []drawKey{{target: extension.RenderToolCall, item: it, width: width, expanded: expanded, ver: ver}}
	if it.tool.result != nil || it.tool.partial != nil {
		keys = append(keys, drawKey{target: extension.RenderToolResult, item: it, width: width, expanded: expanded, ver: ver})
	}
	return keys
}

// toolLines draws a tool call with its extension's lines: none while an
// approval prompt shows for it (the person decides on cairn's preview),
// or before they came.
func (it *extItem) toolLines(rc *renderContext) (string, bool) {
	if it.tool.awaiting || !it.toolDraws {
		return "", false
	}
	var out []string
	for _, k := range it.toolKeys(rc.contentWidth(), rc.expandTools) {
		lines, ok := it.get(k)
		if !ok {
			// Drawn for an earlier state: shown until the new lines come.
			lines, ok = it.get(drawKey{target: k.target, item: it, width: k.width, expanded: k.expanded, ver: -1})
		}
		switch {
		case !ok && k.target == extension.RenderToolResult && len(out) > 0:
			// A first result on its way: the call alone until it comes.
		case !ok || lines == nil:
			return "", false
		}
		out = append(out, lines...)
	}
	return indent(strings.Join(out, "\n")), true
}

// onDrawingEvent takes what an extension set of its drawings.
func (m *Model) onDrawingEvent(e core.Event) tea.Cmd {
	d := &m.draw
	switch e := e.(type) {
	case core.ChromeSet:
		if d.places == nil {
			d.places = map[core.ChromePlace]string{}
		}
		if e.Set {
			d.places[e.Place] = e.Extension
		} else {
			delete(d.places, e.Place)
		}
		d.forget(extension.RenderTarget(e.Place))
		m.placeHeader()
	case core.RenderRequested:
		d.stale, d.drawn = d.drawn, nil
		d.gen++
		for _, it := range d.items {
			it.stale, it.lines = it.lines, map[drawKey][]string{}
		}
	case core.CustomEntryAdded:
		m.addCustomEntry(e)
	case core.WorkingChanged:
		w := &d.working
		if e.Message != nil {
			w.message = e.Message
			if *e.Message == "" {
				w.message = nil
			}
		}
		if e.Indicator != nil {
			w.indicator, w.frames, w.interval = *e.Indicator, e.Frames, e.Interval
		}
		if e.Visible != nil {
			w.hidden = !*e.Visible
		}
		if e.ThinkingLabel != nil && *e.ThinkingLabel != w.thinkingLabel {
			w.thinkingLabel = *e.ThinkingLabel
			m.tr.invalidate()
		}
	}
	return nil
}

// track keeps an item among those asked for again after a resize: the
// newest maxDrawnItems.
func (d *extDrawings) track(it *extItem) {
	d.items = append(d.items, it)
	if len(d.items) > maxDrawnItems {
		d.items = d.items[len(d.items)-maxDrawnItems:]
	}
}

// freshen asks an extension's footer and header again after the session
// changed what they may show (an answer's usage, the model, a status):
// pi draws them on every frame; cairn keeps them per width, and the old
// lines stay until the new come.
func (d *extDrawings) freshen(e core.Event) {
	if len(d.places) == 0 {
		return
	}
	switch e.(type) {
	case core.MessageEnd, core.Settled, core.ModelChanged, core.ThinkingLevelChanged, core.StatusChanged,
		core.SessionInfoChanged, core.AutoCompactionEnd:
	default:
		return
	}
	// Answers on their way were drawn before the change.
	d.gen++
	for k, lines := range d.drawn {
		if k.item == nil {
			if d.stale == nil {
				d.stale = map[drawKey][]string{}
			}
			d.stale[k] = lines
			delete(d.drawn, k)
		}
	}
}

// forget drops the drawings of a place.
func (d *extDrawings) forget(target extension.RenderTarget) {
	for k := range d.drawn {
		if k.target == target {
			delete(d.drawn, k)
		}
	}
	for k := range d.stale {
		if k.target == target {
			delete(d.stale, k)
		}
	}
}

// addCustomMessage puts a custom message the person sees in the
// transcript: drawn by the extension that registered a renderer of its
// type, or as cairn's notice.
func (m *Model) addCustomMessage(msg *core.CustomMessage) {
	if !msg.Display {
		return
	}
	own := &noticeItem{level: core.NotifyInfo, text: customText(msg)}
	p := extension.RenderParams{Target: extension.RenderMessage, CustomType: msg.CustomType, Content: msg.Content, Details: msg.Details}
	if m.opts.ExtensionDraws == nil || m.opts.RenderExtension == nil || !m.opts.ExtensionDraws(p) {
		m.tr.add(own)
		return
	}
	it := &extItem{p: p, own: own, lines: map[drawKey][]string{}}
	it.entry = m.tr.add(it)
	m.draw.track(it)
}

// addCustomEntry shows a custom entry an extension draws (pi's
// registerEntryRenderer); one nobody draws is not shown, as in pi.
func (m *Model) addCustomEntry(e core.CustomEntryAdded) {
	p := extension.RenderParams{Target: extension.RenderEntry, CustomType: e.CustomType, Data: e.Data}
	if m.opts.ExtensionDraws == nil || m.opts.RenderExtension == nil || !m.opts.ExtensionDraws(p) {
		return
	}
	it := &extItem{p: p, own: &textItem{}, lines: map[drawKey][]string{}}
	it.entry = m.tr.add(it)
	m.draw.track(it)
}

// wanted are the drawings the screen needs now, newest items last.
func (m *Model) wanted() []drawKey {
	d := &m.draw
	var out []drawKey
	for _, place := range []core.ChromePlace{core.ChromeFooter, core.ChromeHeader} {
		if d.places[place] != "" && m.width > 0 {
			out = append(out, drawKey{target: extension.RenderTarget(place), width: m.width})
		}
	}
	cw := max(m.width-2, 10)
	for i := len(d.items) - 1; i >= 0; i-- {
		it := d.items[i]
		if it.tool == nil {
			out = append(out, drawKey{target: it.p.Target, item: it, width: cw, expanded: m.expandTools})
		} else if it.drawsTool(m.opts.ExtensionDraws) {
			out = append(out, it.toolKeys(cw, m.expandTools)...)
		}
	}
	return out
}

// askDrawings asks for the drawings the screen needs and does not have,
// a few at a time; the answers bring the next asks.
func (m *Model) askDrawings() tea.Cmd {
	render := m.opts.RenderExtension
	d := &m.draw
	if render == nil || (len(d.places) == 0 && len(d.items) == 0) {
		return nil
	}
	var cmds []tea.Cmd
	for _, k := range m.wanted() {
		if len(d.asking) >= maxDrawingsAsked {
			break
		}
		if _, ok := d.drawn[k]; ok || d.asking[k] {
			continue
		}
		if k.item != nil {
			if _, ok := k.item.lines[k]; ok {
				continue
			}
		}
		if d.asking == nil {
			d.asking = map[drawKey]bool{}
		}
		d.asking[k] = true
		p := extension.RenderParams{Target: k.target, Width: k.width, Expanded: k.expanded}
		name := d.places[core.ChromePlace(k.target)]
		if it := k.item; it != nil {
			p = it.p
			if it.tool != nil {
				p = it.toolParams(k.target)
			}
			p.Width, p.Expanded = k.width, k.expanded
		}
		gen := d.gen
		cmds = append(cmds, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), extension.RenderTimeout)
			defer cancel()
			lines, err := render(ctx, name, p)
			return drawnMsg{key: k, gen: gen, lines: lines, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// onDrawn keeps an extension's lines; on an error cairn keeps drawing its
// own until the extension asks for a new rendering.
func (m *Model) onDrawn(msg drawnMsg) {
	d := &m.draw
	delete(d.asking, msg.key)
	if msg.gen != d.gen {
		return
	}
	lines := msg.lines
	if msg.err != nil {
		lines = nil
	} else if lines == nil {
		lines = []string{}
	}
	for i, l := range lines {
		lines[i] = drawnLine(l, msg.key.width)
	}
	if it := msg.key.item; it != nil {
		it.lines[msg.key] = lines
		if it.tool != nil {
			latest := msg.key
			latest.ver = -1
			it.lines[latest] = lines
		}
		if len(it.lines) > maxDrawings {
			clear(it.lines)
		}
		it.entry.touch()
		return
	}
	if d.drawn == nil || len(d.drawn) >= maxDrawings {
		d.drawn = map[drawKey][]string{}
	}
	d.drawn[msg.key] = lines
	if msg.key.target == extension.RenderHeader && d.header != nil {
		d.header.touch()
	}
}

// drawnLine is one line an extension drew, made safe to show: its
// escapes taken out (cairn styles its screen itself), any other control
// character shown, cut to the width.
func drawnLine(s string, w int) string {
	return ansi.Truncate(escape.Visible(ansi.Strip(s)), w, "…")
}

// placeLines are the extension's lines for a place at width w, and
// whether there are any (else cairn draws its own).
func (m *Model) placeLines(place core.ChromePlace, w int) ([]string, bool) {
	d := &m.draw
	if d.places[place] == "" {
		return nil, false
	}
	k := drawKey{target: extension.RenderTarget(place), width: w}
	if lines, ok := d.drawn[k]; ok {
		return lines, lines != nil
	}
	lines, ok := d.stale[k]
	return lines, ok && lines != nil
}

// footerOrExtension is the footer: an extension's, when one holds it, of
// at most a third of the screen's rows (the transcript keeps the rest).
func (m *Model) footerOrExtension(w int) string {
	if lines, ok := m.placeLines(core.ChromeFooter, w); ok {
		return strings.Join(lines[:min(len(lines), max(1, m.height/3))], "\n")
	}
	return m.footerView(w)
}

// headerItem is an extension's header: the first item of the transcript,
// scrolling with it, as pi's header tops its chat. Until its lines come
// it is empty (cairn has no header of its own there).
type headerItem struct{ m *Model }

func (h *headerItem) render(rc *renderContext) string {
	lines, ok := h.m.placeLines(core.ChromeHeader, rc.width)
	if !ok {
		return ""
	}
	return strings.Join(lines, "\n")
}

// placeHeader puts the header item at the top of the transcript while an
// extension holds the header, and takes it out when none does.
func (m *Model) placeHeader() {
	d := &m.draw
	i := slices.Index(m.tr.entries, d.header)
	switch {
	case d.places[core.ChromeHeader] != "" && i < 0:
		d.header = &entry{it: &headerItem{m: m}}
		m.tr.entries = append([]*entry{d.header}, m.tr.entries...)
		if !m.tr.follow {
			m.tr.top.idx++
		}
	case d.places[core.ChromeHeader] == "" && i >= 0:
		m.tr.remove(i)
		d.header = nil
	}
}

// workingState is the working line's start: the extension's indicator
// and message where they set them, cairn's spinner and state otherwise.
func (m *Model) workingState(state string) string {
	w := &m.draw.working
	if w.message != nil {
		state = escape.Visible(ansi.Strip(*w.message))
	}
	if !w.indicator {
		return m.spinner() + " " + state
	}
	if len(w.frames) == 0 {
		return state
	}
	interval := time.Duration(max(w.interval, 80)) * time.Millisecond
	i := int(m.now().Sub(m.busySince)/interval) % len(w.frames)
	return escape.Visible(ansi.Strip(w.frames[i])) + " " + state
}

// thinkingLabel names folded thinking, for the transcript.
func (m *Model) thinkingLabel() string {
	if l := m.draw.working.thinkingLabel; l != "" {
		return escape.Visible(ansi.Strip(l))
	}
	return "Thinking:"
}
