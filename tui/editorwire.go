package tui

import (
	"path/filepath"

	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// newEditor builds the prompt editor with the person's keybindings, their
// prompt history file and the slash commands.
func newEditor(opts Options, cmds []editor.Command) editor.Model {
	hist := ""
	if opts.Dir != "" {
		hist = filepath.Join(opts.Dir, "history.jsonl")
	}
	return editor.New(editor.Options{
		Cwd:          opts.Cwd,
		UseGit:       opts.ProjectTrusted,
		HistoryFile:  hist,
		Commands:     cmds,
		AttachImages: true,
		Keys:         editorKeys(opts.Keys),
		Placeholder:  "Ask anything · ! runs a shell command · / lists commands · @ names a file",
	})
}

// editorKeys takes the editor's bindings from the keymap, keeping the
// editor's own defaults for what the keymap does not name.
func editorKeys(km keymap.Map) editor.Keys {
	k := editor.DefaultKeys()
	set := func(dst *[]string, a keymap.Action) {
		if keys := km.Keys(a); len(keys) > 0 {
			*dst = keys
		}
	}
	set(&k.Submit, keymap.Submit)
	set(&k.NewLine, keymap.NewLine)
	set(&k.FollowUp, keymap.FollowUp)
	set(&k.Complete, keymap.Tab)
	set(&k.Left, keymap.CursorLeft)
	set(&k.Right, keymap.CursorRight)
	set(&k.WordLeft, keymap.CursorWordLeft)
	set(&k.WordRight, keymap.CursorWordRight)
	set(&k.LineStart, keymap.CursorLineStart)
	set(&k.LineEnd, keymap.CursorLineEnd)
	set(&k.DeleteBack, keymap.DeleteCharBackward)
	set(&k.DeleteForward, keymap.DeleteCharForward)
	set(&k.DeleteWordBack, keymap.DeleteWordBackward)
	set(&k.DeleteWordForward, keymap.DeleteWordForward)
	set(&k.DeleteToLineStart, keymap.DeleteToLineStart)
	set(&k.DeleteToLineEnd, keymap.DeleteToLineEnd)
	return k
}
