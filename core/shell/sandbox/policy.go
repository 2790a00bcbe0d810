package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Policy is what one sandboxed command may do, with every path absolute,
// clean and with symbolic links resolved where the path exists. It is
// passed to the sandboxed child as JSON.
type Policy struct {
	// Project is the project directory: writable, except for Protect.
	Project string `json:"project"`
	// Write are the writable directories besides the project.
	Write []string `json:"write,omitempty"`
	// DenyRead are the paths that cannot be read (nor written).
	DenyRead []string `json:"denyRead,omitempty"`
	// Protect are the project's control files and directories, made
	// read-only where the system allows (see the package doc).
	Protect []string `json:"protect,omitempty"`
	// Network is what network the command may use.
	Network Network `json:"network"`
	// Env are variables set for the command: its toolchain caches, of
	// the sandbox's own (see cacheEnv).
	Env []string `json:"env,omitempty"`
	// UnixSockets are the Unix sockets made outside the sandbox that the
	// command may connect to; AllowAllUnixSockets allows every one.
	UnixSockets         []string `json:"unixSockets,omitempty"`
	AllowAllUnixSockets bool     `json:"allowAllUnixSockets,omitempty"`
}

// ControlFiles are the project's files and directories that steer cairn
// or run as programs, relative to the project: the sandbox keeps them
// read-only, as the approval gate asks before writing them.
// The project's repository is added where it is (see appendGit).
var ControlFiles = []string{".cairn", "AGENTS.md", "CLAUDE.md", ".mcp.json"}

// homeControls are the files in the person's home that programs outside
// the sandbox later run or obey: shells' start-up files, git's
// configuration, cairn's, Claude Code's and pi's settings (hooks, rules,
// trust). They are out of a command's reach unless the home lies in a
// writable place (HOME under /tmp); then those that exist are kept
// read-only like the project's control files.
var homeControls = []string{".cairn", ".claude", ".claude.json", ".pi", ".gitconfig", ".config/git",
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".config/fish", ".inputrc", ".npmrc", ".config/cairn"}

// Place says where a Policy's relative and ~ paths lead.
type Place struct {
	// Project is the project directory.
	Project string
	// Home is the person's home directory, for ~ paths; empty leaves ~
	// paths out.
	Home string
	// TempDir is the system temporary directory; empty means os.TempDir().
	TempDir string
	// KeyFiles are cairn's own files holding secrets (models.json): never
	// readable.
	KeyFiles []string
	// CacheRoot is the directory of the sandbox's own toolchain caches
	// (see cacheEnv), normally ~/.cache/cairn/sandbox; "" leaves the
	// caches where the person's variables put them.
	CacheRoot string
}

// Policy builds the policy of c for commands in place. It fails when the
// project is not a directory.
func (c Config) Policy(place Place) (Policy, error) {
	project, err := filepath.Abs(place.Project)
	if err != nil {
		return Policy{}, fmt.Errorf("sandbox: project %s: %w", place.Project, err)
	}
	project = resolve(project)
	if info, err := os.Stat(project); err != nil || !info.IsDir() {
		return Policy{}, fmt.Errorf("sandbox: project %s is not a directory", place.Project)
	}
	tmp := place.TempDir
	if tmp == "" {
		tmp = os.TempDir()
	}
	p := Policy{Project: project, Network: c.network()}
	p.Write = appendPath(p.Write, resolve(tmp))
	for _, w := range c.AllowWrite {
		if abs, ok := expand(w, place); ok {
			p.Write = appendPath(p.Write, resolve(abs))
		}
	}
	deny := append(append(slices.Clone(DefaultDenyRead), c.DenyRead...), place.KeyFiles...)
	for _, d := range deny {
		if abs, ok := expand(d, place); ok {
			p.DenyRead = appendPath(p.DenyRead, resolve(abs))
		}
	}
	for _, f := range ControlFiles {
		p.Protect = append(p.Protect, filepath.Join(project, filepath.FromSlash(f)))
	}
	for _, h := range homeControls {
		if place.Home == "" {
			break
		}
		if f := filepath.Join(place.Home, filepath.FromSlash(h)); p.writable(f) {
			p.Protect = appendPath(p.Protect, resolve(f))
		}
	}
	for _, g := range gitPaths(project) {
		// Elsewhere Landlock keeps them read-only already.
		if p.writable(g) {
			p.Protect = appendPath(p.Protect, g)
		}
	}
	if p.Env = cacheEnv(place.CacheRoot); p.Env != nil {
		p.Write = appendPath(p.Write, resolve(place.CacheRoot))
	}
	p.AllowAllUnixSockets = c.AllowAllUnixSockets
	for _, s := range c.AllowUnixSockets {
		if abs, ok := expand(s, place); ok {
			p.UnixSockets = appendPath(p.UnixSockets, resolve(abs))
		}
	}
	return p, nil
}

// expand makes a settings path absolute: ~ and ~/x from place.Home, a
// relative path from the project. It reports false for ~ without a home.
func expand(path string, place Place) (string, bool) {
	switch {
	case path == "~" || strings.HasPrefix(path, "~/"):
		if place.Home == "" {
			return "", false
		}
		return filepath.Join(place.Home, strings.TrimPrefix(path, "~")), true
	case filepath.IsAbs(path):
		return filepath.Clean(path), true
	}
	return filepath.Join(place.Project, path), true
}

// resolve returns path with its symbolic links resolved, or cleaned as it
// is when it does not exist.
func resolve(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	// A path that does not exist yet: resolve what exists of it.
	dir, base := filepath.Split(filepath.Clean(path))
	if dir != "" && dir != path {
		if r, err := filepath.EvalSymlinks(filepath.Clean(dir)); err == nil {
			return filepath.Join(r, base)
		}
	}
	return filepath.Clean(path)
}

func appendPath(paths []string, p string) []string {
	if slices.Contains(paths, p) {
		return paths
	}
	return append(paths, p)
}

// Writable names the places a command may write, for messages: "project,
// /tmp, ~/.cache/go-build".
func (p Policy) Writable(home string) string {
	names := []string{"project"}
	for _, w := range p.Write {
		names = append(names, tilde(w, home))
	}
	return strings.Join(names, ", ")
}

// tilde writes path under home as ~/...
func tilde(path, home string) string {
	if home != "" && home != "/" && within(path, home) {
		return "~" + strings.TrimPrefix(path, home)
	}
	return path
}

// within reports whether path is dir or lies beneath it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// ErrUnavailable is returned, wrapped, when sandboxing was asked for and the
// system cannot enforce it.
var ErrUnavailable = errors.New("the sandbox is not available on this system")

// DenyReading adds paths no sandboxed command may read, such as another
// agent's key files (pi's auth.json and models.json), as it does cairn's.
func (p *Policy) DenyReading(paths ...string) {
	for _, d := range paths {
		p.DenyRead = appendPath(p.DenyRead, resolve(d))
	}
}
