package agent

import "github.com/cairn-dev/cairn/core"

// Show publishes a UI event an extension asked for (a notice, a status
// line, a widget, a title, editor text, a component) in order with the session's other
// events; each front end renders it or leaves it out. Other events are
// the session's own and are not published.
func (s *Session) Show(e core.Event) {
	switch e.(type) {
	case core.Notice, core.StatusChanged, core.WidgetChanged, core.TitleChanged, core.EditorTextSet,
		core.ChromeSet, core.WorkingChanged, core.RenderRequested, core.CustomEntryAdded,
		core.ComponentShown, core.ComponentRendered, core.ComponentClosed, core.ComponentAction:
		s.publish(e)
	}
}
