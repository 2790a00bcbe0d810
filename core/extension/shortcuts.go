package extension

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// MethodRunShortcut (version 2) runs the handler an extension registered
// for a key (pi's registerShortcut): cairn calls it when the person presses
// the key in the interface, and the answer comes once the handler is done.
const MethodRunShortcut = "run_shortcut"

// RunShortcutParams names the key pressed, as the extension registered it.
type RunShortcutParams struct {
	Key string `json:"key"`
}

// Shortcut is a key an extension registered (pi's registerShortcut).
type Shortcut struct {
	// Key is as the extension wrote it ("ctrl+alt+p"), pi-tui's names.
	Key string
	// Extension is the extension that runs it, host:member for a member.
	Extension string
}

// Shortcuts lists the keys the ready extensions registered, in load order.
// When two register the same key, the later one's is listed, as pi uses
// the later one.
func (m *Manager) Shortcuts() []Shortcut {
	owned := m.shortcuts()
	out := make([]Shortcut, len(owned))
	for i, o := range owned {
		out[i] = o.Shortcut
	}
	return out
}

// ownedShortcut is a shortcut with the extension whose member runs it.
type ownedShortcut struct {
	Shortcut
	e *extension
}

func (m *Manager) shortcuts() []ownedShortcut {
	var out []ownedShortcut
	index := map[string]int{}
	for _, e := range m.exts {
		e.mu.Lock()
		if e.state == Ready {
			for _, mb := range e.members {
				if mb.State != "ready" {
					continue
				}
				for _, k := range mb.Shortcuts {
					s := ownedShortcut{Shortcut{Key: k, Extension: e.cfg.Name + ":" + mb.Name}, e}
					if i, ok := index[k]; ok {
						out[i] = s
						continue
					}
					index[k] = len(out)
					out = append(out, s)
				}
			}
		}
		e.mu.Unlock()
	}
	return out
}

// RunShortcut runs the handler of the extension that registered key, and
// returns when it is done, with the handler's error if it failed.
func (m *Manager) RunShortcut(ctx context.Context, key string) error {
	var owner *extension
	for _, s := range m.shortcuts() {
		if s.Key == key {
			owner = s.e
		}
	}
	if owner == nil {
		return fmt.Errorf("no extension has the shortcut %s", key)
	}
	if _, err := owner.callOp(ctx, MethodRunShortcut, RunShortcutParams{Key: key}); err != nil {
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			err = errors.New(rpcErr.Message)
		}
		return fmt.Errorf("shortcut %s: %w", key, owner.why(err))
	}
	return nil
}
