package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// modelsFile is models.json in pi's schema.
type modelsFile struct {
	Providers map[string]*providerConfig `json:"providers"`
}

// providerConfig is one provider entry of models.json.
type providerConfig struct {
	BaseURL        string                    `json:"baseUrl"`
	API            string                    `json:"api"`
	APIKey         string                    `json:"apiKey"`
	Headers        map[string]string         `json:"headers"`
	AuthHeader     bool                      `json:"authHeader"`
	Compat         *core.Compat              `json:"compat"`
	Models         []modelEntry              `json:"models"`
	ModelOverrides map[string]modelOverrides `json:"modelOverrides"`
	// Timeouts raise (or lower) the time limits of requests to this
	// provider: a slow local server or reasoning model may need more than
	// the defaults.
	Timeouts *timeoutsConfig `json:"timeouts"`

	// runtimeKey is the --api-key for this provider; not from the file.
	runtimeKey string
	// source names the file the entry came from, for messages.
	source string
}

// modelEntry is one custom model: where it lives, and the fields an
// override may also set, which take pi's defaults when unset.
type modelEntry struct {
	ID      string `json:"id"`
	API     string `json:"api"`
	BaseURL string `json:"baseUrl"`
	modelOverrides
}

// modelOverrides are the fields of a model that models.json may set: on a
// built-in model through modelOverrides, on a custom one in its entry. Zero
// fields change nothing.
type modelOverrides struct {
	Name          string            `json:"name"`
	Reasoning     *bool             `json:"reasoning"`
	Input         []string          `json:"input"`
	Cost          *partialPrice     `json:"cost"`
	ContextWindow int               `json:"contextWindow"`
	MaxTokens     int               `json:"maxTokens"`
	Headers       map[string]string `json:"headers"`
	Compat        *core.Compat      `json:"compat"`
}

// timeoutsConfig is a provider's "timeouts" in models.json: Go durations
// ("90s", "10m"), or "off" for no limit. Unset fields keep the defaults.
type timeoutsConfig struct {
	Connect   string `json:"connect"`
	FirstByte string `json:"firstByte"`
	Idle      string `json:"idle"`
	Total     string `json:"total"`
}

// parse returns the limits the config sets, or an error naming the field
// that is not a duration.
func (t *timeoutsConfig) parse() (provider.Timeouts, error) {
	var out provider.Timeouts
	if t == nil {
		return out, nil
	}
	for _, f := range []struct {
		name string
		text string
		dst  *time.Duration
	}{{"connect", t.Connect, &out.Connect}, {"firstByte", t.FirstByte, &out.FirstByte}, {"idle", t.Idle, &out.Idle}, {"total", t.Total, &out.Total}} {
		switch f.text {
		case "":
		case "off":
			*f.dst = -1 // provider.Timeouts: negative means no limit
		default:
			d, err := time.ParseDuration(f.text)
			if err != nil || d <= 0 {
				return out, fmt.Errorf("timeouts.%s is %q; give a duration such as \"90s\" or \"10m\", or \"off\"", f.name, f.text)
			}
			*f.dst = d
		}
	}
	return out, nil
}

type partialPrice struct {
	Input      *float64 `json:"input"`
	Output     *float64 `json:"output"`
	CacheRead  *float64 `json:"cacheRead"`
	CacheWrite *float64 `json:"cacheWrite"`
}

func (p *partialPrice) applyTo(dst *core.Price) {
	if p == nil {
		return
	}
	set := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&dst.Input, p.Input)
	set(&dst.Output, p.Output)
	set(&dst.CacheRead, p.CacheRead)
	set(&dst.CacheWrite, p.CacheWrite)
}

// parseModelsFile decodes and checks models.json, naming the provider and
// model at fault in every error. Strict, any problem makes f nil; lenient,
// the providers at fault are dropped and the rest kept.
func parseModelsFile(data []byte, lenient bool) (f *modelsFile, errs []error) {
	f = &modelsFile{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(f); err != nil {
		return nil, []error{fmt.Errorf("not valid models.json: %w", err)}
	}
	names := make([]string, 0, len(f.Providers))
	for name := range f.Providers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := checkProvider(name, f.Providers[name]); err != nil {
			errs = append(errs, err)
			delete(f.Providers, name)
		}
	}
	if len(errs) > 0 && !lenient {
		return nil, errs[:1]
	}
	if lenient && len(errs) > 0 {
		errs = append(errs[:len(errs):len(errs)], errors.New("the other providers are used"))
	}
	return f, errs
}

// checkProvider checks one provider entry of models.json.
func checkProvider(name string, p *providerConfig) error {
	if p == nil {
		return fmt.Errorf("provider %q is null", name)
	}
	if len(p.Models) > 0 && p.BaseURL == "" && !isBuiltinProvider(name) {
		return fmt.Errorf("provider %q has models but no baseUrl", name)
	}
	if len(p.Models) == 0 && p.BaseURL == "" && p.Compat == nil && len(p.ModelOverrides) == 0 && p.APIKey == "" && len(p.Headers) == 0 && p.Timeouts == nil {
		return fmt.Errorf("provider %q sets nothing: give it models, baseUrl, apiKey, headers, compat, modelOverrides or timeouts", name)
	}
	if _, err := p.Timeouts.parse(); err != nil {
		return fmt.Errorf("provider %q: %w", name, err)
	}
	if p.API != "" && !slices.Contains(SupportedAPIs, p.API) {
		return fmt.Errorf("provider %q uses api %q; cairn speaks %s", name, p.API, strings.Join(SupportedAPIs, ", "))
	}
	for i, m := range p.Models {
		if m.ID == "" {
			return fmt.Errorf("provider %q: model %d has no id", name, i+1)
		}
		api := m.API
		if api == "" {
			api = p.API
		}
		if api == "" && !isBuiltinProvider(name) {
			return fmt.Errorf("provider %q: model %q has no api (set it on the model or the provider)", name, m.ID)
		}
		if api != "" && !slices.Contains(SupportedAPIs, api) {
			return fmt.Errorf("provider %q: model %q uses api %q; cairn speaks %s", name, m.ID, api, strings.Join(SupportedAPIs, ", "))
		}
	}
	return nil
}

func isBuiltinProvider(name string) bool {
	for _, m := range builtinModels() {
		if m.Provider == name {
			return true
		}
	}
	return false
}

// apply merges a validated models.json into the catalog: provider-level
// settings re-route built-in models, overrides change them, and custom
// models are added or replace built-ins with the same id.
func (c *Catalog) apply(f *modelsFile) {
	names := make([]string, 0, len(f.Providers))
	for name := range f.Providers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := f.Providers[name]
		c.providers[name] = p
		for i := range c.models {
			m := &c.models[i]
			if m.Provider != name {
				continue
			}
			if p.BaseURL != "" {
				m.BaseURL = p.BaseURL
			}
			if p.Compat != nil {
				m.Compat = p.Compat
			}
			if o, ok := p.ModelOverrides[m.ID]; ok {
				o.applyTo(m)
			}
		}
		for _, e := range p.Models {
			m := e.toModel(name, p)
			if i := slices.IndexFunc(c.models, func(x core.Model) bool { return x.Provider == name && x.ID == m.ID }); i >= 0 {
				c.models[i] = m
			} else {
				c.models = append(c.models, m)
			}
		}
	}
}

func (o modelOverrides) applyTo(m *core.Model) {
	if o.Name != "" {
		m.Name = o.Name
	}
	if o.Reasoning != nil {
		m.Reasoning = *o.Reasoning
	}
	if len(o.Input) > 0 {
		m.Input = o.Input
	}
	o.Cost.applyTo(&m.Cost)
	if o.ContextWindow > 0 {
		m.ContextWindow = o.ContextWindow
	}
	if o.MaxTokens > 0 {
		m.MaxTokens = o.MaxTokens
	}
	if o.Headers != nil {
		m.Headers = o.Headers
	}
	if o.Compat != nil {
		m.Compat = o.Compat
	}
}

// toModel fills pi's defaults for a custom model (name = id, no
// reasoning, text input, 128k context, 16k output, free, the provider's
// compat) and sets the entry's own fields over them.
func (e modelEntry) toModel(providerName string, p *providerConfig) core.Model {
	m := core.Model{
		ID: e.ID, Name: e.ID, API: e.API, Provider: providerName, BaseURL: e.BaseURL,
		Input: []string{"text"}, ContextWindow: 128000, MaxTokens: 16384, Compat: p.Compat,
	}
	if m.API == "" {
		m.API = p.API
	}
	if m.BaseURL == "" {
		m.BaseURL = p.BaseURL
	}
	if (m.API == "" || m.BaseURL == "") && isBuiltinProvider(providerName) {
		for _, b := range builtinModels() {
			if b.Provider == providerName {
				if m.API == "" {
					m.API = b.API
				}
				if m.BaseURL == "" {
					m.BaseURL = b.BaseURL
				}
				break
			}
		}
	}
	e.modelOverrides.applyTo(&m)
	return m
}
