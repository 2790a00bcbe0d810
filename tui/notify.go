package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Alert is how cairn tells a person whose terminal is not focused that it
// needs them: a run ended, or a question waits.
type Alert int

// The ways to alert.
const (
	// AlertOff sends nothing.
	AlertOff Alert = iota
	// AlertBell rings the terminal's bell, which every terminal (and
	// tmux, which passes it on and marks the window) understands.
	AlertBell
	// AlertOSC9 sends a desktop notification as iTerm2, WezTerm, Ghostty
	// and kitty take it (OSC 9).
	AlertOSC9
	// AlertOSC777 sends a desktop notification as rxvt-unicode, foot and
	// Ghostty take it (OSC 777).
	AlertOSC777
)

// ChooseAlert turns the "notifications" setting ("auto", "osc9", "osc777",
// "bell", "off"; "" means auto) into an Alert. Auto picks a desktop
// notification where the terminal is known to show one, and the bell
// elsewhere, inside tmux included (it would swallow an OSC notification
// unless told to pass it through).
func ChooseAlert(setting string, getenv func(string) string) Alert {
	switch setting {
	case "off":
		return AlertOff
	case "bell":
		return AlertBell
	case "osc9":
		return AlertOSC9
	case "osc777":
		return AlertOSC777
	}
	if getenv("TMUX") != "" || strings.HasPrefix(getenv("TERM"), "screen") || strings.HasPrefix(getenv("TERM"), "tmux") {
		return AlertBell
	}
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return AlertOSC9
	}
	term := getenv("TERM")
	switch {
	case strings.Contains(term, "kitty"), strings.Contains(term, "ghostty"):
		return AlertOSC9
	case strings.HasPrefix(term, "foot"), strings.HasPrefix(term, "rxvt-unicode"):
		return AlertOSC777
	}
	return AlertBell
}

// sequence is what to write to the terminal to alert with text.
func (a Alert) sequence(text string) string {
	// The text goes inside an escape sequence: no control character may
	// end it early or act on the terminal.
	text = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return ' '
		}
		return r
	}, text)
	switch a {
	case AlertBell:
		return "\a"
	case AlertOSC9:
		return "\x1b]9;" + text + "\a"
	case AlertOSC777:
		return "\x1b]777;notify;cairn;" + text + "\a"
	}
	return ""
}

// onFocus records whether the terminal has the focus (focus reporting).
func (m *Model) onFocus(focused bool) {
	m.unfocused = !focused
}

// alert tells the person, when their terminal is not focused, that cairn
// needs them; nil when it is focused or alerts are off.
func (m *Model) alert(text string) tea.Cmd {
	if !m.unfocused || m.opts.Alert == AlertOff {
		return nil
	}
	return tea.Raw(m.opts.Alert.sequence(text))
}
