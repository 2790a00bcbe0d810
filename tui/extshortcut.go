package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// shortcutLimit bounds one run of an extension's shortcut handler (which
// may wait for the person in a dialog of its own).
const shortcutLimit = 30 * time.Minute

// ExtensionShortcuts sorts the keys extensions registered (pi's
// registerShortcut) into those the interface binds, by the canonical key
// Bubble Tea reports (see keymap.ParseKey), and the notices of those it
// refuses: a key cairn's own keymap uses, or one it cannot read. pi warns
// of the same clashes.
func ExtensionShortcuts(keys keymap.Map, list []extension.Shortcut) (bound map[string]extension.Shortcut, refused []string) {
	bound = map[string]extension.Shortcut{}
	for _, s := range list {
		k, err := keymap.ParseKey(s.Key)
		if err != nil {
			refused = append(refused, fmt.Sprintf("Extension shortcut '%s' from %s is not a key cairn reads (%v). Skipping.", s.Key, s.Extension, err))
			continue
		}
		if acts := keys.Bound(k); len(acts) > 0 {
			names := make([]string, len(acts))
			for i, a := range acts {
				names[i] = string(a)
			}
			refused = append(refused, fmt.Sprintf("Extension shortcut '%s' from %s conflicts with cairn's key for %s. Skipping.", s.Key, s.Extension, strings.Join(names, ", ")))
			continue
		}
		bound[k] = s
	}
	return bound, refused
}

// onExtShortcut runs the handler of the extension shortcut k is, off the
// UI loop; ok is false when k is no extension's.
func (m *Model) onExtShortcut(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.opts.ExtensionShortcuts == nil || m.opts.RunExtensionShortcut == nil {
		return nil, false
	}
	bound, _ := ExtensionShortcuts(m.keys, m.opts.ExtensionShortcuts())
	s, ok := bound[k.Keystroke()]
	if !ok {
		return nil, false
	}
	run := m.opts.RunExtensionShortcut
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), shortcutLimit)
		defer cancel()
		return interactiveDoneMsg{command: s.Key, err: run(ctx, s.Key)}
	}, true
}

// extShortcutHelp adds the extensions' shortcuts cairn binds to /hotkeys,
// in a group of their own, each with the extension that runs it.
func (m *Model) extShortcutHelp(b *strings.Builder) {
	if m.opts.ExtensionShortcuts == nil {
		return
	}
	bound, _ := ExtensionShortcuts(m.keys, m.opts.ExtensionShortcuts())
	if len(bound) == 0 {
		return
	}
	keys := make([]string, 0, len(bound))
	for k := range bound {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteString("\n" + m.st.accent.Render("Extensions") + "\n")
	for _, k := range keys {
		fmt.Fprintf(b, "  %-*s  %s\n", hotkeysKeyWidth, bound[k].Key, m.st.muted.Render("runs "+bound[k].Extension+"'s shortcut"))
	}
}
