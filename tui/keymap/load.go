package keymap

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/cairn-dev/cairn/core/regfile"
)

// ErrUnsupported marks a keybindings.json entry for a pi action that cairn
// does not have (yet); callers may show it more quietly than a real mistake.
var ErrUnsupported = errors.New("not supported by cairn; ignored")

// Load reads a keybindings file in pi's format, an object from action name
// to a key or a list of keys:
//
//	{"submit": "enter", "newLine": ["shift+enter", "ctrl+j"], "dequeue": []}
//
// Each entry replaces that action's default keys; an empty list unbinds it.
// A missing file gives the defaults and no error. Problems are reported one
// per entry, naming the file and the action, and the rest of the file still
// applies; a file that is not valid JSON gives the defaults and one error.
func Load(path string) (Map, []error) {
	data, err := regfile.Read(path, regfile.MaxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		return Defaults(), []error{fmt.Errorf("load keybindings: %w", err)}
	}
	m, errs := Decode(data)
	for i, e := range errs {
		errs[i] = fmt.Errorf("%s: %w", path, e)
	}
	return m, errs
}

// Decode applies keybindings JSON (see Load) on top of the defaults.
func Decode(data []byte) (Map, []error) {
	m := Defaults()
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		return m, []error{fmt.Errorf("not a JSON object of action to keys: %w", err)}
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	slices.Sort(names)

	var errs []error
	for _, name := range names {
		a := Action(name)
		if !a.Known() {
			if piOnly[name] {
				errs = append(errs, fmt.Errorf("action %q: %w", name, ErrUnsupported))
			} else {
				errs = append(errs, fmt.Errorf("unknown action %q", name))
			}
			continue
		}
		raw, err := decodeKeys(entries[name])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		keys := make([]string, 0, len(raw))
		bad := false
		for _, r := range raw {
			k, err := ParseKey(r)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
				bad = true
				continue
			}
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		// A list with a bad key keeps its good keys rather than leaving the
		// action unbound; only an entry with no usable key keeps the default.
		if bad && len(keys) == 0 {
			continue
		}
		m.keys[a] = keys
	}
	m.index()
	return m, errs
}

// decodeKeys accepts a string or an array of strings.
func decodeKeys(raw json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err == nil && many != nil {
		return many, nil
	}
	return nil, fmt.Errorf("%s is not a key or a list of keys", raw)
}
