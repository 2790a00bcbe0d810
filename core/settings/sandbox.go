package settings

import (
	"bytes"
	"encoding/json"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// Sandbox returns the sandbox settings in force ("sandbox" in the files):
// the person's own (the global file, then this session's changes)
// tightened by the project's file, which can never loosen them (see
// sandbox.Tighten). They live outside Settings, which holds no references.
func (s *Store) Sandbox() sandbox.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, _ := s.sandbox()
	return c
}

// sandbox returns the sandbox settings in force and what the project's
// file asked for that was dropped. s.mu is held, or s is not yet shared.
func (s *Store) sandbox() (sandbox.Config, []string) {
	var user, project sandbox.Config
	if v, ok := merge(s.layers[ScopeGlobal], s.layers[ScopeSession]).get("sandbox"); ok && v != nil {
		// A bad value was reported when its layer was loaded or set.
		_ = json.Unmarshal(compact(wholeNumbers(v)), &user)
	}
	if s.layers[ScopeProject] != s.layers[ScopeGlobal] {
		if v, ok := s.layers[ScopeProject].get("sandbox"); ok && v != nil {
			_ = json.Unmarshal(compact(wholeNumbers(v)), &project)
		}
	}
	return sandbox.Tighten(user, project)
}

// checkSandbox reports a "sandbox" value in o that cannot be used.
func checkSandbox(o *object) []error {
	v, ok := o.get("sandbox")
	if !ok || v == nil {
		return nil
	}
	var c sandbox.Config
	if err := json.Unmarshal(compact(wholeNumbers(v)), &c); err != nil {
		return []error{keyError("sandbox", err)}
	}
	// A misspelt key would otherwise leave the sandbox looser than meant.
	dec := json.NewDecoder(bytes.NewReader(compact(wholeNumbers(v))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return []error{&KeyError{Key: "sandbox", Msg: err.Error() + " (known: enabled, required, allowWrite, denyRead, network, allowUnixSockets, allowAllUnixSockets)"}}
	}
	return nil
}
