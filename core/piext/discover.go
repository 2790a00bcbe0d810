package piext

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/regfile"
)

// Entry is one pi extension's entry module, or a place that should have
// held one and why it does not.
type Entry struct {
	// Path is the module (a .ts or .js file), absolute.
	Path string
	// Source says where it was found: "user" (pi's agent directory),
	// "project" (.pi/extensions), "path" (-e), "package" (settings).
	Source string
	// Err, when set, says why Path is not an extension.
	Err error
}

// isModule reports whether name is a file pi loads as an extension.
func isModule(name string) bool {
	return strings.HasSuffix(name, ".ts") || strings.HasSuffix(name, ".js")
}

// maxManifest bounds the package.json read for its "pi" member.
const maxManifest = 1 << 20

// Manifest is the "pi" member of a package's package.json, as pi reads it.
type Manifest struct {
	Extensions []string `json:"extensions"`
}

// readManifest reads dir/package.json's "pi" member; a missing file or
// member is a nil manifest.
func readManifest(dir string) (*Manifest, error) {
	data, err := regfile.Read(filepath.Join(dir, "package.json"), maxManifest)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var pkg struct {
		Pi *Manifest `json:"pi"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	return pkg.Pi, nil
}

// Entries are the entry modules of the extension directory dir, as pi
// resolves one: the existing files its package.json "pi.extensions" names,
// else index.ts, else index.js. None is an empty list.
func Entries(dir string) ([]string, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	if m != nil && len(m.Extensions) > 0 {
		var out []string
		for _, p := range m.Extensions {
			abs := filepath.Join(dir, p)
			if !within(dir, abs) {
				return nil, fmt.Errorf("%s: pi.extensions names %q, outside the package", filepath.Join(dir, "package.json"), p)
			}
			if _, err := os.Stat(abs); err == nil {
				out = append(out, abs)
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	for _, name := range []string{"index.ts", "index.js"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() {
			return []string{filepath.Join(dir, name)}, nil
		}
	}
	return nil, nil
}

func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Discover lists the extensions of dir as pi does, in name order: each
// *.ts and *.js file, and each subdirectory's entries (Entries). A
// subdirectory with none is listed with an error, so it is reported, not
// ignored; names starting with "." and node_modules are skipped. A
// missing dir holds none.
func Discover(dir, source string) []Entry {
	items, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return []Entry{{Path: dir, Source: source, Err: err}}
	}
	var out []Entry
	for _, it := range items {
		name := it.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil {
			out = append(out, Entry{Path: p, Source: source, Err: err})
			continue
		}
		if !st.IsDir() {
			if isModule(name) {
				out = append(out, Entry{Path: p, Source: source})
			}
			continue
		}
		entries, err := Entries(p)
		switch {
		case err != nil:
			out = append(out, Entry{Path: p, Source: source, Err: err})
		case len(entries) == 0:
			out = append(out, Entry{Path: p, Source: source, Err: fmt.Errorf("%s has no index.ts, index.js or package.json \"pi.extensions\"", p)})
		}
		for _, e := range entries {
			out = append(out, Entry{Path: e, Source: source})
		}
	}
	return out
}

// FromPath is what `-e PATH` names, as pi reads it: a module, or a
// directory's entries (or, with none, the modules in it). ok is false when
// path is not a pi extension at all (then it is one of cairn's own).
func FromPath(path, cwd string) (entries []Entry, ok bool) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	st, err := os.Stat(path)
	if err != nil {
		if isModule(path) {
			return []Entry{{Path: path, Source: "path", Err: err}}, true
		}
		return nil, false
	}
	if !st.IsDir() {
		if isModule(path) {
			return []Entry{{Path: path, Source: "path"}}, true
		}
		return nil, false
	}
	if _, err := os.Stat(filepath.Join(path, "extension.json")); err == nil {
		// One of cairn's own extension directories.
		return nil, false
	}
	found, err := Entries(path)
	if err != nil {
		return []Entry{{Path: path, Source: "path", Err: err}}, true
	}
	if len(found) == 0 {
		all := Discover(path, "path")
		return all, len(all) > 0
	}
	for _, f := range found {
		entries = append(entries, Entry{Path: f, Source: "path"})
	}
	return entries, true
}

// Dedup keeps the first entry of each path, as pi loads a module once.
func Dedup(entries []Entry) []Entry {
	seen := map[string]bool{}
	return slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool {
		key := filepath.Clean(e.Path)
		if seen[key] {
			return true
		}
		seen[key] = true
		return false
	})
}
