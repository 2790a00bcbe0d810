package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/cairn-dev/cairn/core/frontmatter"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Limits on a search, so a large or looping directory tree cannot make
// start-up slow.
const (
	// MaxSkills bounds the skills read from all roots together.
	MaxSkills = 500
	// maxDepth bounds how deep under a root SKILL.md is looked for.
	maxDepth = 6
	// maxDirs bounds the directories listed under one root.
	maxDirs = 5000
	// MaxName and MaxDescription are the Agent Skills limits.
	MaxName        = 64
	MaxDescription = 1024
)

// FileName is the file that makes a directory a skill.
const FileName = "SKILL.md"

// Skill is one skill found.
type Skill struct {
	// Name is the front matter's name, or else the directory's name.
	Name string
	// Description says what the skill does and when it applies.
	Description string
	// Path is the skill's SKILL.md, absolute.
	Path string
	// Dir is the directory holding Path: the files beside SKILL.md, which
	// its body refers to, are under it.
	Dir string
	// Source says whose directory it came from.
	Source Source
	// Root is the label of the directory searched ("~/.claude/skills").
	Root string
	// ModelHidden is disable-model-invocation: the skill is left out of
	// the system prompt and runs only by /skill:name.
	ModelHidden bool
	// AllowedTools is the front matter's allowed-tools, as written
	// ("Bash(git add:*)", "Read"): Claude Code's tools the prompt that runs
	// the skill may use without asking (see Grant).
	AllowedTools []string

	// real is Path with its links followed: the same file found twice
	// (through a link, or two roots) is one skill.
	real string
}

// Problem is something wrong with a skill file. A Problem with Skipped set
// cost the skill; otherwise the skill is used and the Problem is a warning.
type Problem struct {
	// Path is the SKILL.md (or directory) concerned.
	Path string
	// Err says what is wrong.
	Err error
	// Skipped says the skill is not used.
	Skipped bool
	// Note marks a problem worth listing (cairn skills) but not worth a
	// warning at every start: a front matter key cairn does not use.
	Note bool
}

// Error names the file and the problem.
func (p Problem) Error() string {
	if p.Skipped {
		return fmt.Sprintf("skill %s skipped: %v", p.Path, p.Err)
	}
	return fmt.Sprintf("skill %s: %v", p.Path, p.Err)
}

// Hidden is a skill that lost its name to one found before it.
type Hidden struct {
	// Skill is the skill not used.
	Skill Skill
	// By is the skill used in its place.
	By Skill
}

// Set is the skills of a session.
type Set struct {
	// Skills are the skills in use, each name once, in the order found.
	Skills []Skill
	// Hidden are the skills whose names were taken.
	Hidden []Hidden
	// Problems are the files that could not be used, or used only in
	// part.
	Problems []Problem
}

// Load searches roots in order. A missing root holds no skills.
func Load(roots []Root) Set {
	var set Set
	seen := map[string]bool{} // resolved SKILL.md paths
	byName := map[string]int{}
	for _, r := range roots {
		found, problems := search(r)
		set.Problems = append(set.Problems, problems...)
		for _, sk := range found {
			if seen[sk.real] {
				continue // the same file through another root or a link
			}
			seen[sk.real] = true
			if i, ok := byName[sk.Name]; ok {
				set.Hidden = append(set.Hidden, Hidden{Skill: sk, By: set.Skills[i]})
				continue
			}
			if len(set.Skills) >= MaxSkills {
				set.Problems = append(set.Problems, Problem{Path: sk.Path, Skipped: true,
					Err: fmt.Errorf("more than %d skills: cairn reads no more", MaxSkills)})
				continue
			}
			byName[sk.Name] = len(set.Skills)
			set.Skills = append(set.Skills, sk)
		}
	}
	return set
}

// search finds the skills under one root: a directory holding SKILL.md is
// a skill (nothing under it is searched); other directories are searched
// down to maxDepth, skipping hidden ones and node_modules, following links
// but never into a directory twice. A Markdown file directly in the root
// with a description is a skill too (pi's standalone skills).
func search(r Root) ([]Skill, []Problem) {
	info, err := os.Stat(r.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Problem{{Path: r.Path, Err: err, Skipped: true}}
	}
	if !info.IsDir() {
		if !strings.HasSuffix(r.Path, ".md") {
			return nil, []Problem{{Path: r.Path, Err: errors.New("neither a directory nor a SKILL.md file"), Skipped: true}}
		}
		sk, problems := Read(r.Path)
		if sk == nil {
			return nil, problems
		}
		sk.Source, sk.Root, sk.real = r.Source, r.Label, resolved(sk.Path)
		return []Skill{*sk}, problems
	}
	s := searcher{root: r, walked: map[string]bool{}}
	s.dir(r.Path, resolved(r.Path), 0)
	sort.Slice(s.skills, func(i, j int) bool { return s.skills[i].Path < s.skills[j].Path })
	return s.skills, s.problems
}

type searcher struct {
	root     Root
	walked   map[string]bool
	dirs     int
	skills   []Skill
	problems []Problem
}

// dir searches the directory at path, whose links followed are real: a
// directory reached through no link is real under its parent's real
// path, so links are resolved only where there are some.
func (s *searcher) dir(path, real string, depth int) {
	if s.walked[real] {
		return
	}
	s.walked[real] = true
	if s.dirs++; s.dirs > maxDirs {
		if s.dirs == maxDirs+1 {
			s.problems = append(s.problems, Problem{Path: s.root.Path, Err: fmt.Errorf("more than %d directories: cairn searched no further", maxDirs)})
		}
		return
	}
	skill := filepath.Join(path, FileName)
	if info, err := os.Lstat(skill); err == nil {
		realSkill := filepath.Join(real, FileName)
		if info.Mode()&fs.ModeSymlink != 0 {
			realSkill = resolved(skill)
			info, err = os.Stat(skill)
		}
		if err == nil && info.Mode().IsRegular() {
			sk, problems := Read(skill)
			s.problems = append(s.problems, problems...)
			if sk != nil {
				sk.Source, sk.Root, sk.real = s.root.Source, s.root.Label, realSkill
				s.skills = append(s.skills, *sk)
			}
			return
		}
	}
	if depth >= maxDepth {
		return
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		s.problems = append(s.problems, Problem{Path: path, Err: err})
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		child := filepath.Join(path, name)
		switch {
		case depth == 0 && strings.HasSuffix(name, ".md") && !e.IsDir():
			s.standalone(child)
		case e.IsDir():
			s.dir(child, filepath.Join(real, name), depth+1)
		case e.Type()&fs.ModeSymlink != 0:
			if info, err := os.Stat(child); err == nil && info.IsDir() {
				s.dir(child, resolved(child), depth+1)
			}
		}
	}
}

// standalone reads a Markdown file directly in a root as a skill, as pi
// does: one with a description is a skill; another (a README) is noted,
// not warned about.
func (s *searcher) standalone(path string) {
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return
	}
	sk, problems := Read(path)
	if sk == nil {
		for i := range problems {
			problems[i].Note = true
			problems[i].Err = fmt.Errorf("not a skill (a Markdown file beside the skills): %w", problems[i].Err)
		}
		s.problems = append(s.problems, problems...)
		return
	}
	s.problems = append(s.problems, problems...)
	sk.Source, sk.Root, sk.real = s.root.Source, s.root.Label, resolved(path)
	s.skills = append(s.skills, *sk)
}

// resolved is path with every link followed, or path when that fails.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// Read reads one SKILL.md. It returns nil and why when the file cannot be
// a skill (unreadable, bad front matter, no description, a name that
// cannot be a command), and the skill with warnings for what the Agent
// Skills format asks and pi only warns about (a name's characters, a long
// description, a key the format does not define).
func Read(path string) (*Skill, []Problem) {
	abs, err := filepath.Abs(path)
	if err == nil {
		path = abs
	}
	skip := func(err error) (*Skill, []Problem) { return nil, []Problem{{Path: path, Err: err, Skipped: true}} }
	b, err := regfile.Read(path, regfile.MaxText)
	if err != nil {
		return skip(err)
	}
	doc, err := frontmatter.Parse(string(b))
	if err != nil {
		return skip(fmt.Errorf("front matter: %w", err))
	}
	if !doc.Found {
		return skip(errors.New(`no front matter: start the file with "---", then "name:" and "description:" lines, then "---"`))
	}
	var warn []Problem
	warnf := func(format string, args ...any) {
		warn = append(warn, Problem{Path: path, Err: fmt.Errorf(format, args...)})
	}
	// As pi: a description that is not a YAML string (a number, a list) is
	// no description, and a name that is not one is the directory's.
	var name, desc string
	if f, ok := doc.Get("name"); ok && f.Value.IsString() {
		name = strings.TrimSpace(f.Value.Str)
	}
	if f, ok := doc.Get("description"); ok && f.Value.IsString() {
		desc = strings.TrimSpace(f.Value.Str)
	}
	if desc == "" {
		return skip(errors.New("description is required: say what the skill does and when to use it"))
	}
	if len([]rune(desc)) > MaxDescription {
		warnf("description is longer than %d characters (%d)", MaxDescription, len([]rune(desc)))
	}
	dir := filepath.Dir(path)
	if name == "" {
		name = filepath.Base(dir)
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return skip(fmt.Errorf("name %q holds control characters", name))
	}
	for _, msg := range nameProblems(name) {
		warnf("%s", msg)
	}
	if strings.ContainsFunc(name, unicode.IsSpace) {
		warnf("name %q has spaces: the model can use the skill, but /skill:%s cannot run it", name, name)
	}
	hidden, err := doc.Bool("disable-model-invocation")
	if err != nil {
		warnf("%v", err)
	}
	allowed, err := allowedTools(doc)
	if err != nil {
		warnf("%v", err)
	}
	for _, f := range doc.Unknown(knownKeys...) {
		warn = append(warn, Problem{Path: path, Note: true,
			Err: fmt.Errorf("line %d: key %q is not part of the Agent Skills format; cairn does not use it", f.Line, f.Key)})
	}
	return &Skill{Name: name, Description: desc, Path: path, Dir: dir, ModelHidden: hidden, AllowedTools: allowed}, warn
}

// knownKeys are the front matter keys of the Agent Skills format, and
// those Claude Code adds, which cairn accepts without a warning.
var knownKeys = []string{
	"name", "description", "license", "compatibility", "metadata", "allowed-tools", "disable-model-invocation",
	// Claude Code's (its skill front matter reference).
	"argument-hint", "arguments", "model", "effort", "user-invocable", "when_to_use", "version", "context", "agent",
	"hooks", "paths", "shell",
}

// allowedTools reads allowed-tools: a YAML list, or names separated by
// commas or spaces ("Read, Grep", "Bash(git add:*) Read"), a space inside
// parentheses being part of the name.
func allowedTools(doc frontmatter.Doc) ([]string, error) {
	items, err := doc.List("allowed-tools")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, it := range items {
		depth, start := 0, 0
		for i, r := range it + " " {
			switch {
			case r == '(':
				depth++
			case r == ')' && depth > 0:
				depth--
			case r == ' ' && depth == 0:
				if w := strings.TrimSpace(it[start:i]); w != "" {
					out = append(out, w)
				}
				start = i + 1
			}
		}
	}
	return out, nil
}

// nameProblems lists what the Agent Skills format says is wrong with name.
func nameProblems(name string) []string {
	var out []string
	if n := len([]rune(name)); n > MaxName {
		out = append(out, fmt.Sprintf("name is longer than %d characters (%d)", MaxName, n))
	}
	if strings.ContainsFunc(name, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') }) {
		out = append(out, "name should use only lower-case letters a-z, digits and hyphens")
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		out = append(out, "name should not start or end with a hyphen")
	}
	if strings.Contains(name, "--") {
		out = append(out, "name should not contain two hyphens in a row")
	}
	return out
}

// Find returns the skill called name.
func (s Set) Find(name string) (Skill, bool) {
	for _, sk := range s.Skills {
		if sk.Name == name {
			return sk, true
		}
	}
	return Skill{}, false
}

// Dirs lists the directories of the skills in use: reading tools may look
// in them without asking (see approval.Config.SkillDirs).
func (s Set) Dirs() []string {
	out := make([]string, len(s.Skills))
	for i, sk := range s.Skills {
		out[i] = sk.Dir
	}
	return out
}
