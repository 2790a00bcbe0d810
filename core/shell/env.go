package shell

import (
	"os"

	"github.com/cairn-dev/cairn/core/child"
)

// InheritedEnv is the environment, read through getenv, that a program
// cairn starts for a configuration rather than for the model (an MCP
// server, a hook, an extension) starts from: the variables programs need
// to run, and none of cairn's API keys. Add what the program is given on
// top of it. It is core/child's Env, the one list of those variables.
func InheritedEnv(getenv func(string) string) []string { return child.Env(getenv) }

// DefaultEnv is the environment a Command without Env starts with: cairn's
// own without the variables child.Secret judges credentials (the default
// of the "shellEnvironment" setting, without the catalog's names, which
// only cairn's wiring knows).
func DefaultEnv() []string { return child.EnvPolicy{}.Environ(os.Environ(), nil) }
