package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/oauth/oauthtest"
	"github.com/cairn-dev/cairn/core/provider"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func load(t *testing.T, modelsJSON string, vars map[string]string) (*Catalog, error) {
	t.Helper()
	dir := t.TempDir()
	if modelsJSON != "" {
		if err := os.WriteFile(filepath.Join(dir, "models.json"), []byte(modelsJSON), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Load(Options{Dir: dir, Getenv: env(vars), RunCommand: func(cmd string) (string, error) {
		if cmd == "pass show ollama" {
			return "from-command", nil
		}
		return "", errors.New("command failed")
	}})
}

func TestBuiltinCatalogIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range builtinModels() {
		key := m.Provider + "/" + m.ID
		if seen[key] {
			t.Errorf("%s listed twice", key)
		}
		seen[key] = true
		if m.Name == "" || m.BaseURL == "" || m.ContextWindow <= 0 || m.MaxTokens <= 0 || len(m.Input) == 0 {
			t.Errorf("%s is incomplete: %+v", key, m)
		}
		switch m.API {
		case APIAnthropic, APIOpenAIChat, APIOpenAIResponses, APIGoogle, APICodex:
		default:
			t.Errorf("%s has api %q that cairn does not speak", key, m.API)
		}
		if m.Cost.Input < 0 || m.Cost.Output < 0 {
			t.Errorf("%s has a negative price", key)
		}
	}
	for _, d := range defaultOrder {
		if !seen[d.provider+"/"+d.model] {
			t.Errorf("default model %s/%s is not in the catalog", d.provider, d.model)
		}
	}
}

func TestNoCredentialsSaysWhereItLooked(t *testing.T) {
	c, err := load(t, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Default()
	if err == nil {
		t.Fatal("Default succeeded with no keys at all")
	}
	for _, want := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "models.json", "cairn --demo"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if len(c.Available()) != 0 {
		t.Errorf("models available without keys: %d", len(c.Available()))
	}
}

func TestDefaultFollowsProviderPreference(t *testing.T) {
	c, _ := load(t, "", map[string]string{"GEMINI_API_KEY": "g-key", "OPENAI_API_KEY": "o-key"})
	m, err := c.Default()
	if err != nil {
		t.Fatal(err)
	}
	if m.Provider != "openai" {
		t.Fatalf("default = %s/%s, want an openai model (preferred over google)", m.Provider, m.ID)
	}
	cr, err := c.Credentials(m)
	if err != nil || cr.APIKey != "o-key" || cr.Source != "OPENAI_API_KEY" {
		t.Fatalf("credentials = %+v, %v", cr, err)
	}
}

func TestFindByIDProviderSlashIDAndFragment(t *testing.T) {
	c, _ := load(t, "", map[string]string{"ANTHROPIC_API_KEY": "k"})
	m, err := c.Find("", "claude-haiku-4-5")
	if err != nil || m.ID != "claude-haiku-4-5" {
		t.Fatalf("exact id: %+v, %v", m, err)
	}
	m, err = c.Find("", "openrouter/anthropic/claude-sonnet-4.5")
	if err != nil || m.Provider != "openrouter" {
		t.Fatalf("provider/id: %+v, %v", m, err)
	}
	m, err = c.Find("", "sonnet")
	if err != nil || m.Provider != "anthropic" {
		t.Fatalf("fragment should prefer the provider with a key: %+v, %v", m, err)
	}
	if _, err := c.Find("", "no-such-model-anywhere"); err == nil || !strings.Contains(err.Error(), "--list-models") {
		t.Fatalf("unknown model error = %v", err)
	}
	if _, err := c.Find("nosuchprovider", "x"); err == nil || !strings.Contains(err.Error(), "known providers") {
		t.Fatalf("unknown provider error = %v", err)
	}
}

func TestModelsFileCustomProvider(t *testing.T) {
	c, err := load(t, `{
	  "providers": {
	    "ollama": {
	      "baseUrl": "http://localhost:11434/v1",
	      "api": "openai-completions",
	      "apiKey": "!pass show ollama",
	      "headers": {"X-Team": "${TEAM_ENV}", "X-Bare": "TEAM_ENV", "X-Literal": "plain"},
	      "models": [{"id": "qwen2.5-coder:14b", "contextWindow": 32768}]
	    }
	  }
	}`, map[string]string{"TEAM_ENV": "team-7"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("ollama", "qwen2.5-coder:14b")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "qwen2.5-coder:14b" || m.API != APIOpenAIChat || m.ContextWindow != 32768 || m.MaxTokens != 16384 || m.Reasoning || len(m.Input) != 1 {
		t.Fatalf("defaults not applied: %+v", m)
	}
	cr, err := c.Credentials(m)
	if err != nil {
		t.Fatal(err)
	}
	// As in pi 0.87, a bare name is a literal; "$NAME" reads the variable.
	if cr.APIKey != "from-command" || cr.Headers["X-Team"] != "team-7" || cr.Headers["X-Bare"] != "TEAM_ENV" || cr.Headers["X-Literal"] != "plain" {
		t.Fatalf("credentials = %+v", cr)
	}
	if _, err := c.Open(m, provider.Options{}); err != nil {
		t.Fatal(err)
	}
}

func TestModelsFileOverridesAndReroutes(t *testing.T) {
	c, err := load(t, `{
	  "providers": {
	    "anthropic": {
	      "baseUrl": "http://proxy.local:8080",
	      "modelOverrides": {"claude-haiku-4-5": {"name": "Haiku via proxy", "cost": {"input": 0}}}
	    }
	  }
	}`, map[string]string{"ANTHROPIC_API_KEY": "k"})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := c.Find("anthropic", "claude-haiku-4-5")
	if m.BaseURL != "http://proxy.local:8080" || m.Name != "Haiku via proxy" || m.Cost.Input != 0 || m.Cost.Output == 0 {
		t.Fatalf("override = %+v", m)
	}
	var builtin bool
	for _, b := range builtinModels() {
		if b.ID == "claude-haiku-4-5" && b.Name != "Haiku via proxy" && b.BaseURL == "https://api.anthropic.com" {
			builtin = true
		}
	}
	if !builtin {
		t.Fatal("applying models.json changed the built-in table")
	}
}

func TestBrokenModelsFileKeepsBuiltins(t *testing.T) {
	for name, body := range map[string]string{
		"syntax":      `{"providers": {`,
		"no baseUrl":  `{"providers": {"x": {"api": "openai-completions", "models": [{"id": "m"}]}}}`,
		"no api":      `{"providers": {"x": {"baseUrl": "http://h", "models": [{"id": "m"}]}}}`,
		"unknown api": `{"providers": {"x": {"baseUrl": "http://h", "api": "bedrock-converse-stream", "models": [{"id": "m"}]}}}`,
		"no id":       `{"providers": {"x": {"baseUrl": "http://h", "api": "openai-completions", "models": [{}]}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, err := load(t, body, nil)
			if err == nil {
				t.Fatal("a broken models.json was accepted")
			}
			if !strings.Contains(err.Error(), "models.json") || !strings.Contains(err.Error(), "built-in") {
				t.Fatalf("error %q should name the file and say built-ins are used", err)
			}
			if len(c.Models()) != len(builtinModels())+1 {
				t.Fatalf("catalog has %d models, want the built-ins", len(c.Models()))
			}
		})
	}
}

func TestLocalServerNeedsNoKeyButHostedDoes(t *testing.T) {
	c, _ := load(t, "", nil)
	local := c.AdHoc("", "llama", "http://127.0.0.1:8080/v1")
	if _, err := c.Credentials(local); err != nil {
		t.Fatalf("local server without key: %v", err)
	}
	hosted, _ := c.Find("openai", "gpt-4o")
	_, err := c.Credentials(hosted)
	if err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Fatalf("hosted without key error = %v", err)
	}
	c.SetAPIKey("openai", "runtime")
	cr, err := c.Credentials(hosted)
	if err != nil || cr.APIKey != "runtime" || cr.Source != "--api-key" {
		t.Fatalf("runtime key = %+v, %v", cr, err)
	}
}

func TestOpenUnknownAPIAndFauxWithoutScript(t *testing.T) {
	c, _ := load(t, "", nil)
	m := c.AdHoc("", "x", "http://h")
	m.API = "bedrock-converse-stream"
	if _, err := c.Open(m, provider.Options{}); err == nil || !strings.Contains(err.Error(), "does not speak") {
		t.Fatalf("unknown api error = %v", err)
	}
	f, err := c.Find("faux", "faux-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Open(f, provider.Options{}); err == nil || !strings.Contains(err.Error(), "CAIRN_FAUX_SCRIPT") {
		t.Fatalf("faux without script error = %v", err)
	}
}

func TestModelsFileCustomModelSetsEveryField(t *testing.T) {
	c, err := load(t, `{"providers": {"lab": {
	  "baseUrl": "http://lab:8000/v1", "api": "openai-completions",
	  "compat": {"supportsStore": false},
	  "models": [{
	    "id": "m1", "name": "Lab One", "api": "openai-responses", "baseUrl": "http://lab:9000/v1",
	    "reasoning": true, "input": ["text", "image"], "cost": {"input": 2, "cacheRead": 0.5},
	    "contextWindow": 64000, "maxTokens": 8000, "headers": {"X-Lab": "1"},
	    "compat": {"supportsDeveloperRole": false}
	  }]
	}}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("lab", "m1")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Lab One" || m.API != APIOpenAIResponses || m.BaseURL != "http://lab:9000/v1" || !m.Reasoning ||
		!m.SupportsImages() || m.Cost.Input != 2 || m.Cost.Output != 0 || m.Cost.CacheRead != 0.5 ||
		m.ContextWindow != 64000 || m.MaxTokens != 8000 || m.Headers["X-Lab"] != "1" ||
		m.Compat == nil || m.Compat.SupportsDeveloperRole == nil || m.Compat.SupportsStore != nil {
		t.Fatalf("custom model = %+v", m)
	}
}

// TestPiHomeIsASecondSource: pi's models.json adds providers, cairn's wins
// where both name one, auth.json keys come before models.json's, an
// expired OAuth token whose refresh is refused is an error saying why and
// what to do, and an unset "$VAR" is
// no key at all.
func TestPiHomeIsASecondSource(t *testing.T) {
	own, pi := t.TempDir(), t.TempDir()
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(pi, "models.json", `{"providers": {
	  "crof": {"baseUrl": "http://127.0.0.1:1/v1", "api": "openai-completions", "apiKey": "$CROFAI_API_KEY", "models": [{"id": "m1"}]},
	  "both": {"baseUrl": "http://pi/v1", "api": "openai-completions", "apiKey": "pi-key", "models": [{"id": "pi-model"}]},
	  "bedrock": {"baseUrl": "http://b/v1", "api": "bedrock-converse-stream", "models": [{"id": "x"}]},
	  "stored": {"baseUrl": "http://s/v1", "api": "openai-completions", "apiKey": "from-models", "models": [{"id": "s1"}]}
	}}`)
	write(own, "models.json", `{"providers": {"both": {"baseUrl": "http://own/v1", "api": "openai-completions", "models": [{"id": "own-model"}]}}}`)
	write(pi, "auth.json", `{"stored": {"type": "api_key", "key": "$K", "env": {"K": "from-auth"}},
	  "anthropic": {"type": "oauth", "access": "old", "refresh": "r", "expires": 1000}}`)
	vars := map[string]string{}
	refused := oauthtest.New(t)
	refused.Status = 400
	c, err := Load(Options{Dir: own, PiDir: pi, Getenv: env(vars), OAuth: &oauth.Client{Origin: refused.URL}})
	if err == nil || !strings.Contains(err.Error(), "bedrock-converse-stream") {
		t.Fatalf("pi's provider in an api cairn does not speak should be reported, err = %v", err)
	}
	m, err := c.Find("crof", "m1")
	if err != nil {
		t.Fatal(err)
	}
	if c.HasKey(m) {
		t.Fatal("an unset $CROFAI_API_KEY counted as a key")
	}
	if _, err := c.Credentials(m); err == nil || !strings.Contains(err.Error(), "CROFAI_API_KEY") {
		t.Fatalf("credentials with the variable unset: %v", err)
	}
	vars["CROFAI_API_KEY"] = "sk-crof"
	if cr, err := c.Credentials(m); err != nil || cr.APIKey != "sk-crof" {
		t.Fatalf("credentials = %+v, %v", cr, err)
	}
	if _, err := c.Find("both", "pi-model"); err == nil {
		t.Fatal("pi's entry for a provider cairn's models.json names was used")
	}
	if _, err := c.Find("both", "own-model"); err != nil {
		t.Fatal(err)
	}
	s, _ := c.Find("stored", "s1")
	if cr, err := c.Credentials(s); err != nil || cr.APIKey != "from-auth" {
		t.Fatalf("auth.json should win over models.json: %+v, %v", cr, err)
	}
	a, _ := c.Find("anthropic", "claude-opus-4-6")
	if _, err := c.Credentials(a); err == nil || !strings.Contains(err.Error(), "expired") || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("an expired OAuth token whose refresh is refused: %v", err)
	}
}

// TestFindProviderAndPrefixedModel: pi accepts --provider P --model P/ID.
func TestFindProviderAndPrefixedModel(t *testing.T) {
	c, err := load(t, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("anthropic", "anthropic/claude-opus-4-6")
	if err != nil || m.Provider != "anthropic" || m.ID != "claude-opus-4-6" {
		t.Fatalf("Find = %+v, %v", m, err)
	}
}
