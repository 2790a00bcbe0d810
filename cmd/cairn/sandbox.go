package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/tools"
)

// sandboxWarned makes the warning that the sandbox cannot be enforced
// appear once per process, however many sessions it builds.
var sandboxWarned sync.Once

// sandboxProbe says what the system can enforce; tests replace it.
var sandboxProbe = sandbox.Probe

// sandboxPolicy returns the sandbox commands run in, or nil when they run
// unsandboxed: cfg is the sandbox setting in force, flag is --sandbox
// ("on") or --no-sandbox ("off"). Where the system cannot enforce the
// sandbox it warns once and returns nil, or, when cfg.Required, fails.
func sandboxPolicy(cfg sandbox.Config, flag, cwd, cairnDir string, warn func(string)) (*sandbox.Policy, error) {
	switch flag {
	case "on":
		cfg.Enabled = true
	case "off":
		cfg.Enabled = false
	}
	if !cfg.Enabled {
		return nil, nil
	}
	st := sandboxProbe()
	if !st.Available {
		if cfg.Required {
			return nil, fmt.Errorf("the sandbox is required (sandbox.required in settings) but %s; "+
				"use --no-sandbox to run commands unsandboxed", st.Detail)
		}
		sandboxWarned.Do(func() {
			warn(fmt.Sprintf("the sandbox is not available (%s): commands run unsandboxed, as without it", st.Detail))
		})
		return nil, nil
	}
	if !st.ProtectsControlFiles {
		sandboxWarned.Do(func() { warn("sandbox: " + st.Detail) })
	}
	home, _ := os.UserHomeDir()
	// The sandbox's own toolchain caches (see sandbox.Place.CacheRoot):
	// beside the person's, never in cairn's directory, which is read-only
	// in the sandbox when the home is writable.
	cacheRoot := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cacheRoot = filepath.Join(dir, "cairn", "sandbox")
	}
	// cairn's files that may hold keys: models.json (apiKey, headers),
	// mcp.json (servers' env and headers), settings.json
	// (shellEnvironment.set), auth.json (`cairn login`'s tokens).
	keyFiles := []string{filepath.Join(cairnDir, "models.json"), filepath.Join(cairnDir, "mcp.json"),
		filepath.Join(cairnDir, "settings.json"), filepath.Join(cairnDir, "auth.json")}
	p, err := cfg.Policy(sandbox.Place{Project: cwd, Home: home, KeyFiles: keyFiles, CacheRoot: cacheRoot})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// setSandbox makes the bash tool among ts run its commands in p.
func setSandbox(ts []core.Tool, p *sandbox.Policy) {
	for _, t := range ts {
		if b, ok := t.(*tools.Bash); ok {
			b.Sandbox = p
		}
	}
}
