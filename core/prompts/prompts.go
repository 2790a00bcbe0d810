// Package prompts loads prompt templates and expands them. A template is a
// Markdown file whose name becomes a slash command: prompts/review.md is
// /review, and `/review "API compatibility" now` sends its body with the
// arguments filled in. The TUI, rpc mode and print mode share it, so a
// template means the same thing in all three.
package prompts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn/core/frontmatter"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Scope says where a template was found.
type Scope string

const (
	// ScopeUser is the person's own directory, ~/.cairn/prompts.
	ScopeUser Scope = "user"
	// ScopeProject is the working directory's .cairn/prompts, which comes
	// with the repository and so from whoever wrote it.
	ScopeProject Scope = "project"
)

// Template is one prompt template.
type Template struct {
	// Name is the command name: the file name without ".md".
	Name string
	// Description is the front matter's description, or else the body's
	// first non-empty line, cut to 60 characters.
	Description string
	// ArgumentHint is the front matter's argument-hint ("[focus]"), or "".
	ArgumentHint string
	// Body is the text sent, before its arguments are filled in.
	Body string
	// Path is the file the template was read from.
	Path string
	// Scope says which directory Path is in.
	Scope Scope
	// Run, when set, makes the message itself from the raw arguments, in
	// place of Body (a skill's /skill:name command, see core/skills).
	Run func(args string) (string, error)
}

// Apply returns the message the template sends with args, the words after
// its name: Run's, or else Body with the arguments filled in.
func (t Template) Apply(args string) (string, error) {
	if t.Run != nil {
		return t.Run(args)
	}
	return t.Fill(ParseArgs(args)), nil
}

// UserDir is the directory of the person's own templates, given cairn's
// directory (~/.cairn).
func UserDir(cairnDir string) string { return filepath.Join(cairnDir, "prompts") }

// ProjectDir is the directory of a project's templates, given its working
// directory.
func ProjectDir(cwd string) string { return filepath.Join(cwd, ".cairn", "prompts") }

// Templates is a set of templates, sorted by name, each name once.
type Templates []Template

// Load reads the templates of the user directory and then the project's
// (either may be ""). Where both have a name, the user's template wins: a
// cloned repository cannot change what a person's own command does. A
// missing directory holds no templates; a file that cannot be read is
// reported and skipped.
func Load(userDir, projectDir string) (Templates, []error) {
	user, errs := LoadDir(userDir, ScopeUser)
	project, perrs := LoadDir(projectDir, ScopeProject)
	errs = append(errs, perrs...)
	out := user
	for _, t := range project {
		if _, ok := user.Find(t.Name); !ok {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

// LoadDir reads the templates directly in dir (not in its subdirectories),
// sorted by name.
func LoadDir(dir string, scope Scope) (Templates, []error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("prompt templates: %w", err)}
	}
	var out Templates
	var errs []error
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || e.IsDir() || name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := regfile.Read(path, regfile.MaxText)
		if err != nil {
			errs = append(errs, fmt.Errorf("prompt template %s skipped: %w", path, err))
			continue
		}
		t, err := Parse(name, string(b))
		if err != nil {
			errs = append(errs, fmt.Errorf("prompt template %s skipped: %w", path, err))
			continue
		}
		t.Path, t.Scope = path, scope
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

// maxDescription is how much of the first line describes a template that
// has no description.
const maxDescription = 60

// Parse reads a template's text: an optional YAML front matter between
// "---" lines (description, argument-hint; read as skills' is, see
// core/frontmatter), then the body. A front matter that cannot be read is
// an error, and the template is not used (as pi does); an opening "---"
// that is never closed is a Markdown rule, and all of the text is body.
func Parse(name, text string) (Template, error) {
	t := Template{Name: name}
	doc, err := frontmatter.Parse(text)
	switch {
	case errors.Is(err, frontmatter.ErrNotClosed):
		doc = frontmatter.Doc{Body: strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")}
	case err != nil:
		return t, fmt.Errorf("front matter: %w", err)
	}
	if f, ok := doc.Get("description"); ok && f.Value.IsString() {
		t.Description = strings.TrimSpace(f.Value.Str)
	}
	if f, ok := doc.Get("argument-hint"); ok && f.Value.IsString() {
		t.ArgumentHint = strings.TrimSpace(f.Value.Str)
	}
	t.Body = strings.TrimSpace(doc.Body)
	if t.Description == "" {
		for _, l := range strings.Split(t.Body, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				t.Description = clip(strings.TrimSpace(strings.TrimLeft(l, "#")), maxDescription)
				break
			}
		}
	}
	return t, nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Find returns the template called name.
func (ts Templates) Find(name string) (Template, bool) {
	for _, t := range ts {
		if t.Name == name {
			return t, true
		}
	}
	return Template{}, false
}

// Expand turns "/name args" into the template's text with the arguments
// filled in. It reports false, and returns text unchanged, when text does
// not start with "/" and the name of one of the templates.
func (ts Templates) Expand(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "/")
	if !ok {
		return text, false
	}
	name, args := rest, ""
	if i := strings.IndexAny(rest, " \t\n"); i >= 0 {
		name, args = rest[:i], rest[i+1:]
	}
	t, ok := ts.Find(name)
	if !ok {
		return text, false
	}
	out, err := t.Apply(args)
	if err != nil {
		// As pi does with a skill it cannot read: the text goes as typed.
		return text, false
	}
	return out, true
}
