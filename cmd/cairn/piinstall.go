package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/piext"
	"github.com/cairn-dev/cairn/core/settings"
)

const installUsage = `Usage: cairn install npm:NAME[@VERSION]

Installs a pi package from npm into ~/.cairn/npm, as pi's ` + "`pi install`" + ` does, and adds
it to the "packages" of ~/.cairn/settings.json, so every session runs its
extensions in the pi extension host. Needs npm on PATH. Packages pi installed
(~/.pi/agent/npm) are read as they are.
`

// installCommand runs `cairn install npm:NAME[@VERSION]`.
func installCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(streams.Err, installUsage)
		if len(args) == 1 {
			return exitOK
		}
		return exitUsage
	}
	source := args[0]
	src, err := piext.ParseSource(source)
	if err != nil || src.Kind != "npm" {
		fmt.Fprintf(streams.Err, "cairn: install takes an npm package, npm:NAME[@VERSION]; for a git repository or a local directory, use pi's `pi install` or name its directory in \"packages\"\n")
		return exitUsage
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: install needs npm on PATH: install Node.js with npm (Debian/Ubuntu: apt install npm)\n")
		return exitFailure
	}
	env := newEnvironment(getenv)
	spec := strings.TrimPrefix(source, "npm:")
	fmt.Fprintf(streams.Out, "Installing %s into %s...\n", source, piext.NPMRoot(env.dir))
	if err := piext.InstallNPM(ctx, npm, env.dir, spec); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	if err := addPackage(env, source, src.Name); err != nil {
		fmt.Fprintf(streams.Err, "cairn: installed, but not added to the settings: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(streams.Out, "Installed %s; added to \"packages\" in %s. `cairn ext list` shows its extensions.\n", source, settings.GlobalFile(env.dir))
	return exitOK
}

// addPackage puts source in the global "packages" setting, replacing an
// entry for the same npm package (another version), as pi identifies a
// package by its name.
func addPackage(env environment, source, name string) error {
	st, err := settings.Load(settings.GlobalFile(env.dir), "")
	if err != nil {
		return err
	}
	var list []any
	if raw, ok := st.Get("packages"); ok {
		if err := json.Unmarshal(raw, &list); err != nil {
			return fmt.Errorf("\"packages\" in %s is not a list: %w", settings.GlobalFile(env.dir), err)
		}
	}
	list = slices.DeleteFunc(list, func(v any) bool {
		s, ok := v.(string)
		if !ok {
			if m, isObj := v.(map[string]any); isObj {
				s, _ = m["source"].(string)
			}
		}
		old, err := piext.ParseSource(s)
		return err == nil && old.Kind == "npm" && old.Name == name
	})
	list = append(list, source)
	return st.Set("packages", list, settings.ScopeGlobal)
}
