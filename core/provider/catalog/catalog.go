// Package catalog knows which models exist and how to reach them: the
// built-in models of each provider, custom providers and models from
// models.json (pi's schema, so a pi user's file works as is), API keys from
// the environment or that file, and which Provider implementation serves
// each wire format.
package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/anthropic"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/provider/google"
	"github.com/cairn-dev/cairn/core/provider/openai"
	"github.com/cairn-dev/cairn/core/provider/openairesp"
	"github.com/cairn-dev/cairn/core/regfile"
)

// The wire formats cairn speaks, by pi's api names.
const (
	APIAnthropic       = "anthropic-messages"
	APIOpenAIChat      = "openai-completions"
	APIOpenAIResponses = "openai-responses"
	APIGoogle          = "google-generative-ai"
	// APICodex is ChatGPT's Codex backend (the openai-codex provider).
	APICodex = openairesp.APICodex
)

// SupportedAPIs lists every api name a model may use.
var SupportedAPIs = []string{APIAnthropic, APIOpenAIChat, APIOpenAIResponses, APIGoogle, APICodex, faux.API}

// Catalog is the set of models cairn can use, with their credentials.
type Catalog struct {
	models    []core.Model
	providers map[string]*providerConfig
	env       func(string) string
	res       *configResolver
	// auth are the credentials of cairn's auth.json (from `cairn login`)
	// and pi's, by provider; authPath says which file each came from.
	auth     map[string]pihome.Credential
	authPath map[string]string
	authMu   sync.Mutex // guards auth, which a refresh updates
	piDir    string
	oauth    *oauth.Client // nil: OAuth tokens are not refreshed
	now      func() time.Time
	// Faux answers requests for the faux provider; nil means faux models
	// cannot be opened.
	Faux provider.Provider
	// ConfigPath is the models.json that was read (it may not exist).
	ConfigPath string
	// PiConfigPath is pi's models.json when it was read, else "".
	PiConfigPath string

	// live guards models and providers once extensions add and remove
	// providers while the session runs (runtime.go): both are replaced
	// whole, never changed in place, so a reader keeps what it read.
	live live
}

// Options configure Load.
type Options struct {
	// Dir is cairn's directory (~/.cairn or $CAIRN_DIR); models.json is read
	// from it.
	Dir string
	// Getenv reads environment variables; nil means os.Getenv.
	Getenv func(string) string
	// RunCommand runs a "!command" key or header value and returns its
	// output; nil means running it with sh -c.
	RunCommand func(command string) (string, error)
	// PiDir is pi's agent directory (~/.pi/agent); its models.json and
	// auth.json are read as a second source beside Dir's. "" reads none.
	PiDir string
	// Now is the clock that decides whether an OAuth token of auth.json has
	// expired; nil means time.Now.
	Now func() time.Time
	// OAuth refreshes expired OAuth tokens of the auth.json files; nil means
	// oauth.FromEnv(Getenv): the real services, or a local fake in tests.
	OAuth *oauth.Client
}

// Load builds the catalog from the built-in models, pi's models.json and
// auth.json (when PiDir is set) and cairn's models.json. Where both
// models.json files name the same provider, cairn's entry is used and pi's
// ignored. When a file is malformed the catalog still holds everything
// else and the returned error says what is wrong, so the caller can warn
// and carry on, as pi does.
func Load(opts Options) (*Catalog, error) {
	c := &Catalog{
		models:    slices.Clone(builtinModels()),
		providers: map[string]*providerConfig{},
		env:       opts.Getenv,
		now:       opts.Now,
	}
	if c.env == nil {
		c.env = os.Getenv
	}
	if c.now == nil {
		c.now = time.Now
	}
	run := opts.RunCommand
	if run == nil {
		run = runShell
	}
	c.res = &configResolver{getenv: c.env, run: run}
	c.oauth = opts.OAuth
	c.models = append(c.models, faux.Model)
	var errs []error
	var own *modelsFile
	if opts.Dir != "" {
		c.ConfigPath = filepath.Join(opts.Dir, "models.json")
		f, err := readModelsFile(c.ConfigPath, false)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w; using built-in models only", err))
		}
		own = f
	}
	if opts.PiDir != "" {
		path := filepath.Join(opts.PiDir, "models.json")
		f, err := readModelsFile(path, true)
		if err != nil {
			errs = append(errs, err)
		}
		if f != nil {
			c.PiConfigPath = path
			for name := range f.Providers {
				if own != nil && own.Providers[name] != nil {
					delete(f.Providers, name)
				}
			}
			c.apply(f)
		}
		c.piDir = opts.PiDir
		auth, err := pihome.ReadAuth(opts.PiDir)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w; pi's stored credentials are not used", err))
		}
		c.addAuth(auth, pihome.AuthFile(opts.PiDir))
	}
	if opts.Dir != "" {
		// cairn's own logins, in pi's format; they win over pi's.
		auth, err := pihome.ReadAuth(opts.Dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w; cairn's stored logins are not used", err))
		}
		c.addAuth(auth, pihome.AuthFile(opts.Dir))
	}
	if c.oauth == nil && opts.OAuth == nil {
		cl, err := oauth.FromEnv(c.env)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w; OAuth tokens are not refreshed", err))
		}
		c.oauth = cl
	}
	if own != nil {
		c.apply(own)
	}
	return c, errors.Join(errs...)
}

// readModelsFile reads and checks one models.json; a missing file is (nil,
// nil). lenient (for pi's file, which may name wire formats cairn does not
// speak) drops each provider that fails its checks and reports it, rather
// than the whole file.
func readModelsFile(path string, lenient bool) (*modelsFile, error) {
	data, err := regfile.Read(path, regfile.MaxConfig)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	f, errs := parseModelsFile(data, lenient)
	for i, e := range errs {
		errs[i] = fmt.Errorf("%s: %w", path, e)
	}
	if f != nil {
		for _, p := range f.Providers {
			p.source = path
		}
	}
	return f, errors.Join(errs...)
}

// Models returns every model in catalog order: built-ins by provider, then
// custom ones.
func (c *Catalog) Models() []core.Model { return slices.Clone(c.list()) }

// Available returns the models whose provider has credentials (or needs
// none), in catalog order. The faux model is left out: it is only used when
// asked for by name.
func (c *Catalog) Available() []core.Model {
	var out []core.Model
	copilotAllowed := c.copilotAllowed()
	for _, m := range c.list() {
		if m.Provider == faux.ProviderName {
			continue
		}
		if m.Provider == copilotProvider && copilotAllowed != nil && !copilotAllowed[m.ID] {
			continue
		}
		if c.HasKey(m) {
			out = append(out, m)
		}
	}
	return out
}

// Find resolves a model reference as the --model flag gives it: an exact id,
// "provider/id", or a fragment of an id or name ("sonnet"). providerName,
// when set, restricts the search to that provider. Among several fragment
// matches the first in catalog order whose provider has credentials wins.
func (c *Catalog) Find(providerName, ref string) (core.Model, error) {
	if ref == "" {
		return core.Model{}, errors.New("empty model name")
	}
	candidates := c.list()
	if providerName != "" {
		candidates = c.byProvider(providerName)
		if len(candidates) == 0 {
			return core.Model{}, fmt.Errorf("unknown provider %q: known providers are %s", providerName, strings.Join(c.ProviderNames(), ", "))
		}
		// As pi does, --provider P --model P/ID means ID.
		if len(ref) > len(providerName)+1 && strings.EqualFold(ref[:len(providerName)+1], providerName+"/") {
			ref = ref[len(providerName)+1:]
		}
	}
	for _, m := range candidates {
		if m.ID == ref {
			return m, nil
		}
	}
	if p, id, ok := strings.Cut(ref, "/"); ok && providerName == "" {
		for _, m := range c.byProvider(p) {
			if m.ID == id {
				return m, nil
			}
		}
	}
	lower := strings.ToLower(ref)
	var matches []core.Model
	for _, m := range candidates {
		if strings.Contains(strings.ToLower(m.ID), lower) || strings.Contains(strings.ToLower(m.Name), lower) {
			matches = append(matches, m)
		}
	}
	for _, m := range matches {
		if c.HasKey(m) {
			return m, nil
		}
	}
	if len(matches) > 0 {
		return matches[0], nil
	}
	where := "any provider"
	if providerName != "" {
		where = "provider " + providerName
	}
	return core.Model{}, fmt.Errorf("no model matching %q in %s; run `cairn --list-models` to see them", ref, where)
}

// Default picks the model to use when none was asked for: the first
// available model of the first provider (in preference order) with
// credentials.
func (c *Catalog) Default() (core.Model, error) {
	for _, p := range defaultOrder {
		for _, m := range c.byProvider(p.provider) {
			if m.ID != p.model {
				continue
			}
			if c.HasKey(m) {
				return m, nil
			}
		}
	}
	if avail := c.Available(); len(avail) > 0 {
		return avail[0], nil
	}
	return core.Model{}, c.noCredentialsError()
}

// ProviderNames lists every provider with at least one model.
func (c *Catalog) ProviderNames() []string {
	var names []string
	for _, m := range c.list() {
		if !slices.Contains(names, m.Provider) {
			names = append(names, m.Provider)
		}
	}
	return names
}

func (c *Catalog) byProvider(name string) []core.Model {
	var out []core.Model
	for _, m := range c.list() {
		if m.Provider == name {
			out = append(out, m)
		}
	}
	return out
}

// AdHoc returns a model for a provider and id the catalog does not list,
// served at baseURL (from --base-url). The wire format is the provider's own
// when the provider is known, else openai-completions, which nearly every
// local server speaks.
func (c *Catalog) AdHoc(providerName, id, baseURL string) core.Model {
	api := APIOpenAIChat
	if ms := c.byProvider(providerName); len(ms) > 0 {
		api = ms[0].API
	}
	if providerName == "" {
		providerName = "custom"
	}
	return core.Model{
		ID: id, Name: id, API: api, Provider: providerName, BaseURL: baseURL,
		Input: []string{"text"}, ContextWindow: 128000, MaxTokens: 16384,
	}
}

// Open returns the Provider that speaks m's wire format. The time limits
// models.json sets for m's provider replace those of opts.
func (c *Catalog) Open(m core.Model, opts provider.Options) (provider.Provider, error) {
	if p := c.extStream(m.Provider); p != nil {
		return p, nil
	}
	if pc := c.providerConfig(m.Provider); pc != nil {
		// Validated when the file was read, so no error here.
		set, _ := pc.Timeouts.parse()
		if set.Connect != 0 {
			opts.Timeouts.Connect = set.Connect
		}
		if set.FirstByte != 0 {
			opts.Timeouts.FirstByte = set.FirstByte
		}
		if set.Idle != 0 {
			opts.Timeouts.Idle = set.Idle
		}
		if set.Total != 0 {
			opts.Timeouts.Total = set.Total
		}
	}
	p, err := c.forAPI(m.API, opts)
	if err != nil && !slices.Contains(SupportedAPIs, m.API) {
		return nil, fmt.Errorf("model %s/%s %w", m.Provider, m.ID, err)
	}
	if err != nil {
		return nil, err
	}
	if m.Provider == copilotProvider {
		a, _ := c.authEntry(copilotProvider)
		return newCopilot(p, m.API, a), nil
	}
	return p, nil
}

// ForAPI returns cairn's own provider of the wire format api, whoever the
// model's provider is: for an extension's provider that hands its stream
// to one of them, as pi-ai's anthropicMessagesApi() and the like do.
func (c *Catalog) ForAPI(api string) (provider.Provider, error) {
	return c.forAPI(api, provider.Options{})
}

func (c *Catalog) forAPI(api string, opts provider.Options) (provider.Provider, error) {
	var p provider.Provider
	switch api {
	case APIAnthropic:
		p = anthropic.New(opts)
	case APIOpenAIChat:
		p = openai.New(opts)
	case APIOpenAIResponses:
		p = openairesp.New(opts)
	case APIGoogle:
		p = google.New(opts)
	case APICodex:
		p = openairesp.NewCodex(opts)
	case faux.API:
		if c.Faux == nil {
			return nil, errors.New("the faux provider needs a script: set CAIRN_FAUX_SCRIPT to a script file, or run `cairn --demo`")
		}
		return c.Faux, nil
	default:
		return nil, fmt.Errorf("uses api %q, which cairn does not speak; supported: %s", api, strings.Join(SupportedAPIs, ", "))
	}
	return p, nil
}
