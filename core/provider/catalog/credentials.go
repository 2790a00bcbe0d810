package catalog

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/oauth"
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
	// pi's names for these two.
	"github-copilot":    {"COPILOT_GITHUB_TOKEN"},
	"vercel-ai-gateway": {"AI_GATEWAY_API_KEY"},
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
	{"openai-codex", "gpt-5.5"},
	{"github-copilot", "gpt-5.4"},
	{"vercel-ai-gateway", "zai/glm-5.1"},
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
	c.live.mu.Lock()
	defer c.live.mu.Unlock()
	pc := c.providers[providerName]
	if pc == nil {
		pc = &providerConfig{}
		c.providers[providerName] = pc
		// Kept when extensions' providers are laid over the catalog again.
		if c.live.loadedProviders != nil {
			c.live.loadedProviders[providerName] = pc
		}
	}
	pc.runtimeKey = key
}

// Credentials finds the key and headers for m, in pi's order: --api-key,
// then cairn's auth.json (`cairn login`) and pi's (an API key, or an
// OAuth token, refreshed as pi
// refreshes it when it expires within five minutes; see refreshOAuth),
// then the provider's apiKey in models.json, then the provider's
// environment variables. A configured key that cannot be resolved (an
// unset "$VAR", a failing "!command") is an error naming it. A model
// served from a custom base URL (a local server) may have no key; a
// hosted provider without one is an error that says where cairn looked.
func (c *Catalog) Credentials(m core.Model) (Credentials, error) {
	cr, err := c.key(m, true)
	if err != nil {
		return cr, err
	}
	pc := c.providerConfig(m.Provider)
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

// HasKey reports, without running any "!command", whether m's provider has
// a key or needs none: what --list-models shows. A "$VAR" key counts only
// when the variable is set, a command key always (as pi shows it).
func (c *Catalog) HasKey(m core.Model) bool {
	cr, err := c.key(m, false)
	if err != nil {
		return false
	}
	return cr.APIKey != "" || m.API == faux.API || !isHostedDefault(m)
}

// key finds m's key as Credentials does. With resolve false, commands are
// not run and a configured command key is returned as a placeholder.
func (c *Catalog) key(m core.Model, resolve bool) (Credentials, error) {
	var cr Credentials
	pc := c.providerConfig(m.Provider)
	if pc != nil && pc.runtimeKey != "" {
		cr.APIKey, cr.Source = pc.runtimeKey, "--api-key"
		return cr, nil
	}
	if a, ok := c.authEntry(m.Provider); ok {
		switch {
		case a.Type == "oauth" && !a.NeedsRefresh(c.now()):
			cr.APIKey, cr.Source = a.Access, c.authFileName(m.Provider)+" (OAuth)"
			return cr, nil
		case a.Type == "oauth" && !resolve:
			if oauth.Supports(m.Provider) && c.oauth != nil {
				cr.APIKey, cr.Source = "(refreshable)", c.authFileName(m.Provider)+" (OAuth)"
				return cr, nil
			}
			return cr, c.expiredError(m.Provider, nil)
		case a.Type == "oauth":
			fresh, err := c.refreshOAuth(m.Provider)
			if err != nil {
				return cr, err
			}
			cr.APIKey, cr.Source = fresh.Access, c.authFileName(m.Provider)+" (OAuth, refreshed)"
			return cr, nil
		case a.Key != "":
			getenv := c.env
			if len(a.Env) > 0 {
				getenv = func(name string) string {
					if v := a.Env[name]; v != "" {
						return v
					}
					return c.env(name)
				}
			}
			v, err := c.value(a.Key, fmt.Sprintf("the API key of provider %s in %s", m.Provider, c.authFileName(m.Provider)), getenv, true, resolve)
			cr.APIKey, cr.Source = v, c.authFileName(m.Provider)
			return cr, err
		}
	}
	if pc != nil && pc.APIKey != "" {
		v, err := c.value(pc.APIKey, fmt.Sprintf("the apiKey of provider %s in %s", m.Provider, pc.source), c.env, false, resolve)
		cr.APIKey, cr.Source = v, pc.source
		return cr, err
	}
	for _, name := range providerKeyEnv[m.Provider] {
		if v := c.env(name); v != "" {
			cr.APIKey, cr.Source = v, name
			return cr, nil
		}
	}
	return cr, nil
}

// value resolves a config value (see configvalue.go); with resolve false it
// only checks that it could be resolved.
func (c *Catalog) value(v, what string, getenv func(string) string, cached, resolve bool) (string, error) {
	if !resolve {
		if parseConfigValue(v).configured(getenv) {
			return "(configured)", nil
		}
		_, err := (&configResolver{getenv: getenv}).resolve(v, what, false)
		return "", err
	}
	r := c.res
	if getenv != nil && len(v) > 0 && v[0] != '!' {
		r = &configResolver{getenv: getenv, run: c.res.run}
	}
	return r.resolve(v, what, cached)
}

// headers merges provider and model headers from models.json, resolving
// environment-variable and command values; a value that cannot be
// resolved is an error, as in pi.
func (c *Catalog) headers(m core.Model, pc *providerConfig, key string) (map[string]string, error) {
	var out map[string]string
	add := func(src map[string]string) error {
		for k, v := range src {
			rv, err := c.res.resolve(v, fmt.Sprintf("header %s of provider %s", k, m.Provider), false)
			if err != nil {
				return err
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
	if oauth.Supports(providerName) {
		where = "log in with `cairn login " + providerName + "` (or pi's /login), or " + where
	}
	if envs := providerKeyEnv[providerName]; len(envs) > 0 {
		return fmt.Errorf("no API key for provider %s: set %s, or %s, or pass --api-key", providerName, strings.Join(envs, " or "), where)
	}
	return fmt.Errorf("no API key for provider %s: set %s, or pass --api-key", providerName, where)
}

func (c *Catalog) noCredentialsError() error {
	where := c.configPathOrDefault()
	if c.PiConfigPath != "" {
		where += " and pi's " + c.PiConfigPath + " (with its auth.json)"
	}
	return fmt.Errorf("%w: cairn looked for %s in the environment and for providers in %s. "+
		"Set one of those variables, or add a local server to models.json (see README), or try `cairn --demo` for scripted answers",
		ErrNoCredentials, strings.Join(c.KeyEnvs(), ", "), where)
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
	if ms := c.list(); len(ms) > 0 {
		return ms[0], true
	}
	return core.Model{}, false
}

func (c *Catalog) configPathOrDefault() string {
	if c.ConfigPath != "" {
		return c.ConfigPath
	}
	return "~/.cairn/models.json"
}

// KeyVars lists every environment variable cairn may read a credential
// from, sorted: the built-in providers' key variables and every variable
// a models.json apiKey or header value names ($NAME, ${NAME}, as pi reads
// them). The commands cairn runs start without them unless the person's
// settings pass them.
func (c *Catalog) KeyVars() []string {
	seen := map[string]bool{}
	for _, names := range providerKeyEnv {
		for _, n := range names {
			seen[n] = true
		}
	}
	addValue := func(v string) {
		for _, n := range parseConfigValue(v).envNames() {
			seen[n] = true
		}
	}
	for _, pc := range c.providerConfigs() {
		addValue(pc.APIKey)
		for _, v := range pc.Headers {
			addValue(v)
		}
	}
	for _, m := range c.list() {
		for _, v := range m.Headers {
			addValue(v)
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
