package catalog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// providerKeyEnv lists, per built-in provider, the environment variables
// that may hold its key, in the order they are consulted.
var providerKeyEnv = map[string][]string{
	"anthropic":  {"ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"},
	"openai":     {"OPENAI_API_KEY"},
	"google":     {"GEMINI_API_KEY", "GOOGLE_API_KEY"},
	"openrouter": {"OPENROUTER_API_KEY"},
	"groq":       {"GROQ_API_KEY"},
	"xai":        {"XAI_API_KEY"},
	"cerebras":   {"CEREBRAS_API_KEY"},
	"mistral":    {"MISTRAL_API_KEY"},
	"deepseek":   {"DEEPSEEK_API_KEY"},
}

// defaultOrder is the preference among providers when no model was asked
// for: the first of these whose provider has a key is used. The models are
// pi's defaults, so a pi user gets the model they are used to.
var defaultOrder = []struct{ provider, model string }{
	{"anthropic", "claude-opus-4-6"},
	{"openai", "gpt-5.1-codex"},
	{"google", "gemini-2.5-pro"},
	{"openrouter", "openai/gpt-5.1-codex"},
	{"xai", "grok-4-fast-non-reasoning"},
	{"groq", "openai/gpt-oss-120b"},
	{"mistral", "devstral-medium-latest"},
}

// KeyEnv returns the environment variables that may hold provider's key.
func KeyEnv(providerName string) []string { return providerKeyEnv[providerName] }

// Credentials are what a request to one model needs to authenticate.
type Credentials struct {
	APIKey  string
	Headers map[string]string
	// Source says where the key came from ("ANTHROPIC_API_KEY",
	// "models.json", "--api-key"), never the key itself.
	Source string
}

// SetAPIKey makes key the one used for providerName, ahead of every other
// source (the --api-key flag).
func (c *Catalog) SetAPIKey(providerName, key string) {
	pc := c.providers[providerName]
	if pc == nil {
		pc = &providerConfig{}
		c.providers[providerName] = pc
	}
	pc.runtimeKey = key
}

// Credentials finds the key and headers for m. Keys are looked up in this
// order: --api-key, the provider's environment variables, models.json. A
// model served from a custom base URL (a local server) may have no key; a
// hosted provider without one is an error that says where cairn looked.
func (c *Catalog) Credentials(m core.Model) (Credentials, error) {
	var cr Credentials
	pc := c.providers[m.Provider]
	if pc != nil && pc.runtimeKey != "" {
		cr.APIKey, cr.Source = pc.runtimeKey, "--api-key"
	}
	if cr.APIKey == "" {
		for _, name := range providerKeyEnv[m.Provider] {
			if v := c.env(name); v != "" {
				cr.APIKey, cr.Source = v, name
				break
			}
		}
	}
	if cr.APIKey == "" && pc != nil && pc.APIKey != "" {
		v, err := c.resolveValue(pc.APIKey)
		if err != nil {
			return cr, fmt.Errorf("apiKey of provider %s in models.json: %w", m.Provider, err)
		}
		cr.APIKey, cr.Source = v, "models.json"
	}
	headers, err := c.headers(m, pc, cr.APIKey)
	if err != nil {
		return cr, err
	}
	cr.Headers = headers
	if cr.APIKey != "" || m.API == faux.API || !isHostedDefault(m) {
		return cr, nil
	}
	return cr, c.missingKeyError(m.Provider)
}

// headers merges provider and model headers from models.json, resolving
// environment-variable and command values.
func (c *Catalog) headers(m core.Model, pc *providerConfig, key string) (map[string]string, error) {
	var out map[string]string
	add := func(src map[string]string) error {
		for k, v := range src {
			rv, err := c.resolveValue(v)
			if err != nil {
				return fmt.Errorf("header %s of provider %s in models.json: %w", k, m.Provider, err)
			}
			if out == nil {
				out = map[string]string{}
			}
			out[k] = rv
		}
		return nil
	}
	if pc != nil {
		if err := add(pc.Headers); err != nil {
			return nil, err
		}
	}
	if err := add(m.Headers); err != nil {
		return nil, err
	}
	if pc != nil && pc.AuthHeader && key != "" {
		if out == nil {
			out = map[string]string{}
		}
		out["Authorization"] = "Bearer " + key
	}
	return out, nil
}

// isHostedDefault reports whether m is served from its provider's own
// hosted endpoint, where a key is always needed.
func isHostedDefault(m core.Model) bool {
	for _, b := range builtinModels() {
		if b.Provider == m.Provider {
			return strings.TrimRight(b.BaseURL, "/") == strings.TrimRight(m.BaseURL, "/")
		}
	}
	return false
}

func (c *Catalog) missingKeyError(providerName string) error {
	where := "its apiKey in " + c.configPathOrDefault()
	if envs := providerKeyEnv[providerName]; len(envs) > 0 {
		return fmt.Errorf("no API key for provider %s: set %s, or %s, or pass --api-key", providerName, strings.Join(envs, " or "), where)
	}
	return fmt.Errorf("no API key for provider %s: set %s, or pass --api-key", providerName, where)
}

func (c *Catalog) noCredentialsError() error {
	return fmt.Errorf("%w: cairn looked for %s in the environment and for providers in %s. "+
		"Set one of those variables, or add a local server to models.json (see README), or try `cairn --demo` for scripted answers",
		ErrNoCredentials, strings.Join(c.KeyEnvs(), ", "), c.configPathOrDefault())
}

// ErrNoCredentials is the error Default wraps when no provider has
// credentials.
var ErrNoCredentials = errors.New("no model provider is configured")

// KeyEnvs lists the environment variables that hold the keys of the
// providers cairn prefers, in the order it tries them.
func (c *Catalog) KeyEnvs() []string {
	var envs []string
	for _, p := range defaultOrder {
		envs = append(envs, providerKeyEnv[p.provider]...)
	}
	return envs
}

// ConfigFile names the models.json file cairn reads (or would read).
func (c *Catalog) ConfigFile() string { return c.configPathOrDefault() }

// Preferred returns the model cairn would use first if its provider had
// credentials, for showing a session before any are set up.
func (c *Catalog) Preferred() (core.Model, bool) {
	for _, p := range defaultOrder {
		for _, m := range c.byProvider(p.provider) {
			if m.ID == p.model {
				return m, true
			}
		}
	}
	if len(c.models) > 0 {
		return c.models[0], true
	}
	return core.Model{}, false
}

func (c *Catalog) configPathOrDefault() string {
	if c.ConfigPath != "" {
		return c.ConfigPath
	}
	return "~/.cairn/models.json"
}

// resolveValue reads a models.json value as pi does: "!command" runs the
// command and uses its output, a name of a set environment variable uses
// that variable, anything else is used literally.
func (c *Catalog) resolveValue(v string) (string, error) {
	if cmd, ok := strings.CutPrefix(v, "!"); ok {
		return c.cachedCommand(cmd)
	}
	if isEnvName(v) {
		if ev := c.env(v); ev != "" {
			return ev, nil
		}
	}
	return v, nil
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r == '_':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// cachedCommand runs a "!command" value once per catalog: its output is
// asked for each time credentials are looked up.
func (c *Catalog) cachedCommand(cmd string) (string, error) {
	c.cmdMu.Lock()
	defer c.cmdMu.Unlock()
	if v, ok := c.cmdCache[cmd]; ok {
		return v, nil
	}
	out, err := c.run(cmd)
	if err != nil {
		return "", err
	}
	if c.cmdCache == nil {
		c.cmdCache = map[string]string{}
	}
	c.cmdCache[cmd] = out
	return out, nil
}

func runShell(command string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sh", "-c", command).Output()
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return "", fmt.Errorf("command %q failed: %s", command, strings.TrimSpace(string(exitErr.Stderr)))
		}
		return "", fmt.Errorf("command %q: %w", command, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// KeyVars lists every environment variable cairn may read a credential
// from, sorted: the built-in providers' key variables and every name
// models.json gives as an apiKey or header value. The commands cairn runs
// start without them unless the person's settings pass them.
func (c *Catalog) KeyVars() []string {
	seen := map[string]bool{}
	for _, names := range providerKeyEnv {
		for _, n := range names {
			seen[n] = true
		}
	}
	addValue := func(v string) {
		if isEnvName(v) {
			seen[v] = true
		}
	}
	for _, pc := range c.providers {
		addValue(pc.APIKey)
		for _, v := range pc.Headers {
			addValue(v)
		}
	}
	for _, m := range c.models {
		for _, v := range m.Headers {
			addValue(v)
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
