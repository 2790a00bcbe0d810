package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/regfile"
)

// Limits of what install copies.
const (
	maxFiles     = 20000
	maxTreeBytes = 500 << 20
	// CloneTimeout bounds a git clone.
	CloneTimeout = 3 * time.Minute
)

// IsGitURL reports whether src names a git repository to clone rather
// than a directory.
func IsGitURL(src string) bool {
	for _, p := range []string{"https://", "http://", "git@", "ssh://", "git://", "file://"} {
		if strings.HasPrefix(src, p) {
			return true
		}
	}
	return false
}

// Install copies the plugin at src (a directory, or a git URL cloned
// first) into cairn's plugins directory and returns it as installed, with
// notes on what was left out. A marketplace of one plugin installs that
// plugin; a marketplace of several is refused, naming them. A plugin of
// the same name already installed is refused.
func Install(ctx context.Context, src, cairnDir string) (Plugin, []string, error) {
	dest := CairnDir(cairnDir)
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return Plugin{}, nil, err
	}
	staging, err := os.MkdirTemp(dest, ".install-")
	if err != nil {
		return Plugin{}, nil, err
	}
	defer os.RemoveAll(staging)
	root := src
	if IsGitURL(src) {
		root = filepath.Join(staging, "clone")
		if err := clone(ctx, src, root); err != nil {
			return Plugin{}, nil, err
		}
	} else if root, err = filepath.Abs(src); err != nil {
		return Plugin{}, nil, err
	}
	root, err = pluginRoot(root)
	if err != nil {
		return Plugin{}, nil, err
	}
	p, err := Read(root)
	if err != nil {
		return Plugin{}, nil, err
	}
	final := filepath.Join(dest, p.Name)
	if _, err := os.Lstat(final); err == nil {
		return Plugin{}, nil, fmt.Errorf("a plugin named %s is installed already (%s); remove it first with cairn plugin remove %s", p.Name, final, p.Name)
	}
	tree := filepath.Join(staging, "tree")
	notes, err := copyTree(root, tree)
	if err != nil {
		return Plugin{}, nil, err
	}
	if err := os.Rename(tree, final); err != nil {
		return Plugin{}, nil, err
	}
	p, err = Read(final)
	p.From = "cairn"
	return p, notes, err
}

// pluginRoot is root, or for a marketplace of one plugin kept in the same
// repository, that plugin's directory.
func pluginRoot(root string) (string, error) {
	if _, err := os.Stat(ManifestFile(root)); err == nil {
		return root, nil
	}
	data, err := regfile.Read(MarketplaceFile(root), maxManifest)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(root); serr != nil {
			return "", serr
		}
		return "", fmt.Errorf("%s has no .claude-plugin/plugin.json or marketplace.json: is it a Claude Code plugin?", root)
	}
	if err != nil {
		return "", err
	}
	var m struct {
		Plugins []struct {
			Name   string          `json:"name"`
			Source json.RawMessage `json:"source"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("%s: %w", MarketplaceFile(root), err)
	}
	var names []string
	for _, p := range m.Plugins {
		var rel string
		if json.Unmarshal(p.Source, &rel) == nil && strings.HasPrefix(rel, "./") {
			names = append(names, fmt.Sprintf("%s (%s)", p.Name, filepath.Join(root, rel)))
		} else {
			names = append(names, p.Name+" (kept elsewhere: install it from its own repository)")
		}
	}
	if len(m.Plugins) == 1 {
		var rel string
		if json.Unmarshal(m.Plugins[0].Source, &rel) == nil && strings.HasPrefix(rel, "./") {
			sub := filepath.Join(root, rel)
			if r, err := filepath.Rel(root, sub); err == nil && !strings.HasPrefix(r, "..") {
				return sub, nil
			}
		}
	}
	return "", fmt.Errorf("%s is a marketplace of %d plugins; install one of them by its directory:\n  %s", root, len(m.Plugins), strings.Join(names, "\n  "))
}

// clone clones url into dir, shallow, within CloneTimeout, never asking
// for credentials on the terminal.
func clone(ctx context.Context, url, dir string) error {
	ctx, cancel := context.WithTimeout(ctx, CloneTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "clone", "--quiet", "--depth", "1", "--", url, dir)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return fmt.Errorf("git clone %s did not finish within %s", url, CloneTimeout)
	}
	if err != nil {
		return fmt.Errorf("git clone %s: %v: %s", url, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// copyTree copies the directories and regular files under from to to
// (which must not exist), leaving out .git and links, within maxFiles and
// maxTreeBytes; notes say what was left out.
func copyTree(from, to string) ([]string, error) {
	var notes []string
	files, size := 0, int64(0)
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir() && d.Name() == ".git" && rel != ".":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			notes = append(notes, fmt.Sprintf("%s is a link and was not copied", rel))
			return nil
		case !d.Type().IsRegular():
			return nil
		}
		files++
		info, err := d.Info()
		if err != nil {
			return err
		}
		size += info.Size()
		if files > maxFiles || size > maxTreeBytes {
			return fmt.Errorf("%s holds more than %d files or %d MiB; not installed", from, maxFiles, maxTreeBytes>>20)
		}
		return copyFile(p, target, info.Mode().Perm())
	})
	return notes, err
}

func copyFile(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Remove deletes cairn's installed plugin name. Claude Code's plugins are
// Claude Code's to remove (claude plugin uninstall).
func Remove(name, cairnDir string) error {
	if !validName().MatchString(name) {
		return fmt.Errorf("%q is not a plugin name", name)
	}
	dir := filepath.Join(CairnDir(cairnDir), name)
	if _, err := os.Lstat(dir); err != nil {
		return fmt.Errorf("no plugin named %s is installed in %s (Claude Code's plugins are removed with claude plugin uninstall)", name, CairnDir(cairnDir))
	}
	return os.RemoveAll(dir)
}
