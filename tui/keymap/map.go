package keymap

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Map holds the keys bound to each action. The zero Map binds nothing; use
// Defaults or Load. A Map is a value: methods never change it, With returns
// a changed copy, and it is safe for concurrent reads.
type Map struct {
	keys  map[Action][]string // canonical keys, in the order given
	byKey map[string][]Action // the reverse, for Lookup; actions in Actions order
}

// index rebuilds byKey from keys; constructors call it once they are done.
func (m *Map) index() {
	m.byKey = make(map[string][]Action, len(m.keys)*2)
	for _, a := range actions {
		for _, k := range m.keys[a.action] {
			m.byKey[k] = append(m.byKey[k], a.action)
		}
	}
}

// Defaults returns pi's default bindings (with ctrl+j added for a new line)
// and cairn's transcript scrolling keys.
func Defaults() Map {
	m := Map{keys: make(map[Action][]string, len(actions))}
	for _, a := range actions {
		m.keys[a.action] = slices.Clone(a.keys)
	}
	m.index()
	return m
}

// With returns a copy of m in which action a is bound to exactly keys, which
// must already be canonical (see ParseKey). No keys leaves a unbound.
func (m Map) With(a Action, keys ...string) Map {
	out := Map{keys: make(map[Action][]string, len(m.keys)+1)}
	for k, v := range m.keys {
		out.keys[k] = v
	}
	out.keys[a] = slices.Clone(keys)
	out.index()
	return out
}

// Keys returns the canonical keys bound to a, in order; nil when unbound.
func (m Map) Keys(a Action) []string {
	return slices.Clone(m.keys[a])
}

// Matches reports whether the key press is bound to action a. It compares
// both of Bubble Tea's renderings of the press: the keystroke ("shift+a",
// "ctrl+c") and the text it types ("A"), so "A" and "shift+a" both match a
// capital A, and "?" matches however the terminal reports shift+/.
func (m Map) Matches(msg tea.KeyPressMsg, a Action) bool {
	keys := m.keys[a]
	if len(keys) == 0 {
		return false
	}
	stroke, text := renderings(msg)
	for _, k := range keys {
		if k == stroke || k == text {
			return true
		}
	}
	return false
}

// Lookup returns every action the key press is bound to, in Actions order
// (several when contexts share a key: pgup scrolls the transcript, pages the
// editor and pages a list). The slice belongs to the map; do not modify it.
func (m Map) Lookup(msg tea.KeyPressMsg) []Action {
	stroke, text := renderings(msg)
	found := m.byKey[stroke]
	if text == stroke {
		return found
	}
	byText := m.byKey[text]
	switch {
	case len(byText) == 0:
		return found
	case len(found) == 0:
		return byText
	}
	out := slices.Clone(found)
	for _, a := range byText {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(x, y Action) int { return actionIndex[x] - actionIndex[y] })
	return out
}

// renderings returns the press as a keystroke and as the text it types
// (which is the keystroke again for keys that type nothing), building the
// keystroke string only once.
func renderings(msg tea.KeyPressMsg) (stroke, text string) {
	stroke = msg.Keystroke()
	if msg.Text != "" && msg.Text != " " {
		return stroke, msg.Text
	}
	return stroke, stroke
}

// Binding returns the action as a bubbles key.Binding, with the keys shown
// the way /hotkeys shows them and the action's description as help text, for
// components and help views that take key.Bindings. An unbound action gives
// a disabled binding.
func (m Map) Binding(a Action) key.Binding {
	keys := m.keys[a]
	if len(keys) == 0 {
		return key.NewBinding(key.WithDisabled(), key.WithHelp("", a.Description()))
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(m.display(a), a.Description()))
}

// Entry is one row of the /hotkeys table.
type Entry struct {
	Group       Group  // the section it belongs to
	Action      Action // the action's name, as used in keybindings.json
	Keys        string // the bound keys for display ("Ctrl+C, Esc"); "" when unbound
	Description string // what the action does, one short line
}

// Help returns the effective bindings of every action for /hotkeys, grouped
// (application, editor, transcript, lists) and in a sensible order within
// each group.
func (m Map) Help() []Entry {
	out := make([]Entry, len(actions))
	for i, a := range actions {
		out[i] = Entry{Group: a.group, Action: a.action, Keys: m.display(a.action), Description: a.description}
	}
	return out
}

func (m Map) display(a Action) string {
	keys := m.keys[a]
	shown := make([]string, len(keys))
	for i, k := range keys {
		shown[i] = displayKey(k)
	}
	return strings.Join(shown, ", ")
}
