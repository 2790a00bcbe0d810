package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core/atomicfile"
)

// GlobalFile returns where the user's settings live: <cairnDir>/settings.json
// (cairnDir is ~/.cairn unless CAIRN_DIR says otherwise).
func GlobalFile(cairnDir string) string { return filepath.Join(cairnDir, "settings.json") }

// ProjectFile returns where a project's settings live:
// <project>/.cairn/settings.json.
func ProjectFile(project string) string {
	return filepath.Join(project, ".cairn", "settings.json")
}

// Scope says where a change made with Store.Set lives.
type Scope int

// The scopes, from the least to the most lasting. The zero value is
// ScopeSession, so a forgotten scope never writes a file.
const (
	// ScopeSession changes this process only; no file is touched.
	ScopeSession Scope = iota
	// ScopeGlobal writes the user's settings file.
	ScopeGlobal
	// ScopeProject writes the project's settings file.
	ScopeProject
)

// String returns the scope's name: session, global or project.
func (s Scope) String() string {
	switch s {
	case ScopeSession:
		return "session"
	case ScopeGlobal:
		return "global"
	case ScopeProject:
		return "project"
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

// Store holds cairn's settings in three layers, each laid over the one
// before: the global file, the project file, and this session's changes.
// As in pi, objects at the top level are merged key by key, so a project
// file that sets only compaction.enabled keeps the global
// compaction.reserveTokens; deeper objects, arrays and other values are
// replaced whole.
//
// A Store is safe for use by several goroutines. Writes to a file are
// read-modify-write under a lock shared with other cairn processes, so two
// cairns changing different settings never lose each other's change, and
// keys cairn does not know (pi's, or a newer cairn's) survive in the file.
type Store struct {
	paths [3]string // by Scope; the session has none

	// writeMu lets one write of this Store at a time reach the lock file;
	// the lock file does the same between processes.
	writeMu sync.Mutex

	mu        sync.Mutex
	base      *object    // pi's settings (see Underlay), or nil
	layers    [3]*object // by Scope
	merged    *object
	effective Settings
	onWrite   func(Scope)
}

// OnWrite sets a function called after each write this Store makes to a
// settings file, with the scope written. cairn uses it to keep a trusted
// project trusted across its own, requested writes to the project's file.
func (s *Store) OnWrite(f func(Scope)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onWrite = f
}

// Load reads the global and the project settings files; an empty path, or
// a file that does not exist, holds no settings.
//
// Load always returns a usable Store. Its error, when not nil, lists the
// problems it worked around, each a *FileError: a file that cannot be read
// or is not valid JSON (the error gives the line and column) is ignored as a
// whole, and a setting with an unusable value falls back to its default.
// Show the error to the user; do not treat it as fatal.
func Load(globalPath, projectPath string) (*Store, error) {
	s := &Store{}
	s.paths[ScopeGlobal] = globalPath
	s.paths[ScopeProject] = projectPath
	s.layers[ScopeSession] = newObject()
	var errs []error
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		s.layers[scope] = newObject()
		path := s.paths[scope]
		if path == "" {
			continue
		}
		if scope == ScopeProject && sameFile(path, globalPath) {
			// Working in the home directory: one file plays both parts.
			s.layers[scope] = s.layers[ScopeGlobal]
			continue
		}
		obj, err := readFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.layers[scope] = obj
		if _, ok := obj.get(globalOnlyKey); ok && scope == ScopeProject {
			errs = append(errs, &FileError{Path: path, Err: errGlobalOnly(globalPath)})
		}
		_, keyErrs := decode(obj)
		for _, ke := range keyErrs {
			errs = append(errs, &FileError{Path: path, Err: ke})
		}
	}
	s.recompute()
	for _, err := range s.AllowWriteErrors() {
		errs = append(errs, &FileError{Path: globalPath, Err: err})
	}
	if _, dropped := s.sandbox(); len(dropped) > 0 {
		errs = append(errs, &FileError{Path: s.paths[ScopeProject], Err: &KeyError{Key: "sandbox",
			Msg: "a project's settings can only tighten the sandbox; ignored: " + strings.Join(dropped, ", ")}})
	}
	if _, dropped := s.shellEnvironment(); len(dropped) > 0 {
		errs = append(errs, &FileError{Path: s.paths[ScopeProject], Err: &KeyError{Key: shellEnvKey,
			Msg: "a project's settings can only narrow the environment commands get; ignored: " + strings.Join(dropped, ", ")}})
	}
	return s, errors.Join(errs...)
}

// Path returns the file behind scope, or "" for ScopeSession and for a
// scope Load was given no file for.
func (s *Store) Path(scope Scope) string {
	if scope < ScopeSession || scope > ScopeProject {
		return ""
	}
	return s.paths[scope]
}

// Effective returns the settings in force: defaults, then the global file,
// the project file and this session's changes, each winning over the ones
// before.
func (s *Store) Effective() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.effective
}

// Get returns the effective JSON value at a dotted key, including keys
// cairn does not model in Settings (for example pi's "enabledModels"). It
// reports false when no layer sets the key; defaults are not included.
func (s *Store) Get(key string) (json.RawMessage, bool) {
	path, err := splitKey(key)
	if err != nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.merged.lookup(path)
	if !ok {
		return nil, false
	}
	return compact(v), true
}

// Set changes the setting at key, a dotted path for nested settings such as
// "compaction.enabled", in scope. value is anything encoding/json can
// encode; nil removes the key from that scope, so the layers below (or the
// default) show through again.
//
// A value of the wrong type for a setting cairn knows, or outside the
// allowed values, is refused with a *KeyError. ScopeGlobal and ScopeProject
// re-read their file under the lock, change only key, and write the file
// back atomically; a file that is not valid JSON is never overwritten, and
// Set says so. When Set returns an error nothing has changed.
func (s *Store) Set(key string, value any, scope Scope) error {
	path, err := splitKey(key)
	if err != nil {
		return err
	}
	return s.SetPath(path, value, scope)
}

// SetPath is Set for a key given as its path of names, for keys whose names
// themselves contain dots (such as a model ID).
func (s *Store) SetPath(path []string, value any, scope Scope) error {
	key := strings.Join(path, ".")
	if len(path) == 0 || slices.Contains(path, "") {
		return fmt.Errorf("set setting %q: empty key name", key)
	}
	change, err := makeChange(path, value)
	if err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	switch scope {
	case ScopeSession:
		s.mu.Lock()
		defer s.mu.Unlock()
		next := cloneValue(s.layers[ScopeSession]).(*object)
		if err := change(next); err != nil {
			return fmt.Errorf("set %s for this session: %w", key, err)
		}
		s.layers[ScopeSession] = next
		s.recompute()
		return nil
	case ScopeProject:
		if path[0] == globalOnlyKey {
			return fmt.Errorf("set %s: %w", key, errGlobalOnly(s.paths[ScopeGlobal]))
		}
		return s.setInFile(key, scope, change)
	case ScopeGlobal:
		return s.setInFile(key, scope, change)
	}
	return fmt.Errorf("set %s: unknown scope %v", key, scope)
}

// makeChange checks value for the setting at path and returns the edit
// that applies it to a layer.
func makeChange(path []string, value any) (func(*object) error, error) {
	if value == nil {
		return func(o *object) error { o.removePath(path); return nil }, nil
	}
	v, err := toValue(value)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return func(o *object) error { o.removePath(path); return nil }, nil
	}
	// Check the value on its own, so problems elsewhere in a file do not
	// block an unrelated change.
	probe := newObject()
	if err := probe.setPath(path, v); err != nil {
		return nil, err
	}
	if _, errs := decode(probe); len(errs) > 0 {
		return nil, errs[0]
	}
	return func(o *object) error { return o.setPath(path, cloneValue(v)) }, nil
}

// setInFile applies change to scope's file and, once it is written, to the
// Store's copy of that file, which then also holds what other processes
// wrote since Load.
func (s *Store) setInFile(key string, scope Scope, change func(*object) error) error {
	file := s.paths[scope]
	if file == "" {
		return fmt.Errorf("set %s: no %s settings file is in use", key, scope)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("set %s in %s: %w", key, file, err)
	}
	unlock, err := lockFile(file)
	if err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	defer unlock()
	obj, err := readFile(file)
	if err != nil {
		return fmt.Errorf("set %s: not saved: %w", key, err)
	}
	if err := change(obj); err != nil {
		return fmt.Errorf("set %s in %s: %w", key, file, err)
	}
	if err := atomicfile.Write(file, marshalFile(obj), 0o644); err != nil {
		return fmt.Errorf("set %s: save %s: %w", key, file, err)
	}
	s.mu.Lock()
	for _, sc := range []Scope{ScopeGlobal, ScopeProject} {
		if sameFile(s.paths[sc], file) {
			s.layers[sc] = obj
		}
	}
	s.recompute()
	onWrite := s.onWrite
	s.mu.Unlock()
	if onWrite != nil {
		onWrite(scope)
	}
	return nil
}

// sameFile reports whether two settings paths name the same file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// recompute merges the layers into merged and effective. s.mu is held.
func (s *Store) recompute() {
	m := merge(s.layers[ScopeGlobal], s.layers[ScopeProject])
	if s.base != nil {
		m = merge(s.base, m)
	}
	s.merged = merge(m, s.layers[ScopeSession])
	// Problems were reported when each layer was loaded or set.
	s.effective, _ = decode(s.merged)
}

// splitKey splits a dotted key into its names.
func splitKey(key string) ([]string, error) {
	path := strings.Split(key, ".")
	if slices.Contains(path, "") {
		return nil, fmt.Errorf("setting key %q: empty name between dots", key)
	}
	return path, nil
}
