// Package keymap holds the TUI's configurable keybindings: the actions the
// user can bind, their defaults (pi's action names and keys, plus cairn's
// transcript scrolling), the loader for ~/.cairn/keybindings.json in pi's
// format, matching of Bubble Tea key presses against actions, and the table
// that /hotkeys shows.
//
// Keys are written as Bubble Tea v2 prints them: modifiers in the order
// ctrl, alt, shift, meta, hyper, super, then the key ("ctrl+c",
// "shift+enter", "alt+up", "pgup", "esc", "f5", "a"). The loader also
// accepts pi's spellings and any modifier order ("escape", "return",
// "pageUp", "shift+ctrl+p") and stores the canonical form.
package keymap
