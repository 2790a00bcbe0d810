//go:build !headless

package main

import (
	"context"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/tui"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// warnShortcutClashes tells the person, once the extensions have started,
// of each shortcut an extension registered that the interface refuses (a
// key cairn's keymap uses), as pi warns of them.
func warnShortcutClashes(ctx context.Context, a *app, keys keymap.Map) {
	ctx, cancel := context.WithTimeout(ctx, extensionFlagWait)
	defer cancel()
	a.extensions.WaitInitialized(ctx)
	if ctx.Err() != nil {
		return
	}
	_, refused := tui.ExtensionShortcuts(keys, a.extensions.Shortcuts())
	for _, msg := range refused {
		a.session.Notify(core.NotifyWarning, msg)
	}
}
