// Command teaview is the floor of `make bench-tui`: the least a Bubble Tea
// v2 program with one view does before its first frame. It puts the
// alternate screen up with one line of text (the arguments, joined by
// spaces: bench-tui passes the text its first-frame check looks for),
// waits for a key and exits on q, ctrl+c or esc. It is built from
// cairn's module, so it runs the Bubble Tea version cairn's go.mod names,
// and like cairn (CGO_ENABLED=0, -trimpath, -s -w).
package main

import (
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// model is the one view: a fixed line of text.
type model struct{ text string }

func (m model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "q", "ctrl+c", "esc":
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m model) View() tea.View {
	v := tea.NewView(m.text)
	v.AltScreen = true
	return v
}

func main() {
	text := strings.Join(os.Args[1:], " ")
	if text == "" {
		text = "teaview: a Bubble Tea program with one view (q quits)"
	}
	if _, err := tea.NewProgram(model{text: text}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "teaview:", err)
		os.Exit(1)
	}
}
