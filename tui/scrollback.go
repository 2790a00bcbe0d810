package tui

import (
	"strings"
)

// lastExchange draws the conversation from the person's last message to
// the end (the answer, its tool calls, what followed) as the transcript
// shows it, for the terminal's own scrollback once cairn leaves the
// alternate screen: the work is still there to read and copy after
// quitting, as Claude Code users expect. "" when nobody wrote yet.
func (m *Model) lastExchange() string {
	from := -1
	for i := len(m.tr.entries) - 1; i >= 0; i-- {
		if _, ok := m.tr.entries[i].it.(*userItem); ok {
			from = i
			break
		}
	}
	if from < 0 {
		return ""
	}
	return m.transcriptFrom(from)
}

// quitScrollback is what goes to the terminal's scrollback on quit: the
// last exchange or, with Options.ScrollbackAll, the whole conversation
// (a resumed session's older part made now), as pi leaves it.
func (m *Model) quitScrollback() string {
	if !m.opts.ScrollbackAll {
		return m.lastExchange()
	}
	m.tr.loadAll()
	if len(m.tr.entries) == 0 {
		return ""
	}
	return m.transcriptFrom(0)
}

// transcriptFrom draws the transcript's items from the from'th to the
// end, as the screen shows them.
func (m *Model) transcriptFrom(from int) string {
	rc := m.renderContext()
	var lines []string
	for i := from; i < len(m.tr.entries); i++ {
		lines = append(lines, m.tr.linesOf(i, rc)...)
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}
