package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/provider/catalog"
)

// extensionProviderWait bounds how long the model's resolution waits for
// the extensions to start, when the model asked for is none cairn knows
// and may be one an extension registers.
const extensionProviderWait = 60 * time.Second

// resolveModel resolves the model of opts. When it names a provider or
// model the catalog does not know, the extensions are started first and
// asked again, as pi loads its extensions before it picks the model: a
// model of a provider an extension registers (pi's registerProvider) may
// be chosen with --model, --provider or the settings' default. The
// extensions so started are returned, to be the session's; nil when they
// were not needed.
func resolveModel(streams IOStreams, env environment, opts *Options, p project, unattended bool) (*setup, *extension.Manager, error) {
	cat, err := loadCatalog(streams, env)
	if err != nil {
		return nil, nil, err
	}
	s, err := resolveIn(cat, opts)
	var exts *extension.Manager
	if err != nil && !opts.NoExtensions && modelUnknown(cat, opts) {
		exts = startExtensions(env, opts, p.trusted, p.st, p.cwd, unattended, cat)
		ctx, cancel := context.WithTimeout(context.Background(), extensionProviderWait)
		exts.WaitStarted(ctx)
		cancel()
		s, err = resolveIn(cat, opts)
	}
	if err != nil && opts.sessionModel {
		fmt.Fprintf(streams.Err, "cairn: warning: the session's model %s/%s is not available; using the default\n", opts.Provider, opts.Model)
		opts.Provider, opts.Model, opts.sessionModel = "", "", false
		useDefaultModel(opts, p)
		s, err = resolveIn(cat, opts)
	}
	if err != nil {
		if exts != nil {
			exts.Close()
		}
		return nil, nil, err
	}
	return s, exts, nil
}

// useDefaultModel gives opts the settings' default model when it names
// none.
func useDefaultModel(opts *Options, p project) {
	if opts.Provider == "" && opts.Model == "" && p.eff.DefaultModel != "" {
		opts.Provider, opts.Model = p.eff.DefaultProvider, p.eff.DefaultModel
	}
}

// modelUnknown says whether the model opts asks for is none cat knows.
func modelUnknown(cat *catalog.Catalog, opts *Options) bool {
	ref := opts.Model
	if r, l, ok := strings.Cut(ref, ":"); ok && isThinkingLevel(l) {
		ref = r
	}
	if ref == "" {
		if opts.Provider == "" {
			return false
		}
		for _, name := range cat.ProviderNames() {
			if name == opts.Provider {
				return false
			}
		}
		return true
	}
	_, err := cat.Find(opts.Provider, ref)
	return err != nil
}
