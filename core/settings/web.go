package settings

import (
	"encoding/json"
	"fmt"
)

// WebSettings configure the web tools ("web" in the files).
type WebSettings struct {
	// Search is the search API web_search uses; only the person's own
	// settings (global and session) set it, never a project's, since it
	// names where an API key is sent.
	Search WebSearchSettings `json:"search"`
}

// WebSearchSettings name the search API web_search calls. With no
// provider, web_search is not offered.
type WebSearchSettings struct {
	// Provider is the API's format: "brave" (the Brave Search API).
	Provider string `json:"provider,omitempty"`
	// Endpoint replaces the provider's address (a proxy, or a test's).
	Endpoint string `json:"endpoint,omitempty"`
	// APIKeyEnv names the environment variable holding the API key;
	// empty means BRAVE_API_KEY.
	APIKeyEnv string `json:"apiKeyEnv,omitempty"`
}

// normalize reports a provider cairn does not know and drops it.
func (w *WebSettings) normalize() []error {
	switch w.Search.Provider {
	case "", "brave":
		return nil
	}
	err := &KeyError{Key: "web.search.provider", Msg: fmt.Sprintf("%q is not known: use \"brave\"", w.Search.Provider)}
	w.Search = WebSearchSettings{}
	return []error{err}
}

// WebSearch returns the search API settings from the person's own files
// (global, then this session's changes); a project's "web.search" is
// ignored, as it would choose where the person's API key goes.
func (s *Store) WebSearch() WebSearchSettings {
	s.mu.Lock()
	defer s.mu.Unlock()
	var w WebSettings
	if v, ok := merge(s.layers[ScopeGlobal], s.layers[ScopeSession]).get("web"); ok && v != nil {
		// A bad value was reported when its layer was loaded or set.
		_ = json.Unmarshal(compact(wholeNumbers(v)), &w)
	}
	w.normalize()
	return w.Search
}
