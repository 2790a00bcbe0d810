package settings

import (
	"bytes"
	"encoding/json"

	"github.com/cairn-dev/cairn/core/child"
)

// shellEnvKey is the setting that says what environment commands start
// with (see child.EnvPolicy).
const shellEnvKey = "shellEnvironment"

// ShellEnvironment returns the "shellEnvironment" setting in force: the
// person's own (the global file, then this session's changes) narrowed by
// the project's file, which can never pass more (see child.TightenEnv).
// Like the sandbox, it lives outside Settings, which holds no references.
func (s *Store) ShellEnvironment() child.EnvPolicy {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, _ := s.shellEnvironment()
	return p
}

// shellEnvironment returns the policy in force and what the project's file
// asked for that was dropped. s.mu is held, or s is not yet shared.
func (s *Store) shellEnvironment() (child.EnvPolicy, []string) {
	var user, project child.EnvPolicy
	if v, ok := merge(s.layers[ScopeGlobal], s.layers[ScopeSession]).get(shellEnvKey); ok && v != nil {
		// A bad value was reported when its layer was loaded or set; it
		// counts as no setting, the secure default.
		if json.Unmarshal(compact(wholeNumbers(v)), &user) != nil || user.Check() != nil {
			user = child.EnvPolicy{}
		}
	}
	if s.layers[ScopeProject] != s.layers[ScopeGlobal] {
		if v, ok := s.layers[ScopeProject].get(shellEnvKey); ok && v != nil {
			if json.Unmarshal(compact(wholeNumbers(v)), &project) != nil || project.Check() != nil {
				// A project's value that cannot be read narrows to the
				// least: it meant to narrow something.
				project = child.EnvPolicy{Inherit: child.InheritCore}
			}
		}
	}
	return child.TightenEnv(user, project)
}

// checkShellEnvironment reports a "shellEnvironment" value in o that cannot
// be used.
func checkShellEnvironment(o *object) []error {
	v, ok := o.get(shellEnvKey)
	if !ok || v == nil {
		return nil
	}
	var p child.EnvPolicy
	dec := json.NewDecoder(bytes.NewReader(compact(wholeNumbers(v))))
	// A misspelt key would otherwise pass a secret, or fail to exclude one.
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return []error{&KeyError{Key: shellEnvKey, Msg: err.Error() + " (known: inherit, exclude, passthrough, set)"}}
	}
	if err := p.Check(); err != nil {
		return []error{&KeyError{Key: shellEnvKey, Msg: err.Error()}}
	}
	return nil
}
