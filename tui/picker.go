package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// pickKind says what a picker chooses.
type pickKind int

const (
	pickDialog pickKind = iota // a question from the session
	pickThinking
	pickMode
	pickTheme
	pickModel
	pickResume
	pickTree
	pickFork
	pickProcess
	pickProcessAction // what to do with a background command (processes.go)
	pickProcessKill   // whether to kill it
	pickRewind        // a prompt to rewind to (rewind.go)
	pickRewindHow     // what a rewind restores
)

// pickItem is one choice: what is shown, a second muted column, and the
// value handed back.
type pickItem struct {
	label, detail, value string
	payload              any // what the picker's owner needs besides value
}

func optionItems(opts []string) []pickItem {
	out := make([]pickItem, len(opts))
	for i, o := range opts {
		out[i] = pickItem{label: o, value: o}
	}
	return out
}

// questionItems are a select question's options, shown by label.
func questionItems(opts []core.Option) []pickItem {
	out := make([]pickItem, len(opts))
	for i, o := range opts {
		out[i] = pickItem{label: o.Label, value: o.Value}
	}
	return out
}

// picker is a list with fuzzy filtering, drawn above the editor.
type picker struct {
	title    string
	kind     pickKind
	all      []pickItem
	shown    []int // indexes into all, filtered
	filter   string
	selected int
	question *core.Question // the session question it answers, if any
	empty    string         // what to say when there is nothing to pick
}

// pickerRows is how many choices show at once.
const pickerRows = 10

// pickedMsg reports a choice.
type pickedMsg struct {
	kind     pickKind
	value    string
	payload  any
	ok       bool
	question *core.Question
}

func newPicker(title string, items []pickItem, kind pickKind, q *core.Question) *picker {
	p := &picker{title: title, kind: kind, all: items, question: q}
	p.refilter()
	return p
}

// selectValue moves the selection to the item whose value is v, when it
// is shown: a picker opens on the current choice.
func (p *picker) selectValue(v string) *picker {
	for row, i := range p.shown {
		if p.all[i].value == v {
			p.selected = row
			break
		}
	}
	return p
}

func (m *Model) openPicker(p *picker) {
	m.picker = p
}

// pickerFilterSource lets fuzzy match labels and details together.
type pickerFilterSource []pickItem

func (s pickerFilterSource) String(i int) string { return s[i].label + " " + s[i].detail }
func (s pickerFilterSource) Len() int            { return len(s) }

func (p *picker) refilter() {
	p.shown = p.shown[:0]
	if p.filter == "" {
		for i := range p.all {
			p.shown = append(p.shown, i)
		}
	} else {
		for _, r := range fuzzy.FindFrom(p.filter, pickerFilterSource(p.all)) {
			p.shown = append(p.shown, r.Index)
		}
	}
	p.selected = min(p.selected, max(len(p.shown)-1, 0))
}

func (p *picker) paste(s string) tea.Cmd {
	p.filter += strings.ReplaceAll(s, "\n", " ")
	p.refilter()
	return nil
}

// onPickerKey moves, filters, picks or closes.
func (m *Model) onPickerKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.picker
	switch {
	case m.is(k, keymap.SelectCancel):
		m.picker = nil
		return m.onPicked(pickedMsg{kind: p.kind, question: p.question})
	case m.is(k, keymap.SelectConfirm):
		m.picker = nil
		if len(p.shown) == 0 {
			return m.onPicked(pickedMsg{kind: p.kind, question: p.question})
		}
		it := p.all[p.shown[p.selected]]
		return m.onPicked(pickedMsg{kind: p.kind, value: it.value, payload: it.payload, ok: true, question: p.question})
	case m.is(k, keymap.SelectUp):
		if p.selected > 0 {
			p.selected--
		} else {
			p.selected = max(len(p.shown)-1, 0)
		}
	case m.is(k, keymap.SelectDown):
		if p.selected < len(p.shown)-1 {
			p.selected++
		} else {
			p.selected = 0
		}
	case m.is(k, keymap.SelectPageUp):
		p.selected = max(p.selected-pickerRows, 0)
	case m.is(k, keymap.SelectPageDown):
		p.selected = min(p.selected+pickerRows, max(len(p.shown)-1, 0))
	case k.String() == "backspace":
		if p.filter != "" {
			_, size := utf8.DecodeLastRuneInString(p.filter)
			p.filter = p.filter[:len(p.filter)-size]
			p.refilter()
		}
	case k.Text != "" && k.Mod == 0 || k.Mod == tea.ModShift && k.Text != "":
		p.filter += k.Text
		p.selected = 0
		p.refilter()
	}
	return nil
}

// view draws the picker: title, filter, and a window of choices around
// the selection.
func (p *picker) view(m *Model) string {
	w := max(m.width-4, 10)
	var b strings.Builder
	b.WriteString(" " + m.st.accent.Bold(true).Render(p.title))
	if p.filter != "" {
		b.WriteString("  " + m.st.text.Render(p.filter))
	} else {
		b.WriteString("  " + m.st.dim.Render("type to filter"))
	}
	b.WriteString("\n")
	if len(p.shown) == 0 {
		empty := p.empty
		if empty == "" {
			empty = "Nothing matches."
		}
		b.WriteString("   " + m.st.muted.Render(empty) + "\n")
	}
	start := max(0, min(p.selected-pickerRows/2, len(p.shown)-pickerRows))
	end := min(start+pickerRows, len(p.shown))
	labelW, detailW := 0, 0
	for _, i := range p.shown[start:end] {
		labelW = max(labelW, ansi.StringWidth(p.all[i].label))
		detailW = max(detailW, ansi.StringWidth(p.all[i].detail))
	}
	// Labels take what the details leave, and at least half the width
	// when there are details at all.
	room := w
	if detailW > 0 {
		room = max(w/2, w-detailW-2)
	}
	labelW = min(labelW, room)
	for row := start; row < end; row++ {
		it := p.all[p.shown[row]]
		label := ansi.Truncate(it.label, labelW, "…")
		pad := strings.Repeat(" ", max(labelW-ansi.StringWidth(label), 0))
		line := label + pad
		if it.detail != "" {
			line += "  " + m.st.muted.Render(ansi.Truncate(it.detail, max(w-labelW-4, 1), "…"))
		}
		if row == p.selected {
			b.WriteString(" " + m.st.accent.Render("›") + " " + m.st.selected.Render(line) + "\n")
		} else {
			b.WriteString("   " + line + "\n")
		}
	}
	b.WriteString(" " + m.st.dim.Render(fmt.Sprintf("%d of %d · ↑↓ move · enter picks · esc closes", len(p.shown), len(p.all))))
	return b.String()
}
