//go:build !headless

package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/themes"
	"github.com/cairn-dev/cairn/tui"
)

// previewMin is the size from which a session being resumed shows its last
// screen, read from the end of its file, before the whole file is read: a
// smaller one is read whole sooner than the difference could be seen.
var previewMin int64 = 2 << 20

// resumePreview draws the last screen of the session --continue or
// --session resumes, when it is large and cairn runs on a terminal; nil
// otherwise, or when the file's end cannot be read (the whole read then
// reports why).
func resumePreview(streams IOStreams, env environment, opts *Options, cwd string) *tui.Preview {
	out, ok := streams.Out.(*os.File)
	in, inOK := streams.In.(*os.File)
	if !ok || !inOK || !isTerminal(out) || !streams.InIsTerminal || opts.demoDir != "" {
		return nil
	}
	path := resumedPath(env, opts, cwd)
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() < previewMin {
		return nil
	}
	o := tui.Options{Cwd: cwd, Version: versionString(), Theme: previewTheme(env, opts, cwd)}
	pv, err := tui.ShowPreview(tui.PreviewOptions{Terminal: out, Input: in,
		Profile: tui.DetectColorProfile(out, env.getenv), Options: o,
		Read: func(rows int) ([]core.Message, error) {
			tail, err := session.ReadTail(path, rows)
			return tail.Messages, err
		}})
	if err != nil {
		return nil
	}
	return pv
}

// resumedPath is the file --continue or --session names, or "" (a new
// session, a fork, or one that cannot be found: openSessionFile says so).
func resumedPath(env environment, opts *Options, cwd string) string {
	store := sessionStore(env, opts)
	switch {
	case opts.NoSession || opts.Resume || opts.Pi.Fork != "" || opts.Pi.SessionID != "":
		return ""
	case opts.Session != "":
		path, err := findSession(store, opts.Session, cwd)
		if err != nil {
			return ""
		}
		return path
	case opts.Continue:
		path, err := store.Latest(cwd)
		if err != nil {
			return ""
		}
		return path
	}
	return ""
}

// previewTheme is the theme the settings choose, as tuiMode resolves it
// (quietly: the full start reports any problem).
func previewTheme(env environment, opts *Options, cwd string) *themes.Theme {
	if opts.trust == nil {
		return nil
	}
	st := loadSettings(IOStreams{Err: io.Discard}, env, *opts.trust, cwd)
	name := st.Effective().Theme
	if name == "" {
		return nil
	}
	custom, _ := themes.LoadDir(filepath.Join(env.dir, "themes"))
	t, err := themes.Resolve(name, custom, true)
	if err != nil {
		return nil
	}
	return t
}
