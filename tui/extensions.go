package tui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/tui/editor"
)

// extUI is what extensions put on the screen: status entries in the
// footer, widgets above or below the editor, the window title. Their
// dialogs are questions, drawn like any other.
type extUI struct {
	statusKeys []string
	status     map[string]string
	widgetKeys []string
	widgets    map[string]core.WidgetChanged
	title      string
}

// onExtensionUI takes a UI event an extension caused.
func (m *Model) onExtensionUI(e core.Event) tea.Cmd {
	x := &m.ext
	switch e := e.(type) {
	case core.StatusChanged:
		if x.status == nil {
			x.status = map[string]string{}
		}
		x.statusKeys = slices.DeleteFunc(x.statusKeys, func(k string) bool { return k == e.Key })
		delete(x.status, e.Key)
		if e.Text != "" {
			x.statusKeys = append(x.statusKeys, e.Key)
			x.status[e.Key] = e.Text
		}
	case core.WidgetChanged:
		if x.widgets == nil {
			x.widgets = map[string]core.WidgetChanged{}
		}
		x.widgetKeys = slices.DeleteFunc(x.widgetKeys, func(k string) bool { return k == e.Key })
		delete(x.widgets, e.Key)
		if e.Lines != nil {
			x.widgetKeys = append(x.widgetKeys, e.Key)
			x.widgets[e.Key] = e
		}
	case core.TitleChanged:
		x.title = e.Title
	case core.EditorTextSet:
		m.ed.SetValue(e.Text)
	}
	return nil
}

// extStatusView is the extensions' status entries on one line, or "".
func (m *Model) extStatusView(w int) string {
	if len(m.ext.statusKeys) == 0 {
		return ""
	}
	texts := make([]string, 0, len(m.ext.statusKeys))
	for _, k := range m.ext.statusKeys {
		texts = append(texts, escape.Visible(m.ext.status[k]))
	}
	return m.st.muted.Render(ansi.Truncate(strings.Join(texts, " · "), w, "…"))
}

// extWidgetsView is the widgets placed above (or below) the editor, or "".
func (m *Model) extWidgetsView(w int, below bool) string {
	var lines []string
	for _, k := range m.ext.widgetKeys {
		wd := m.ext.widgets[k]
		if (wd.Placement == core.WidgetBelowEditor) != below {
			continue
		}
		for _, l := range wd.Lines {
			lines = append(lines, ansi.Truncate(escape.Visible(l), w, "…"))
		}
	}
	return strings.Join(lines, "\n")
}

// extensionCommandList is the extensions' commands, for completion and
// /help.
func (m *Model) extensionCommandList() []editor.Command {
	if m.opts.ExtensionCommands == nil {
		return nil
	}
	var out []editor.Command
	for _, c := range m.opts.ExtensionCommands() {
		out = append(out, editor.Command{Name: c.Name, Description: strings.TrimSpace(c.Description + " (" + c.Extension + ")")})
	}
	return out
}

// isExtensionCommand reports whether an extension offers /name.
func (m *Model) isExtensionCommand(name string) bool {
	return slices.ContainsFunc(m.extensionCommandList(), func(c editor.Command) bool { return c.Name == name })
}
