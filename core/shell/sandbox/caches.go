package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// Toolchains keep caches in the person's home (Go's build cache, npm's,
// pip's, everything under ~/.cache), which a sandboxed command may not
// write: writing them would let it plant a build result or a package that
// the person's next build outside the sandbox runs. So a sandboxed command
// gets caches of the sandbox's own, through the variables every toolchain
// reads (XDG_CACHE_HOME, GOCACHE, npm_config_cache, PIP_CACHE_DIR, ...),
// in a directory only sandboxed commands use (CacheRoot). It reads
// everything else of the person's as it is: Go's module cache, cargo's
// registry, Maven's repository.
//
// Layering the person's caches copy-on-write (an overlay mount per cache)
// was measured first: each overlay mount took about 10 ms of a loaded
// machine's disk per command, against nothing for a variable.

// cacheVars are the variables that move toolchains' caches, and where each
// leads under the sandbox's cache directory.
var cacheVars = []struct{ name, dir string }{
	{"XDG_CACHE_HOME", "xdg"},        // go-build, pip, yarn, node-gyp, ...
	{"GOCACHE", "xdg/go-build"},      // also when the person set it
	{"PIP_CACHE_DIR", "xdg/pip"},     // pip, where the person set it
	{"npm_config_cache", "npm"},      // npm's own cache (~/.npm)
	{"YARN_CACHE_FOLDER", "yarn"},    // yarn 1
	{"BUN_INSTALL_CACHE_DIR", "bun"}, // bun
}

// cacheEnv makes the sandbox's cache directory under root and returns the
// variables that point toolchains at it, or nil when root is "" or cannot
// be made.
func cacheEnv(root string) []string {
	if root == "" {
		return nil
	}
	var env []string
	for _, v := range cacheVars {
		dir := filepath.Join(root, filepath.FromSlash(v.dir))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil
		}
		env = append(env, v.name+"="+dir)
	}
	return env
}

// withEnv returns environ with each of set's "NAME=value" in place of the
// variable's own, since programs read the first of a repeated name.
func withEnv(environ, set []string) []string {
	if len(set) == 0 {
		return environ
	}
	names := map[string]bool{}
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		names[name] = true
	}
	out := make([]string, 0, len(environ)+len(set))
	for _, kv := range environ {
		if name, _, _ := strings.Cut(kv, "="); !names[name] {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}
