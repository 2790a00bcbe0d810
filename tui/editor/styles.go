package editor

import "charm.land/lipgloss/v2"

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
