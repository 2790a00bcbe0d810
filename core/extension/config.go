package extension

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/regfile"
)

// Scope says where an extension was found.
type Scope string

// The scopes.
const (
	ScopeUser     Scope = "user"     // ~/.cairn/extensions
	ScopeProject  Scope = "project"  // <project>/.cairn/extensions, once trusted
	ScopeSettings Scope = "settings" // "extensions" in a settings file
)

// Config is one extension to start: a command, its arguments and the
// environment it adds to cairn's child environment (core/child).
type Config struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
	// Dir is where it runs: the directory it was found in, or the
	// session's working directory.
	Dir   string
	Scope Scope
	// Path is the file or directory it was found as.
	Path string
	// Err, when set, says why it cannot start (a bad manifest); it is
	// reported as a failed extension, never dropped.
	Err error
}

// Manifest is the file extension.json of an extension directory.
type Manifest struct {
	// Command runs the extension; a relative path names a file of the
	// extension's directory.
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Disabled keeps it from starting.
	Disabled bool `json:"disabled,omitempty"`
}

// ManifestFile is the manifest's name in an extension directory.
const ManifestFile = "extension.json"

// UserDir and ProjectDir are where extensions are found.
func UserDir(cairnDir string) string { return filepath.Join(cairnDir, "extensions") }

// ProjectDir is a project's extensions directory.
func ProjectDir(root string) string { return filepath.Join(root, ".cairn", "extensions") }

// Discover lists the extensions of dir, in name order: each directory
// holding an extension.json, and each executable file. Entries starting
// with "." are skipped; anything else that is not an extension is listed
// with the error saying why, so it is reported rather than ignored. A
// missing dir holds none.
func Discover(dir string, scope Scope) []Config {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return []Config{{Name: filepath.Base(dir), Scope: scope, Path: dir, Err: fmt.Errorf("read %s: %w", dir, err)}}
	}
	var out []Config
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		c := at(filepath.Join(dir, e.Name()), scope)
		if c.Err == nil && c.Command == "" {
			// A disabled manifest.
			continue
		}
		out = append(out, c)
	}
	return out
}

// readManifest fills c from the manifest at path.
func (c *Config) readManifest(path string) error {
	data, err := regfile.Read(path, 1<<20)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	var m Manifest
	if err := strictJSON(data, &m); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if m.Disabled {
		return nil
	}
	if m.Command == "" {
		return fmt.Errorf("%s: \"command\" is missing", path)
	}
	c.Command, c.Args, c.Env = m.Command, m.Args, m.Env
	if strings.ContainsRune(m.Command, filepath.Separator) && !filepath.IsAbs(m.Command) {
		c.Command = filepath.Join(c.Dir, m.Command)
	}
	return nil
}

// FromSettings reads the "extensions" setting: an object mapping each
// extension's name to a manifest ({"command", "args", "env", "disabled"}).
// A relative command runs from cwd, where the extension runs.
func FromSettings(raw json.RawMessage, cwd string) []Config {
	if len(raw) == 0 {
		return nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return []Config{{Name: "extensions", Scope: ScopeSettings, Err: fmt.Errorf("the \"extensions\" setting must be an object of name: {command, args, env}: %w", err)}}
	}
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []Config
	for _, n := range names {
		c := Config{Name: n, Scope: ScopeSettings, Dir: cwd, Path: "settings: extensions." + n}
		var m Manifest
		switch err := strictJSON(all[n], &m); {
		case err != nil:
			c.Err = fmt.Errorf("setting extensions.%s: %w", n, err)
		case m.Disabled:
			continue
		case m.Command == "":
			c.Err = fmt.Errorf("setting extensions.%s: \"command\" is missing", n)
		default:
			c.Command, c.Args, c.Env = m.Command, m.Args, m.Env
		}
		out = append(out, c)
	}
	return out
}

// strictJSON decodes data into v, refusing members v does not have.
func strictJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}

// ScopePath is an extension named on the command line (--extension).
const ScopePath Scope = "path"

// FromPath is the extension at path (an executable file, or a directory
// with an extension.json), relative to cwd.
func FromPath(path, cwd string) Config {
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	c := at(path, ScopePath)
	if c.Err == nil && c.Command == "" {
		c.Err = fmt.Errorf("%s is disabled in its %s", path, ManifestFile)
	}
	return c
}

// at is the extension at path: an executable file, or a directory with
// an extension.json (a disabled one has no Command).
func at(path string, scope Scope) Config {
	c := Config{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Scope: scope, Path: path, Dir: filepath.Dir(path)}
	info, err := os.Stat(path)
	switch {
	case err != nil:
		c.Err = err
	case info.IsDir():
		c.Name, c.Dir = filepath.Base(path), path
		c.Err = c.readManifest(filepath.Join(path, ManifestFile))
	case info.Mode().IsRegular() && info.Mode()&0o111 != 0:
		c.Command = path
	default:
		c.Err = fmt.Errorf("%s is neither an executable file nor a directory with an %s (an extension is a program: give a script a #! line and chmod +x it)", path, ManifestFile)
	}
	return c
}
