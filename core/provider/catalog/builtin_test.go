package catalog

import (
	"os"
	"reflect"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestBuiltinModelsDecode(t *testing.T) {
	models := readBuiltinJSON(t)
	if len(models) != 84 {
		t.Fatalf("%d built-in models, want 84", len(models))
	}
	perProvider := map[string]int{}
	for _, m := range models {
		perProvider[m.Provider]++
	}
	want := map[string]int{"anthropic": 7, "openai": 12, "google": 7, "openrouter": 12, "groq": 7, "xai": 7, "mistral": 8,
		"openai-codex": 8, "github-copilot": 8, "vercel-ai-gateway": 8}
	if !reflect.DeepEqual(perProvider, want) {
		t.Errorf("models per provider = %v, want %v", perProvider, want)
	}
	for i, m := range map[int]core.Model{
		0: {
			ID: "claude-opus-4-6", Name: "Claude Opus 4.6", API: APIAnthropic, Provider: "anthropic",
			BaseURL: "https://api.anthropic.com", Reasoning: true, Input: []string{"text", "image"},
			Cost:          core.Price{Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
			ContextWindow: 200000, MaxTokens: 128000,
		},
		29: {
			// OpenRouter's unrounded prices survive the trip through JSON.
			ID: "anthropic/claude-haiku-4.5", Name: "Anthropic: Claude Haiku 4.5", API: APIOpenAIChat, Provider: "openrouter",
			BaseURL: "https://openrouter.ai/api/v1", Reasoning: true, Input: []string{"text", "image"},
			Cost:          core.Price{Input: 1, Output: 5, CacheRead: 0.09999999999999999, CacheWrite: 1.25},
			ContextWindow: 200000, MaxTokens: 64000,
		},
		59: {
			ID: "ministral-8b-latest", Name: "Ministral 8B", API: APIOpenAIChat, Provider: "mistral",
			BaseURL: "https://api.mistral.ai/v1", Input: []string{"text"},
			Cost:          core.Price{Input: 0.1, Output: 0.1},
			ContextWindow: 128000, MaxTokens: 128000,
		},
	} {
		if !reflect.DeepEqual(models[i], m) {
			t.Errorf("model %d = %+v, want %+v", i, models[i], m)
		}
	}
}

func TestBuiltinModelsRefusesUnknownFields(t *testing.T) {
	if _, err := decodeBuiltin([]byte(`[{"id":"m","contextWindw":1}]`)); err == nil {
		t.Fatal("a misspelt field was accepted")
	}
}

// BenchmarkBuiltinDecode measures what decoding builtin.json costs: what
// every start paid before the table became builtin_table.go.
func BenchmarkBuiltinDecode(b *testing.B) {
	b.ReportAllocs()
	data, err := os.ReadFile("builtin.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodeBuiltin(data); err != nil {
			b.Fatal(err)
		}
	}
}
