package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// Toolchains keep caches in the person's home (Go's build and module
// caches, npm's, pip's, cargo's registry), which a sandboxed command may
// not write: writing them would let it plant a build result or a package
// that the person's next build outside the sandbox runs. So each cache is
// given to the command as a copy-on-write layer over itself: the command
// reads the person's cache as it is and writes into a layer of the
// sandbox's own (under cairn's directory), which only later sandboxed
// commands see. Where the system cannot mount (no user namespaces) the
// caches stay read-only, and a denial says how to allow one.

// Cache is a toolchain cache a sandboxed command writes through a layer of
// its own.
type Cache struct {
	// Dir is the cache as the person's programs use it.
	Dir string `json:"dir"`
	// Layer is the directory holding the sandbox's writes to it (its
	// "upper" and "work" directories).
	Layer string `json:"layer"`
}

// cacheDirs are the caches under the home, and the variables that move
// them elsewhere.
var cacheDirs = []struct{ env, home string }{
	{"XDG_CACHE_HOME", ".cache"}, // go-build, pip, yarn, node-gyp, ...
	{"GOCACHE", ""},
	{"GOMODCACHE", ""},
	{"GOPATH", "go"},
	{"npm_config_cache", ".npm"},
	{"PIP_CACHE_DIR", ""},
	{"CARGO_HOME", ".cargo"},
	{"", ".m2"},
	{"", ".gradle"},
}

// caches returns the caches of place for policy p: each that exists (the
// home's .cache is made when missing, as XDG programs would), lies outside
// every writable place and holds no denied path. getenv reads the
// variables that move them.
func (p Policy) caches(place Place, getenv func(string) string) []Cache {
	if place.Home == "" || place.LayerRoot == "" {
		return nil
	}
	var out []Cache
	seen := map[string]bool{}
	for _, c := range cacheDirs {
		var dir string
		if c.env != "" {
			if v := getenv(c.env); filepath.IsAbs(v) {
				dir = filepath.Clean(strings.Split(v, string(os.PathListSeparator))[0])
			}
		}
		if dir == "" && c.home != "" {
			dir = filepath.Join(place.Home, c.home)
			if c.home == ".cache" {
				_ = os.MkdirAll(dir, 0o700)
			}
		}
		if dir == "" {
			continue
		}
		dir = resolve(dir)
		if info, err := os.Stat(dir); err != nil || !info.IsDir() || seen[dir] || p.writable(dir) || p.coversDenied(dir) {
			continue
		}
		seen[dir] = true
		sum := sha256.Sum256([]byte(dir))
		out = append(out, Cache{Dir: dir, Layer: filepath.Join(place.LayerRoot, hex.EncodeToString(sum[:8]))})
	}
	// A cache inside another is already layered with it.
	var kept []Cache
	for _, c := range out {
		inner := false
		for _, o := range out {
			if o.Dir != c.Dir && within(c.Dir, o.Dir) {
				inner = true
			}
		}
		if !inner {
			kept = append(kept, c)
		}
	}
	return kept
}

// coversDenied reports whether dir is, holds or lies in a denied path, or
// holds a control file.
func (p Policy) coversDenied(dir string) bool {
	for _, d := range append(append([]string{}, p.DenyRead...), p.Protect...) {
		if within(dir, d) || within(d, dir) {
			return true
		}
	}
	return false
}
