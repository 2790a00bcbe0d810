package editor

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Styles are the lipgloss styles the editor draws with. The parent builds
// them from its theme; DefaultStyles needs no colours.
type Styles struct {
	// Text is typed text.
	Text lipgloss.Style
	// Placeholder is the hint shown while the input is empty.
	Placeholder lipgloss.Style
	// Prompt is the prompt at the start of the first row.
	Prompt lipgloss.Style
	// Cursor is the cell under the cursor when the editor draws it.
	Cursor lipgloss.Style
	// Marker is a paste marker such as "[paste #1 +120 lines]".
	Marker lipgloss.Style
	// Popup is an unselected completion row.
	Popup lipgloss.Style
	// PopupSelected is the selected completion row.
	PopupSelected lipgloss.Style
	// Description is a command's description in the popup.
	Description lipgloss.Style
}

// DefaultStyles returns styles that work on any terminal: a reversed
// cursor and selection, dim hints and descriptions.
func DefaultStyles() Styles {
	plain := lipgloss.NewStyle()
	return Styles{
		Text:          plain,
		Placeholder:   plain.Faint(true),
		Prompt:        plain.Bold(true),
		Cursor:        plain.Reverse(true),
		Marker:        plain.Bold(true),
		Popup:         plain,
		PopupSelected: plain.Reverse(true),
		Description:   plain.Faint(true),
	}
}

// painter draws text in a style. Styles that only set attributes and
// colours wrap any text in the same escape codes, so those are worked out
// once and written around the text, which is several times faster than
// lipgloss' Render; any other style is drawn with Render.
type painter struct {
	style     lipgloss.Style
	pre, post string
	fast      bool
}

// probe is a private-use character no style changes by itself.
const probe = "\uE000"

func newPainter(st lipgloss.Style) painter {
	p := painter{style: st}
	if st.GetTransform() != nil || st.GetWidth() != 0 || st.GetHeight() != 0 ||
		st.GetMaxWidth() != 0 || st.GetMaxHeight() != 0 {
		return p
	}
	one := st.Render(probe)
	i := strings.Index(one, probe)
	if i < 0 {
		return p
	}
	p.pre, p.post = one[:i], one[i+len(probe):]
	two := probe + "  " + probe
	p.fast = st.Render(two) == p.pre+two+p.post
	return p
}

func (p painter) paint(sb *strings.Builder, text string) {
	if !p.fast {
		sb.WriteString(p.style.Render(text))
		return
	}
	sb.WriteString(p.pre)
	sb.WriteString(text)
	sb.WriteString(p.post)
}

// paintRunes draws rs, widening tabs to tabWidth spaces.
func (p painter) paintRunes(sb *strings.Builder, rs []rune) {
	if len(rs) == 0 {
		return
	}
	if !p.fast {
		p.paint(sb, strings.ReplaceAll(string(rs), "\t", spaces[:tabWidth]))
		return
	}
	sb.WriteString(p.pre)
	for _, r := range rs {
		if r == '\t' {
			sb.WriteString(spaces[:tabWidth])
		} else {
			sb.WriteRune(r)
		}
	}
	sb.WriteString(p.post)
}

// painters holds a painter for each style, and the cursor drawn over a
// placeholder.
type painters struct {
	text, placeholder, prompt, cursor, marker, popup, popupSelected, description, placeholderCursor painter
}

func (st Styles) painters() painters {
	return painters{
		text:              newPainter(st.Text),
		placeholder:       newPainter(st.Placeholder),
		prompt:            newPainter(st.Prompt),
		cursor:            newPainter(st.Cursor),
		marker:            newPainter(st.Marker),
		popup:             newPainter(st.Popup),
		popupSelected:     newPainter(st.PopupSelected),
		description:       newPainter(st.Description),
		placeholderCursor: newPainter(st.Cursor.Inherit(st.Placeholder)),
	}
}
