package themes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/regfile"
)

// LoadDir parses every *.json file in dir (not its subdirectories) and
// returns the themes by name. A missing directory means no themes and no
// error. A file that cannot be read or parsed yields one error that names the
// file, and the other files still load; two files claiming the same theme
// name are an error for the second (in file name order), which is skipped.
func LoadDir(dir string) (map[string]*Theme, []error) {
	themes := map[string]*Theme{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return themes, nil
	}
	if err != nil {
		return themes, []error{fmt.Errorf("read theme directory: %w", err)}
	}
	var errs []error
	for _, e := range entries {
		if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		t, err := LoadFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := themes[t.Name]; dup {
			errs = append(errs, fmt.Errorf("%s: theme %q is already defined in %s; skipped", path, t.Name, prev.Source))
			continue
		}
		themes[t.Name] = t
	}
	return themes, errs
}

// LoadFile parses one theme file and records its path in Source. Errors are
// prefixed with the path.
func LoadFile(path string) (*Theme, error) {
	data, err := regfile.Read(path, regfile.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("load theme: %w", err)
	}
	t, err := Parse(data)
	if err != nil {
		return nil, prefixLines(path, err)
	}
	t.Source = path
	for i, w := range t.Warnings {
		t.Warnings[i] = path + ": " + w
	}
	return t, nil
}

// prefixLines puts "path: " before every line of a (possibly joined) error,
// keeping the original errors reachable through errors.Is and errors.As.
func prefixLines(path string, err error) error {
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		return fmt.Errorf("%s: %w", path, err)
	}
	parts := joined.Unwrap()
	out := make([]error, len(parts))
	for i, e := range parts {
		out[i] = fmt.Errorf("%s: %w", path, e)
	}
	return errors.Join(out...)
}

// Resolve picks the theme to use. An empty name picks the built-in dark or
// light theme to suit the terminal background. Otherwise a custom theme of
// that name wins over a built-in of the same name (so a user can restyle
// "dark"), and an unknown name is an error that lists the available themes.
func Resolve(name string, custom map[string]*Theme, darkBackground bool) (*Theme, error) {
	if name == "" {
		if darkBackground {
			return Dark(), nil
		}
		return Light(), nil
	}
	if t, ok := custom[name]; ok && t != nil {
		return t, nil
	}
	if t := Builtin(name); t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("unknown theme %q (available: %s)", name, strings.Join(Names(custom), ", "))
}

// Names lists the built-in and custom theme names together, sorted, each
// once.
func Names(custom map[string]*Theme) []string {
	names := BuiltinNames()
	for n := range custom {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
