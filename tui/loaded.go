package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/cairn-dev/cairn/core/escape"
)

// LoadedGroup is one kind of thing cairn loaded at start-up, listed on
// the welcome screen as pi lists them: context files, skills, MCP
// servers, extensions, hooks, agents.
type LoadedGroup struct {
	// Label names the kind ("Context", "Skills").
	Label string
	// Items are the names (a file's path, a skill's name), in order.
	Items []string
}

// loadedMsg carries what Options.Loaded found, read off the UI loop after
// the first frame.
type loadedMsg struct{ groups []LoadedGroup }

// loadLoaded reads what cairn loaded, after the first frame.
func (m *Model) loadLoaded() tea.Cmd {
	if m.opts.Loaded == nil {
		return nil
	}
	load := m.opts.Loaded
	return func() tea.Msg { return loadedMsg{load()} }
}

// maxLoadedItems bounds the names listed for one kind on the welcome
// screen; the rest are counted.
const maxLoadedItems = 6

// loadedLines draws the groups w cells wide: "Context  AGENTS.md,
// ~/.cairn/AGENTS.md", one line a kind, wrapped under its names.
func (m *Model) loadedLines(w int) []string {
	var out []string
	for _, g := range m.loaded {
		if len(g.Items) == 0 {
			continue
		}
		items := g.Items
		more := ""
		if len(items) > maxLoadedItems {
			more = " and " + strconv.Itoa(len(items)-maxLoadedItems) + " more"
			items = items[:maxLoadedItems]
		}
		label := g.Label + strings.Repeat(" ", max(10-len(g.Label), 1))
		names := make([]string, len(items))
		for i, it := range items {
			names[i] = escape.Visible(it)
		}
		text := strings.Join(names, ", ") + more
		for i, l := range strings.Split(lipgloss.Wrap(text, max(w-len(label), 10), " ,"), "\n") {
			lead := strings.Repeat(" ", len(label))
			if i == 0 {
				lead = m.st.accent.Render(label)
			}
			out = append(out, lead+m.st.muted.Render(l))
		}
	}
	return out
}
