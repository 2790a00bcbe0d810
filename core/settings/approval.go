package settings

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// The "approval" object widens what the approval gate lets through
// unasked:
//
//	{"approval": {"allowWrite": ["~/notes", "/srv/scratch"]}}
//
// It is read from the global file and this session's changes only. A
// project's file is what the person has not checked (a repository can ship
// one), so its "approval" is reported and ignored, and Set refuses to write
// one there.

// globalOnlyKey is the setting a project file may not set.
const globalOnlyKey = "approval"

// errGlobalOnly says the project's approval settings are ignored, and
// where they belong.
func errGlobalOnly(globalPath string) *KeyError {
	where := "the global settings file"
	if globalPath != "" {
		where = globalPath
	}
	return &KeyError{Key: globalOnlyKey, Msg: "ignored in a project's settings, since a project may not widen what cairn does without asking; set it in " + where}
}

// AllowWrite returns approval.allowWrite: directories, absolute or starting
// with ~/, where auto_edit mode lets edit tools write without asking,
// besides the project and the temporary directory. Only the global file
// and this session's changes count. Entries that are not such directories
// are left out and reported by AllowWriteErrors.
func (s *Store) AllowWrite() []string {
	dirs, _ := s.allowWrite()
	return dirs
}

// AllowWriteErrors reports the entries of approval.allowWrite that
// AllowWrite leaves out, as *KeyError values.
func (s *Store) AllowWriteErrors() []error {
	_, errs := s.allowWrite()
	return errs
}

func (s *Store) allowWrite() ([]string, []error) {
	s.mu.Lock()
	own := merge(s.layers[ScopeGlobal], s.layers[ScopeSession])
	s.mu.Unlock()
	v, ok := own.lookup([]string{globalOnlyKey, "allowWrite"})
	if !ok || v == nil {
		return nil, nil
	}
	var raw []string
	if err := json.Unmarshal(compact(v), &raw); err != nil {
		return nil, []error{&KeyError{Key: "approval.allowWrite", Msg: "expected an array of directory names (strings), found " + kindOf(v)}}
	}
	var dirs []string
	var errs []error
	for _, d := range raw {
		if !filepath.IsAbs(d) && d != "~" && !strings.HasPrefix(d, "~/") {
			errs = append(errs, &KeyError{Key: "approval.allowWrite", Msg: fmt.Sprintf("%q is not allowed: use an absolute directory or one starting with ~/", d)})
			continue
		}
		dirs = append(dirs, d)
	}
	return dirs, errs
}
