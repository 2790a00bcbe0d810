package catalog

import "github.com/cairn-dev/cairn/core"

// builtin.json is the catalog of current models cairn knows without
// configuration: a curated subset of the models pi ships, grouped by provider
// (anthropic, openai, google, openrouter, groq, xai, mistral) with the
// provider's default model first. Each entry is a core.Model in its JSON
// shape, one a line; a person's models.json, in pi's provider schema, is
// read by parseModelsFile instead.
//
// Checked against pi's generated catalog (badlogic/pi-mono,
// packages/ai/src/models.generated.ts at commit
// 216f9a1fae35a6a1d2876005f428552d76ec8bee) on 2026-11-21. Ids, names,
// reasoning flags, inputs, context windows, output limits and prices are
// copied as pi lists them, including OpenRouter's unrounded float prices.
// Dated snapshot ids and deprecated models are left out.
//
// Prices are in USD per million tokens.
//
// builtin.json is the file to edit; builtin_table.go is written from it
// (go test ./core/provider/catalog/ -run TestBuiltinTable -update) as a Go
// literal the linker lays out, so a start decodes nothing: decoding the
// JSON cost every start about 0.7 ms. TestBuiltinTable fails while the two
// differ.

// builtinModels returns the built-in models in catalog order. The slice is
// shared: callers copy it before changing it.
func builtinModels() []core.Model {
	return builtinTable
}
