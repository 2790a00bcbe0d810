package gitrepo

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/regfile"
)

// Repo is the git repository a directory belongs to, as git finds it.
type Repo struct {
	// Worktree is the directory holding Entry: the top of the working
	// tree; "" for a bare repository.
	Worktree string
	// Entry is the `.git` directory or file that makes Worktree a working
	// tree, or a bare repository's directory; "" when the directory is in
	// no repository.
	Entry string
	// GitDir is the repository's git directory: Entry, or where a `.git`
	// file's `gitdir:` line points.
	GitDir string
	// CommonDir is where the configuration and hooks live: GitDir, or
	// where its `commondir` file points (linked worktrees).
	CommonDir string
}

// maxPointer bounds the `.git` files and `commondir` files read.
const maxPointer = 4096

// Find returns the repository dir belongs to, looking in dir and its
// parents as git does: a `.git` entry first, then the directory itself as
// a bare repository (see IsGitDir). It does not follow GIT_DIR: what
// matters is what the person's git finds there. Entry is "" when there is
// none; Worktree is "" for a bare repository.
func Find(dir string) Repo {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Repo{}
	}
	for {
		entry := filepath.Join(dir, ".git")
		if info, err := os.Lstat(entry); err == nil {
			r := Repo{Worktree: dir, Entry: entry, GitDir: entry}
			if info.Mode().IsRegular() {
				r.GitDir = pointer(entry, "gitdir:", dir)
			}
			r.CommonDir = r.GitDir
			if r.GitDir != "" {
				if common := pointer(filepath.Join(r.GitDir, "commondir"), "", r.GitDir); common != "" {
					r.CommonDir = common
				}
			}
			return r
		}
		if IsGitDir(dir) {
			// A bare repository: the directory is the git directory.
			r := Repo{Entry: dir, GitDir: dir, CommonDir: dir}
			if common := pointer(filepath.Join(dir, "commondir"), "", dir); common != "" {
				r.CommonDir = common
			}
			return r
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Repo{}
		}
		dir = parent
	}
}

// IsGitDir reports whether d looks like a git directory to git: a HEAD
// file beside a config file or an objects directory.
func IsGitDir(d string) bool {
	head, err := os.Stat(filepath.Join(d, "HEAD"))
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	_, errConfig := os.Stat(filepath.Join(d, "config"))
	_, errObjects := os.Stat(filepath.Join(d, "objects"))
	return errConfig == nil || errObjects == nil
}

// pointer reads a one-line file naming a directory (`gitdir: ../x`, or a
// bare path when prefix is ""), relative to base; "" when it cannot.
func pointer(file, prefix, base string) string {
	data, err := regfile.Read(file, maxPointer)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(data), "\n")
	line = strings.TrimSpace(strings.TrimPrefix(line, prefix))
	if line == "" {
		return ""
	}
	if !filepath.IsAbs(line) {
		line = filepath.Join(base, line)
	}
	return filepath.Clean(line)
}

// Dirs returns the repository's own directories and files that change
// what git runs, without repeats: Entry, GitDir and CommonDir.
func (r Repo) Dirs() []string {
	var out []string
	for _, p := range []string{r.Entry, r.GitDir, r.CommonDir} {
		if p != "" && !contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// configTimeout bounds the one `git config` run Named makes.
const configTimeout = 3 * time.Second

// Named returns the files and directories outside the git directories
// that git's configuration for this repository makes part of what git
// runs: every configuration file git reads (the person's global one,
// files brought in with include.path or includeIf) and the hooks directory
// core.hooksPath names. It asks git itself (`git config --list
// --show-origin`), which reads configuration without running anything,
// with a time limit and an environment that cannot steer it; without git
// there is nothing git would run, and Named returns nil.
func (r Repo) Named() []string {
	if r.Entry == "" {
		return nil
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), configTimeout)
	defer cancel()
	top := r.Worktree
	if top == "" {
		top = r.GitDir // bare: relative paths are taken from it
	}
	cmd := exec.CommandContext(ctx, git, "config", "--list", "--show-origin", "--null")
	cmd.Dir = top
	cmd.Env = configEnv(os.Environ())
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil
	}
	return parseOrigins(out, top)
}

// configEnv is environ without the variables that point git at other
// repositories or configuration, so git answers for the directory alone.
func configEnv(environ []string) []string {
	var env []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") && k != "GIT_CONFIG_GLOBAL" && k != "GIT_CONFIG_SYSTEM" && k != "GIT_CONFIG_NOSYSTEM" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
}

// parseOrigins reads `git config --list --show-origin --null` output:
// records of "origin\0key\nvalue\0". It returns each file origin and the
// directory core.hooksPath names (relative to worktree, ~ expanded).
func parseOrigins(out []byte, worktree string) []string {
	var named []string
	add := func(p string) {
		if p != "" && !contains(named, p) {
			named = append(named, filepath.Clean(p))
		}
	}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		origin, kv := string(fields[i]), string(fields[i+1])
		if file, ok := strings.CutPrefix(origin, "file:"); ok {
			if !filepath.IsAbs(file) {
				file = filepath.Join(worktree, file)
			}
			add(file)
		}
		key, value, _ := strings.Cut(kv, "\n")
		if strings.EqualFold(key, "core.hookspath") && value != "" {
			switch {
			case value == "~" || strings.HasPrefix(value, "~/"):
				if home, err := os.UserHomeDir(); err == nil {
					value = filepath.Join(home, strings.TrimPrefix(value, "~"))
				}
			case !filepath.IsAbs(value):
				value = filepath.Join(worktree, value)
			}
			add(value)
		}
	}
	return named
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
