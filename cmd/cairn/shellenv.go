package main

import (
	"os"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/catalog"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/tools"
)

// shellEnv is the environment a session's commands (the bash tool, rpc
// bash, `!cmd`, background commands) start with: cairn's own as the
// "shellEnvironment" setting passes it, which drops the variables cairn
// reads its keys from (the catalog's, models.json's included) and every
// other variable named like a credential unless the person passes it.
func shellEnv(st *settings.Store, cat *catalog.Catalog) []string {
	var keys []string
	if cat != nil {
		keys = cat.KeyVars()
	}
	return st.ShellEnvironment().Environ(os.Environ(), keys)
}

// setShellEnv makes the bash tool among ts start its commands with env.
func setShellEnv(ts []core.Tool, env []string) {
	for _, t := range ts {
		if b, ok := t.(*tools.Bash); ok {
			b.Env = env
		}
	}
}
