package catalog

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/cairn-dev/cairn/core"
)

// builtinJSON is the catalog of current models cairn knows without
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
//go:embed builtin.json
var builtinJSON []byte

var (
	builtinOnce sync.Once
	builtinList []core.Model
)

// builtinModels returns the built-in models in catalog order, decoding
// them once, on first use (BenchmarkBuiltinDecode measures what that
// costs). The slice is shared: callers copy it before changing it.
func builtinModels() []core.Model {
	builtinOnce.Do(func() {
		var err error
		builtinList, err = decodeBuiltin(builtinJSON)
		if err != nil {
			// The file is compiled in and TestBuiltinModelsDecode reads it,
			// so this is a broken build, not a person's mistake.
			panic(err)
		}
	})
	return builtinList
}

// decodeBuiltin decodes the embedded catalog. Unknown fields are refused so
// a misspelt key fails the tests instead of leaving a field zero.
func decodeBuiltin(data []byte) ([]core.Model, error) {
	var models []core.Model
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&models); err != nil {
		return nil, fmt.Errorf("decode builtin.json: %w", err)
	}
	return models, nil
}
