package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// live is what changes while a session runs: the providers extensions
// register (pi's registerProvider), laid over the catalog as loaded.
type live struct {
	mu sync.RWMutex
	// loaded and loadedProviders are the catalog before any extension's
	// provider; nil until the first one.
	loaded          []core.Model
	loadedProviders map[string]*providerConfig
	// added are the extensions' providers in the order they came.
	added []addedProvider
	// streams are the providers whose models an extension answers.
	streams map[string]provider.Provider
}

// addedProvider is one provider an extension registered.
type addedProvider struct {
	name   string
	config *providerConfig
	stream provider.Provider
}

// list is the catalog's models now.
func (c *Catalog) list() []core.Model {
	c.live.mu.RLock()
	defer c.live.mu.RUnlock()
	return c.models
}

// providerConfig is provider name's configuration now, or nil.
func (c *Catalog) providerConfig(name string) *providerConfig {
	c.live.mu.RLock()
	defer c.live.mu.RUnlock()
	return c.providers[name]
}

// providerConfigs are every provider's configuration now.
func (c *Catalog) providerConfigs() map[string]*providerConfig {
	c.live.mu.RLock()
	defer c.live.mu.RUnlock()
	return c.providers
}

// extStream is the provider an extension answers provider name's models
// with, or nil.
func (c *Catalog) extStream(name string) provider.Provider {
	c.live.mu.RLock()
	defer c.live.mu.RUnlock()
	return c.live.streams[name]
}

// AddProvider adds provider name, or replaces the one of that name an
// extension added before, from config in models.json's provider shape
// (pi's ProviderConfig without its functions). A provider cairn has
// configured (built in, models.json) is refused: pi lets an
// extension re-route one, which would hand it that provider's key, and
// cairn keeps keys from extensions. When stream is nil the
// models' api must be one cairn speaks; otherwise stream answers them
// whatever their api. source names where it came from, in messages. It
// is safe while the catalog is in use: a model list read before stays as
// it was.
func (c *Catalog) AddProvider(name string, config json.RawMessage, source string, stream provider.Provider) error {
	pc := &providerConfig{}
	dec := json.NewDecoder(bytes.NewReader(config))
	dec.DisallowUnknownFields()
	if err := dec.Decode(pc); err != nil {
		return fmt.Errorf("provider %q from %s: %w", name, source, err)
	}
	if stream == nil {
		if err := checkProvider(name, pc); err != nil {
			return fmt.Errorf("%w (from %s)", err, source)
		}
	} else if err := checkStreamed(name, pc); err != nil {
		return fmt.Errorf("%w (from %s)", err, source)
	}
	pc.source = source
	c.live.mu.Lock()
	defer c.live.mu.Unlock()
	if c.live.loaded == nil {
		c.live.loaded, c.live.loadedProviders = c.models, c.providers
	}
	if c.configured(name) {
		return fmt.Errorf("provider %q is configured in cairn (built in or in models.json): an extension may not replace it, for it would then get the provider's key; re-route it in %s instead", name, c.configPathOrDefault())
	}
	a := addedProvider{name: name, config: pc, stream: stream}
	if i := slices.IndexFunc(c.live.added, func(x addedProvider) bool { return x.name == name }); i >= 0 {
		c.live.added[i] = a
	} else {
		c.live.added = append(c.live.added, a)
	}
	c.rebuild()
	return nil
}

// configured says whether provider name is one cairn had before any
// extension's: built in or in models.json. (A login of auth.json alone
// may well be for an extension's provider: pi's /login of its OAuth.)
// The caller holds live.mu.
func (c *Catalog) configured(name string) bool {
	return c.live.loadedProviders[name] != nil || slices.ContainsFunc(c.live.loaded, func(m core.Model) bool { return m.Provider == name })
}

// RemoveProvider takes back a provider an extension added; the built-in
// provider of that name, if any, is as it was loaded again.
func (c *Catalog) RemoveProvider(name string) {
	c.live.mu.Lock()
	defer c.live.mu.Unlock()
	c.live.added = slices.DeleteFunc(c.live.added, func(x addedProvider) bool { return x.name == name })
	if c.live.loaded != nil {
		c.rebuild()
	}
}

// rebuild lays the added providers over the catalog as loaded, into new
// values. The caller holds live.mu for writing.
func (c *Catalog) rebuild() {
	c.models = slices.Clone(c.live.loaded)
	c.providers = maps.Clone(c.live.loadedProviders)
	c.live.streams = map[string]provider.Provider{}
	for _, a := range c.live.added {
		// An extension's provider replaces a built-in one's models
		// where it lists any, as pi's registerProvider does.
		if len(a.config.Models) > 0 {
			c.models = slices.DeleteFunc(c.models, func(m core.Model) bool { return m.Provider == a.name })
		}
		c.apply(&modelsFile{Providers: map[string]*providerConfig{a.name: a.config}})
		if a.stream != nil {
			c.live.streams[a.name] = a.stream
		}
	}
}

// checkStreamed checks a provider an extension answers itself: its
// models need ids; their api is the extension's own name for its stream.
func checkStreamed(name string, p *providerConfig) error {
	if len(p.Models) == 0 {
		return fmt.Errorf("provider %q has a stream of its own but no models", name)
	}
	if _, err := p.Timeouts.parse(); err != nil {
		return fmt.Errorf("provider %q: %w", name, err)
	}
	for i, m := range p.Models {
		if m.ID == "" {
			return fmt.Errorf("provider %q: model %d has no id", name, i+1)
		}
	}
	return nil
}
