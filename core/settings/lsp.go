package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// LSPSettings configure the language servers whose diagnostics reach the
// model after edits ("lsp" in the files). Servers only run in trusted
// projects.
type LSPSettings struct {
	// Enabled turns language servers on (the default) or off.
	Enabled bool `json:"enabled"`
	// WaitMs bounds each wait for a server after an edit (to be ready,
	// then for the file's diagnostics), in milliseconds; 0 means 3000.
	WaitMs int `json:"waitMs,omitempty"`
	// The "servers" entry, which adds servers or changes the built-in
	// ones by name, is read by Store.LSPServers: Settings stays
	// comparable.
}

// lspFile is the "lsp" object as the files hold it.
type lspFile struct {
	LSPSettings
	// Servers add servers or change the built-in ones by name ("go",
	// "typescript", "pyright", "basedpyright", "rust", "c").
	Servers map[string]LSPServer `json:"servers,omitempty"`
}

// LSPServers returns the "lsp.servers" entries in force (the files
// merged; a project's only when it is trusted, as every project setting),
// without the entries whose program is empty.
func (s *Store) LSPServers() map[string]LSPServer {
	s.mu.Lock()
	defer s.mu.Unlock()
	var f lspFile
	if v, ok := s.merged.get("lsp"); ok && v != nil {
		// A bad value was reported when its layer was loaded or set.
		_ = json.Unmarshal(compact(wholeNumbers(v)), &f)
	}
	for name, srv := range f.Servers {
		if len(srv.Command) > 0 && srv.Command[0] == "" {
			delete(f.Servers, name)
		}
	}
	return f.Servers
}

// LSPServer is one language server's entry in "lsp.servers".
type LSPServer struct {
	// Command is the program and its arguments.
	Command []string `json:"command,omitempty"`
	// Extensions are the file endings it serves, with the dot.
	Extensions []string `json:"extensions,omitempty"`
	// RootMarkers are files marking a root for it (go.mod).
	RootMarkers []string `json:"rootMarkers,omitempty"`
	// Disabled turns a built-in server off.
	Disabled bool `json:"disabled,omitempty"`
}

// Wait is WaitMs as a duration, 3 s when unset.
func (l LSPSettings) Wait() time.Duration {
	if l.WaitMs <= 0 {
		return 3 * time.Second
	}
	return time.Duration(l.WaitMs) * time.Millisecond
}

// normalize reports values cairn cannot use and puts them back to their
// defaults.
func (l *LSPSettings) normalize() []error {
	var errs []error
	if l.WaitMs < 0 {
		errs = append(errs, &KeyError{Key: "lsp.waitMs", Msg: fmt.Sprintf("%d is not allowed: use a number of milliseconds, or 0 for the default", l.WaitMs)})
		l.WaitMs = 0
	}
	return errs
}

// checkStrict reports keys of the object at key that the type of v does
// not have: a misspelt key would otherwise be ignored silently.
func checkStrict(o *object, key string, v any, known string) []error {
	raw, ok := o.get(key)
	if !ok || raw == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(compact(wholeNumbers(raw))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return []error{&KeyError{Key: key, Msg: err.Error() + " (known: " + known + ")"}}
	}
	return nil
}
