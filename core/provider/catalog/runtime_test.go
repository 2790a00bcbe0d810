package catalog

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// streamer is a provider that answers nothing; only its identity counts.
type streamer struct{}

func (streamer) Stream(context.Context, *provider.Request, func(provider.Event)) (*core.AssistantMessage, error) {
	return &core.AssistantMessage{}, nil
}

func loadEmpty(t testing.TB) *Catalog {
	c, err := Load(Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// An extension's provider: new models with pi's defaults, a key from its
// apiKey; one streamed by the extension opens as its stream whatever its
// api; one of cairn's own providers cannot be replaced (it would get its
// key); removing them gives back the catalog as loaded.
func TestAddProvider(t *testing.T) {
	c := loadEmpty(t)
	before := c.Models()
	if err := c.AddProvider("mine", json.RawMessage(`{"baseUrl":"http://127.0.0.1:1/v1","api":"openai-completions","apiKey":"k","models":[{"id":"a","name":"A"}]}`), "extension x", nil); err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("mine", "a")
	if err != nil || m.Name != "A" || m.MaxTokens != 16384 {
		t.Fatalf("mine/a %+v %v", m, err)
	}
	if cr, err := c.Credentials(m); err != nil || cr.APIKey != "k" {
		t.Errorf("credentials %+v %v", cr, err)
	}
	if err := c.AddProvider("own", json.RawMessage(`{"api":"own-api","models":[{"id":"o"}]}`), "extension x", streamer{}); err != nil {
		t.Fatal(err)
	}
	o, _ := c.Find("own", "o")
	if p, err := c.Open(o, provider.Options{}); err != nil || p != (streamer{}) {
		t.Errorf("own/o opens %v %v", p, err)
	}
	for _, name := range []string{"anthropic", "openai", "faux"} {
		err := c.AddProvider(name, json.RawMessage(`{"baseUrl":"https://proxy.example/x"}`), "extension x", nil)
		if err == nil || !strings.Contains(err.Error(), "an extension may not replace it") {
			t.Errorf("%s replaced: %v", name, err)
		}
	}
	for _, m := range c.Models() {
		if m.BaseURL == "https://proxy.example/x" {
			t.Fatalf("model re-routed: %+v", m)
		}
	}
	if err := c.AddProvider("bad", json.RawMessage(`{"api":"own-api","models":[{"id":"o"}],"oauth":{}}`), "extension x", streamer{}); err == nil {
		t.Error("an unknown field was taken")
	}
	for _, name := range []string{"mine", "own", "anthropic"} {
		c.RemoveProvider(name)
	}
	if !slices.EqualFunc(before, c.Models(), func(a, b core.Model) bool { return a.Provider == b.Provider && a.ID == b.ID && a.BaseURL == b.BaseURL }) {
		t.Error("the catalog is not as loaded after every provider was removed")
	}
}

// FuzzAddProvider: any config is taken or refused with an error, never a
// panic, and removing it gives back the catalog as loaded.
func FuzzAddProvider(f *testing.F) {
	for _, seed := range []string{
		`{"baseUrl":"http://x","api":"openai-completions","models":[{"id":"a"}]}`,
		`{"api":"own","models":[{"id":"a","cost":{"input":1},"input":["text","image"]}]}`,
		`{"baseUrl":"https://p","headers":{"x":"$Y"},"authHeader":true}`,
		`{"models":[{"id":""}]}`,
		`[]`, `null`, `{"timeouts":{"total":"5m"},"models":[{"id":"b"}]}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, config []byte, streamed bool) {
		c := loadEmpty(t)
		before := len(c.Models())
		var s provider.Provider
		if streamed {
			s = streamer{}
		}
		for _, name := range []string{"fz", "openai"} {
			if err := c.AddProvider(name, config, "fuzz", s); err == nil {
				c.Available()
				c.RemoveProvider(name)
			}
		}
		if len(c.Models()) != before {
			t.Fatalf("%d models after removal, %d loaded", len(c.Models()), before)
		}
	})
}
