//go:build !headless

package main

import (
	"fmt"
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
	path, ok, _ := resumedFile(sessionStore(env, opts), opts, cwd)
	if !ok {
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

// previewTheme is the theme the settings choose, as tuiMode resolves it
// (quietly: the full start reports any problem).
func previewTheme(env environment, opts *Options, cwd string) *themes.Theme {
	if opts.trust == nil {
		return nil
	}
	st := loadSettings(IOStreams{Err: io.Discard}, env, *opts.trust, cwd)
	custom, _ := loadUserThemes(env, opts)
	t, _ := settingsTheme(themeName(st.Effective().Theme, opts), custom)
	return t
}

// themeName is the theme this run uses: --use-theme, else the setting.
func themeName(setting string, opts *Options) string {
	if opts.Pi.UseTheme != "" {
		return opts.Pi.UseTheme
	}
	return setting
}

// settingsTheme resolves the theme the settings name among the built-in
// and custom ones; nil (the default, chosen by the terminal's background)
// when they name none or one that cannot be used, with the error.
func settingsTheme(name string, custom map[string]*themes.Theme) (*themes.Theme, error) {
	if name == "" {
		return nil, nil
	}
	return themes.Resolve(name, custom, true)
}

// loadUserThemes reads the person's themes: ~/.cairn/themes, then pi's
// (~/.pi/agent/themes, same file format), a theme of cairn's winning over
// pi's of the same name; none of those with --no-themes. --theme paths
// (files or directories) come last and win over both.
func loadUserThemes(env environment, opts *Options) (map[string]*themes.Theme, []error) {
	custom := map[string]*themes.Theme{}
	var errs []error
	add := func(found map[string]*themes.Theme, win bool) {
		for name, t := range found {
			if _, ok := custom[name]; win || !ok {
				custom[name] = t
			}
		}
	}
	if !opts.Pi.NoThemes {
		own, e := themes.LoadDir(filepath.Join(env.dir, "themes"))
		errs = append(errs, e...)
		add(own, true)
		if env.piDir != "" {
			pi, e := themes.LoadDir(filepath.Join(env.piDir, "themes"))
			errs = append(errs, e...)
			add(pi, false)
		}
	}
	for _, p := range opts.Pi.ThemePaths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			found, e := themes.LoadDir(p)
			errs = append(errs, e...)
			add(found, true)
			continue
		}
		t, err := themes.LoadFile(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("--theme: %w", err))
			continue
		}
		add(map[string]*themes.Theme{t.Name: t}, true)
	}
	return custom, errs
}
