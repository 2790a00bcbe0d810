package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/session"
)

// sessionStore is where this run keeps and looks for sessions. With
// --session-dir, there only. Otherwise sessions are looked for in cairn's
// directory (~/.cairn/sessions) and in pi's (see piSessionStore); a new
// session is written to pi's when pi is set up and cairn has never kept a
// session of its own (no CAIRN_DIR, no ~/.cairn/sessions), so that a pi
// user's tools (pi -c, pi-acp's session/list) find what cairn wrote, and
// to cairn's otherwise.
func sessionStore(env environment, opts *Options) session.Store {
	own := session.Store{Root: filepath.Join(env.dir, "sessions")}
	if opts.SessionDir != "" {
		return session.Store{Root: own.Root, Dir: opts.SessionDir}
	}
	pi, ok := piSessionStore(env)
	if !ok {
		return own
	}
	if env.getenv("CAIRN_DIR") == "" && !pihome.Exists(own.Root) {
		pi.Others = []session.Store{own}
		return pi
	}
	own.Others = []session.Store{pi}
	return own
}

// piSessionStore is where pi keeps sessions, by pi's rules
// (PI_CODING_AGENT_SESSION_DIR, settings.json's sessionDir, else
// <pi's dir>/sessions); ok is false when pi is not set up.
func piSessionStore(env environment) (session.Store, bool) {
	if env.piDir == "" {
		return session.Store{}, false
	}
	root, flat := pihome.SessionsRoot(env.getenv, env.piDir, pihome.SessionDirSetting(env.piDir))
	if flat {
		return session.Store{Dir: root}, true
	}
	return session.Store{Root: root}, true
}

// openSessionFile picks the session file for this run: none with
// --no-session, the given one with --session, the newest in this directory
// with --continue (a new one if there is none), else a new one. resumed
// reports whether the file already held a conversation.
func openSessionFile(env environment, opts *Options, cwd string) (f *session.File, resumed bool, err error) {
	store := sessionStore(env, opts)
	switch {
	case opts.NoSession:
		return nil, false, nil
	case opts.Resume:
		return nil, false, errors.New("--resume picks a session interactively, which needs the TUI; use --continue for the latest session or --session PATH|ID")
	case opts.Pi.Fork != "" && opts.Session == "":
		path, err := findSession(store, opts.Pi.Fork, cwd)
		if err != nil {
			return nil, false, err
		}
		f, err := store.ForkFrom(path, cwd)
		if err != nil {
			return nil, false, fmt.Errorf("fork session %s: %w", path, err)
		}
		return f, true, nil
	case opts.Pi.SessionID != "" && opts.Session == "":
		return sessionWithID(store, opts.Pi.SessionID, cwd)
	}
	path, ok, err := resumedFile(store, opts, cwd)
	switch {
	case errors.Is(err, session.ErrNoSession) && opts.Session == "":
		return store.Create(cwd), false, nil // --continue with none yet
	case err != nil:
		return nil, false, err
	case !ok:
		return store.Create(cwd), false, nil
	}
	f, err = session.Open(path)
	if err != nil {
		return nil, false, fmt.Errorf("open session %s: %w", path, err)
	}
	return f, true, nil
}

// resumedFile is the existing session file this run goes on with:
// --session's, or with --continue the newest of this directory. ok is false
// when the run starts otherwise (a new session, --no-session, the --resume
// picker, a fork, --session-id); err says why the file cannot be found
// (session.ErrNoSession for --continue where there is none).
func resumedFile(store session.Store, opts *Options, cwd string) (path string, ok bool, err error) {
	switch {
	case opts.NoSession || opts.Resume:
		return "", false, nil
	case opts.Session != "":
		path, err := findSession(store, opts.Session, cwd)
		return path, err == nil, err
	case opts.Pi.Fork != "" || opts.Pi.SessionID != "" || !opts.Continue:
		return "", false, nil
	}
	path, err = store.Latest(cwd)
	return path, err == nil, err
}

// findSession resolves --session (and cairn rpc's --continue): a path
// (anything with a slash or ending in .jsonl), or a session of this
// directory named by its id, its name or the start of its id (see
// session.Match).
func findSession(store session.Store, ref, cwd string) (string, error) {
	if strings.ContainsRune(ref, filepath.Separator) || strings.HasSuffix(ref, ".jsonl") {
		return ref, nil
	}
	infos, err := store.List(cwd)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	in, err := session.Match(infos, ref)
	if err != nil {
		return "", fmt.Errorf("%w in %s", err, store.ProjectDir(cwd))
	}
	return in.Path, nil
}

// sessionWithID is pi's --session-id: the session of cwd whose id is
// exactly id, or a new one with that id when there is none.
func sessionWithID(store session.Store, id, cwd string) (*session.File, bool, error) {
	infos, err := store.List(cwd)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, false, err
	}
	for _, in := range infos {
		if in.ID == id {
			f, err := session.Open(in.Path)
			if err != nil {
				return nil, false, fmt.Errorf("open session %s: %w", in.Path, err)
			}
			return f, true, nil
		}
	}
	return store.CreateWithID(cwd, id), false, nil
}
