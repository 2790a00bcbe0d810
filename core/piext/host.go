package piext

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/extension"
)

// hostFiles is the pi extension host: host.mjs (the process), worker.mjs
// (one extension's thread) with combine.mjs (pi's rules for combining
// handlers' results), the shims of pi's packages, and the npm packages
// it runs (vendored below) as npm publishes them.
//
//go:embed host/*.mjs host/shims/*.mjs host/shims/*.json host/*.tgz
var hostFiles embed.FS

// vendored are the npm tarballs the host runs, each unchanged and
// unpacked at install under the directory named beside it. All are MIT;
// jiti's, get-east-asian-width's and marked's tarballs hold their
// licence, pi-tui's names it in its package.json.
//   - jiti 2.7.0: npm's integrity sha512-AC/7JofJvZGrrneWNaEnJeOLUx+Jl
//     Gt7tNa0wZiRPT4MY1wmfKjt2+6O2p2uz2+skll8OZZmJMNqeke7kKbNgQ==.
//   - @earendil-works/pi-tui 0.87.1 (what extensions' components are
//     made of): sha512-YEH2vRyOeiO7hhN6j6AE6YwKSq2Kz2f3XR8bj1TbR+aGE/Js
//     nY1hLPMI2pvaZfRM1n9Y00tejxFQ4zbzvF7nkQ==.
//   - get-east-asian-width 1.6.0 and marked 18.0.11, pi-tui's two
//     dependencies: sha512-QRbvDIbx6YklUe6RxeTeleMR0yv3cYH6PsPZHcnVn7xv7
//     zO1BHN8r0XETu8n6Ye3Q+ahtSarc3WgtNWmehIBfA== and sha512-HnslJfsZkRPB
//     DJRHvVtAaWlZHEpSu7u8LgQuJCELjRKuWR+hpq4A7sLq3p8HaI9ypVoXDXxV34CsQJ
//     Ee1+J5Aw==.
var vendored = []struct{ tarball, dir string }{
	{"host/jiti-2.7.0.tgz", "jiti"},
	{"host/earendil-works-pi-tui-0.87.1.tgz", "node_modules/@earendil-works/pi-tui"},
	{"host/get-east-asian-width-1.6.0.tgz", "node_modules/get-east-asian-width"},
	{"host/marked-18.0.11.tgz", "node_modules/marked"},
}

// maxVendoredFile bounds one file of a tarball when it is unpacked.
const maxVendoredFile = 8 << 20

// Name is the name the host runs under among cairn's extensions.
const Name = "pi"

// version fingerprints the embedded host, so that a cairn with another
// host writes its own directory and never runs a stale one.
func version() string {
	h := sha256.New()
	_ = fs.WalkDir(hostFiles, "host", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := hostFiles.ReadFile(p)
		h.Write([]byte(p))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Install writes the host under cacheDir (once per host version) and
// returns the path of its host.mjs. It writes into a fresh directory and
// renames it into place, so a host is never half written.
func Install(cacheDir string) (string, error) {
	dir := filepath.Join(cacheDir, "pi-host", version())
	entry := filepath.Join(dir, "host.mjs")
	if _, err := os.Stat(entry); err == nil {
		return entry, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", fmt.Errorf("install the pi extension host: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-")
	if err != nil {
		return "", fmt.Errorf("install the pi extension host: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := writeHost(tmp); err != nil {
		return "", fmt.Errorf("install the pi extension host in %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(entry); serr == nil {
			// Another cairn installed the same host meanwhile.
			return entry, nil
		}
		return "", fmt.Errorf("install the pi extension host: %w", err)
	}
	return entry, nil
}

func writeHost(dir string) error {
	err := fs.WalkDir(hostFiles, "host", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".tgz") {
			return err
		}
		data, err := hostFiles.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, "host/")))
		if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o600)
	})
	if err != nil {
		return err
	}
	for _, v := range vendored {
		if err := untarFile(v.tarball, filepath.Join(dir, filepath.FromSlash(v.dir))); err != nil {
			return fmt.Errorf("unpack %s: %w", path.Base(v.tarball), err)
		}
	}
	return nil
}

func untarFile(name, dir string) error {
	f, err := hostFiles.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return untar(f, dir)
}

// untar unpacks npm's tarball r (its files under package/) into dir.
func untar(r io.Reader, dir string) error {
	z, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	t := tar.NewReader(z)
	for {
		h, err := t.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := path.Clean(h.Name)
		rel, ok := strings.CutPrefix(name, "package/")
		if !ok || !fs.ValidPath(rel) || h.Size > maxVendoredFile {
			return fmt.Errorf("unexpected file %q in the tarball", h.Name)
		}
		out := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
			return err
		}
		data, err := io.ReadAll(io.LimitReader(t, maxVendoredFile))
		if err != nil {
			return err
		}
		if err := os.WriteFile(out, data, 0o600); err != nil {
			return err
		}
	}
}

// ErrNoNode says node is not on PATH.
var ErrNoNode = errors.New("pi extensions run on Node.js, and node is not on PATH: install Node.js 18 or newer (Debian/Ubuntu: apt install nodejs; or https://nodejs.org), or start cairn with --no-extensions")

// Options configure Host.
type Options struct {
	// CacheDir is where the host is written (cairn's cache directory).
	CacheDir string
	// Cwd is where the host runs: the session's working directory, as
	// pi's extensions run in pi's.
	Cwd string
	// LookPath finds node; nil means exec.LookPath.
	LookPath func(string) (string, error)
	// Cairn is cairn's executable: an extension that runs the agent it
	// runs in again (pi's subagent example) runs it with pi's command
	// line. Empty: such an extension is told there is none.
	Cairn string
	// CairnDir is cairn's directory (~/.cairn or $CAIRN_DIR), which the
	// cairn Cairn names runs with, as its parent does.
	CairnDir string
	// LoadLimit bounds each extension's load (0: the host's 20 s). A cold
	// load of a large package transpiles with Babel: a slow machine may
	// need longer.
	LoadLimit time.Duration
}

// Host is the extension that runs entries: the pi extension host started
// with each good entry, plus one failed Config per bad entry, so each is
// reported with why. No good entry, no host.
func Host(entries []Entry, opts Options) []extension.Config {
	var out []extension.Config
	var files []string
	scope := extension.ScopePath
	for _, e := range Dedup(entries) {
		if e.Err != nil {
			out = append(out, extension.Config{Name: Name + ":" + filepath.Base(e.Path), Scope: scopeOf(e.Source), Path: e.Path, Err: e.Err})
			continue
		}
		files = append(files, e.Path)
		if len(files) == 1 {
			scope = scopeOf(e.Source)
		}
	}
	if len(files) == 0 {
		return out
	}
	c := extension.Config{Name: Name, Scope: scope, Path: strings.Join(files, ", "), Dir: opts.Cwd}
	look := opts.LookPath
	if look == nil {
		look = exec.LookPath
	}
	node, err := look("node")
	if err != nil {
		c.Err = ErrNoNode
		return append([]extension.Config{c}, out...)
	}
	entry, err := Install(opts.CacheDir)
	if err != nil {
		c.Err = err
		return append([]extension.Config{c}, out...)
	}
	c.Command = node
	c.Args = append([]string{entry}, files...)
	c.Env = map[string]string{"CAIRN_PI_JITI_CACHE": filepath.Join(opts.CacheDir, "pi-host", "jiti")}
	if opts.LoadLimit > 0 {
		c.Env["CAIRN_PI_START_MS"] = strconv.FormatInt(opts.LoadLimit.Milliseconds(), 10)
	}
	if opts.Cairn != "" {
		c.Env["CAIRN_PI_CLI"] = opts.Cairn
		if opts.CairnDir != "" {
			c.Env["CAIRN_DIR"] = opts.CairnDir
		}
	}
	return append([]extension.Config{c}, out...)
}

func scopeOf(source string) extension.Scope {
	switch source {
	case "user":
		return extension.ScopeUser
	case "project":
		return extension.ScopeProject
	case "package":
		return extension.ScopeSettings
	}
	return extension.ScopePath
}
