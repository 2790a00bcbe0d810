package piext

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Source is one entry of the "packages" setting, as pi reads it: an npm
// package ("npm:NAME[@VERSION]"), a git repository ("git:HOST/PATH[@REF]"
// or a URL), or a local path.
type Source struct {
	// Kind is "npm", "git" or "local".
	Kind string
	// Name is the npm package's name; Version its version or range.
	Name, Version string
	// Host and Repo name a git repository; Ref its ref.
	Host, Repo, Ref string
	// Path is a local source's path, as written.
	Path string
}

// npmName is what npm accepts as a package name, with its scope.
var npmName = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$`)

// ParseSource reads one source as pi does.
func ParseSource(s string) (Source, error) {
	s = strings.TrimSpace(s)
	if spec, ok := strings.CutPrefix(s, "npm:"); ok {
		name, version := spec, ""
		if i := strings.LastIndex(spec, "@"); i > 0 {
			name, version = spec[:i], spec[i+1:]
		}
		if !npmName.MatchString(name) {
			return Source{}, fmt.Errorf("%q is not an npm package name", name)
		}
		return Source{Kind: "npm", Name: name, Version: version}, nil
	}
	if isLocal(s) {
		return Source{Kind: "local", Path: s}, nil
	}
	rest := strings.TrimPrefix(s, "git:")
	for _, p := range []string{"https://", "http://", "ssh://", "git@"} {
		rest = strings.TrimPrefix(rest, p)
	}
	rest = strings.Replace(rest, ":", "/", 1)
	ref := ""
	if i := strings.LastIndex(rest, "@"); i > 0 {
		rest, ref = rest[:i], rest[i+1:]
	}
	rest = strings.TrimSuffix(strings.TrimSuffix(rest, "/"), ".git")
	host, repo, ok := strings.Cut(rest, "/")
	if !ok || host == "" || repo == "" || strings.Contains(host, "..") || slicesContainsDots(repo) {
		return Source{}, fmt.Errorf("%q is neither npm:NAME, a git repository nor a local path", s)
	}
	return Source{Kind: "git", Host: host, Repo: repo, Ref: ref}, nil
}

func slicesContainsDots(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if part == ".." || part == "." || part == "" {
			return true
		}
	}
	return false
}

func isLocal(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") ||
		strings.HasPrefix(s, "~") || s == "." || s == ".."
}

// NPMRoot is where npm packages are installed under a root directory
// (cairn's ~/.cairn, pi's ~/.pi/agent), as pi's `pi install` does.
func NPMRoot(root string) string { return filepath.Join(root, "npm") }

// installed finds src under the roots, first match first.
func (src Source) installed(roots []string) (string, bool) {
	for _, r := range roots {
		if r == "" {
			continue
		}
		var dir string
		switch src.Kind {
		case "npm":
			dir = filepath.Join(NPMRoot(r), "node_modules", filepath.FromSlash(src.Name))
		case "git":
			dir = filepath.Join(r, "git", src.Host, filepath.FromSlash(src.Repo))
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir, true
		}
	}
	return "", false
}

// packageEntries are the extensions of the package in dir: those its
// package.json "pi.extensions" names, else the ones of its extensions/
// directory (pi's conventional place), else its index.ts or index.js.
func packageEntries(dir string) ([]Entry, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	if m == nil || len(m.Extensions) == 0 {
		if st, err := os.Stat(filepath.Join(dir, "extensions")); err == nil && st.IsDir() {
			return Discover(filepath.Join(dir, "extensions"), "package"), nil
		}
	}
	files, err := Entries(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("the package %s has no extensions (no pi.extensions in its package.json, no extensions/ directory, no index.ts or index.js)", dir)
	}
	out := make([]Entry, 0, len(files))
	for _, f := range files {
		out = append(out, Entry{Path: f, Source: "package"})
	}
	return out, nil
}

// Packages are the extensions of the "packages" setting raw: each source
// looked for where it is installed (roots, in order), a local one relative
// to base (the settings file's directory) with ~ as home. A source that is
// not installed, or cannot be read, is an entry with the error saying what
// to do.
func Packages(raw json.RawMessage, roots []string, base, home string) []Entry {
	if len(raw) == 0 {
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return []Entry{{Path: "packages", Source: "package", Err: fmt.Errorf("the \"packages\" setting must be a list of sources: %w", err)}}
	}
	var out []Entry
	for _, item := range list {
		s, err := sourceOf(item)
		if err != nil {
			out = append(out, Entry{Path: "packages: " + string(item), Source: "package", Err: err})
			continue
		}
		src, err := ParseSource(s)
		if err != nil {
			out = append(out, Entry{Path: s, Source: "package", Err: err})
			continue
		}
		var dir string
		switch src.Kind {
		case "local":
			dir = pihome.ExpandTilde(src.Path, home)
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(base, dir)
			}
			if st, err := os.Stat(dir); err != nil {
				out = append(out, Entry{Path: dir, Source: "package", Err: err})
				continue
			} else if !st.IsDir() {
				out = append(out, Entry{Path: dir, Source: "package"})
				continue
			}
		default:
			d, ok := src.installed(roots)
			if !ok {
				out = append(out, Entry{Path: s, Source: "package", Err: notInstalled(s, src)})
				continue
			}
			dir = d
		}
		entries, err := packageEntries(dir)
		if err != nil {
			out = append(out, Entry{Path: dir, Source: "package", Err: err})
			continue
		}
		out = append(out, entries...)
	}
	return out
}

func notInstalled(s string, src Source) error {
	if src.Kind == "npm" {
		return fmt.Errorf("%s is not installed: run `cairn install %s` (or pi's `pi install %s`)", s, s, s)
	}
	return fmt.Errorf("%s is not installed: install it with pi's `pi install %s`, or clone it and name its directory", s, s)
}

// sourceOf reads a packages item: a source, or {"source", ...} whose
// other members select pi's skills, prompts and themes (which cairn reads
// from pi's directories, not from packages) or the package's extensions,
// which cairn does not filter yet.
func sourceOf(item json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(item, &s) == nil {
		return s, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(item, &obj); err != nil {
		return "", fmt.Errorf("a package is a source or {\"source\": ...}: %w", err)
	}
	if err := json.Unmarshal(obj["source"], &s); err != nil || s == "" {
		return "", errors.New("a package object needs \"source\"")
	}
	for k := range obj {
		switch k {
		case "source", "skills", "prompts", "themes":
		case "extensions", "autoload":
			return "", fmt.Errorf("package %s: %q is not supported by cairn yet: list the extensions to run with -e, or remove the filter", s, k)
		default:
			return "", fmt.Errorf("package %s: unknown member %q", s, k)
		}
	}
	return s, nil
}

// InstallNPM installs the npm package spec (NAME or NAME@VERSION) under
// root's npm directory with npm, as pi's `pi install npm:...` does
// (peer dependencies left to the host, which provides pi's packages).
func InstallNPM(ctx context.Context, npm, root, spec string) error {
	src, err := ParseSource("npm:" + spec)
	if err != nil {
		return err
	}
	dir := NPMRoot(root)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	pkg := filepath.Join(dir, "package.json")
	if _, err := os.Stat(pkg); os.IsNotExist(err) {
		if err := os.WriteFile(pkg, []byte(`{"name": "cairn-pi-packages", "private": true}`+"\n"), 0o600); err != nil {
			return err
		}
	}
	full := src.Name
	if src.Version != "" {
		full += "@" + src.Version
	}
	cmd := exec.CommandContext(ctx, npm, "install", full, "--prefix", dir, "--legacy-peer-deps", "--no-audit", "--no-fund")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install %s: %w\n%s", full, err, strings.TrimSpace(out.String()))
	}
	return nil
}

// ReadPiPackages reads the "packages" of pi's settings file in dir (pi's
// agent directory); none when the file or the key is missing.
func ReadPiPackages(dir string) (json.RawMessage, error) {
	data, err := regfile.Read(filepath.Join(dir, "settings.json"), maxManifest)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s struct {
		Packages json.RawMessage `json:"packages"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "settings.json"), err)
	}
	return s.Packages, nil
}
