package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/regfile"
)

// Limits on what a scan reads, so a hostile project cannot make start-up
// slow. A file past them is not fingerprinted whole, which makes the scan
// unsure: the project is asked about at every start, so nothing can hide
// behind a limit.
const (
	maxFiles     = 2000
	maxFileBytes = 16 << 20
	maxBytes     = 64 << 20
	// maxLinkDepth bounds directories reached through links inside the
	// project, which could otherwise lead in circles.
	maxLinkDepth = 8
)

// ControlFile is one of the project's files that can change what cairn
// does, as a scan found it.
type ControlFile struct {
	// Path is relative to the project's Root, with forward slashes: the
	// path cairn reads the file through.
	Path string
	// Outside is where a symbolic link leads when that is outside the
	// project (as written in the link); "" otherwise. The scan records the
	// link, never what it leads to: the project cannot vouch for a file
	// it does not hold, and a link to a large system file must not cost
	// anything to check.
	Outside string
	// Doubt says why the scan could not fingerprint the file whole (too
	// large, unreadable, not a regular file); "" when it could.
	Doubt string
	// Script, when the file is one because another control file names it
	// as something to run, says which and how (see Project.Scripts). A
	// script outside the project has an absolute Path and Outside set to
	// it: the scan records that it is named, never what it holds.
	Script *Script
	sum    string
}

// Scan is what a project's control files are at one moment: their names,
// and a fingerprint of each taken by itself.
type Scan struct {
	// Files are the control files, sorted by Path.
	Files []ControlFile
	// TooMany is set when the project holds more control files than a
	// scan looks at; the rest are neither listed nor fingerprinted.
	TooMany bool
}

// Paths lists the Path of every file.
func (s Scan) Paths() []string {
	paths := make([]string, len(s.Files))
	for i, f := range s.Files {
		paths[i] = f.Path
	}
	return paths
}

// Sure reports whether every control file was fingerprinted whole. When
// it was not, no earlier trust can vouch for the files, and the project
// must be asked about again.
func (s Scan) Sure() bool {
	return !s.TooMany && !slices.ContainsFunc(s.Files, func(f ControlFile) bool { return f.Doubt != "" })
}

// sums maps each file's Path to its own fingerprint.
func (s Scan) sums() map[string]string {
	m := make(map[string]string, len(s.Files))
	for _, f := range s.Files {
		m[f.Path] = f.sum
	}
	return m
}

// Fingerprint hashes the names and fingerprints of all the files.
func (s Scan) Fingerprint() string {
	h := sha256.New()
	for _, f := range s.Files {
		fmt.Fprintf(h, "%q %s\n", f.Path, f.sum)
	}
	if s.TooMany {
		fmt.Fprintf(h, "more than %d files\n", maxFiles)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// ControlFiles lists the paths of the project's control files (see Scan).
func (p Project) ControlFiles() []string { return p.Scan().Paths() }

// OtherAgentTrees are the directories of other agents' skills, agent
// definitions and pi's extensions under a project's working directory,
// which cairn reads (skills, agents: unless the otherAgentDirs setting is
// off) or runs (pi's extensions, once the project is trusted); Scan
// fingerprints them like .cairn/.
var OtherAgentTrees = []string{
	filepath.Join(".claude", "skills"),
	filepath.Join(".claude", "agents"),
	filepath.Join(".pi", "skills"),
	filepath.Join(".pi", "extensions"),
	filepath.Join(".agents", "skills"),
}

// OtherClientMCPFiles are other clients' MCP configuration files in a
// project's working directory (VS Code's, Cursor's, Zed's settings), which
// name commands cairn would start; Scan fingerprints them like .mcp.json.
var OtherClientMCPFiles = []string{
	filepath.Join(".vscode", "mcp.json"),
	filepath.Join(".cursor", "mcp.json"),
	filepath.Join(".zed", "settings.json"),
}

// Scan finds and fingerprints the files of the project that can change
// what cairn does: everything under Dir/.cairn/ and OtherAgentTrees, each AGENTS.md and
// CLAUDE.md from Root down to Dir, the .mcp.json files (Claude Code's
// MCP servers) at Root and Dir and OtherClientMCPFiles, which name
// commands cairn would start.
// Names are matched without regard to case, since a file system that
// ignores case serves AGENTS.md for Agents.md, and cairn also reads the
// upper-case spellings pi uses. With ClaudeSettings, Dir/.claude's
// settings.json and settings.local.json count too. So do the extensions
// of Root/.cairn/extensions, which cairn starts from the repository's
// root, and every file those control files name as something to run
// (Project.Scripts: a hook's script, an MCP server's, an extension's),
// marked with ControlFile.Script; one not created yet counts as missing.
// A command whose files cannot be known makes the scan unsure. No file is
// read past the project: a symbolic link that leaves it is recorded as a
// link, and a script outside it by its name alone.
func (p Project) Scan() Scan {
	s := scanner{root: p.Root, budget: maxBytes, walked: map[string]bool{}}
	for _, dir := range p.dirs() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			mcp := (dir == p.Root || dir == p.Dir) && strings.EqualFold(name, ".mcp.json")
			if (strings.EqualFold(name, "AGENTS.md") || strings.EqualFold(name, "CLAUDE.md") || mcp) && !e.IsDir() {
				s.file(filepath.Join(dir, name))
			}
			if dir == p.Dir && strings.EqualFold(name, ".cairn") {
				s.tree(filepath.Join(dir, name), 0)
			}
			if dir == p.Dir && p.ClaudeSettings && name == ".claude" {
				s.claudeSettings(filepath.Join(dir, name))
			}
		}
	}
	for _, rel := range OtherAgentTrees {
		if _, err := os.Lstat(filepath.Join(p.Dir, rel)); err == nil {
			s.tree(filepath.Join(p.Dir, rel), 0)
		}
	}
	for _, rel := range OtherClientMCPFiles {
		if _, err := os.Lstat(filepath.Join(p.Dir, rel)); err == nil {
			s.file(filepath.Join(p.Dir, rel))
		}
	}
	if ext := extension.ProjectDir(p.Root); p.Root != p.Dir {
		// cairn starts the extensions of the repository's root, where the
		// .cairn walk above does not reach.
		if _, err := os.Lstat(ext); err == nil {
			s.tree(ext, 0)
		}
	}
	scripts, doubts, more := p.scripts()
	s.scripts(scripts)
	for _, d := range doubts {
		s.addAs(d.Path, d)
	}
	s.scan.TooMany = s.scan.TooMany || more
	slices.SortFunc(s.scan.Files, func(a, b ControlFile) int { return strings.Compare(a.Path, b.Path) })
	return s.scan
}

// scripts records the files control files name as something to run,
// except those already recorded: inside the project each is fingerprinted
// like any control file (one that does not exist yet is recorded as
// missing, so creating it is a change); outside, only its name counts.
func (s *scanner) scripts(scripts []Script) {
	listed := map[string]bool{}
	for _, f := range s.scan.Files {
		listed[f.Path] = true
	}
	for _, sc := range scripts {
		if sc.Outside {
			if listed[sc.Path] {
				continue
			}
			listed[sc.Path] = true
			s.addAs(sc.Path, ControlFile{Path: sc.Path, Outside: sc.Path, Script: &sc, sum: "named outside the project"})
			continue
		}
		rel, err := filepath.Rel(s.root, sc.Path)
		if err != nil || listed[filepath.ToSlash(rel)] {
			continue
		}
		listed[filepath.ToSlash(rel)] = true
		before := len(s.scan.Files)
		if _, err := os.Lstat(sc.Path); errors.Is(err, fs.ErrNotExist) {
			s.add(sc.Path, ControlFile{sum: "missing"})
		} else if !s.leadsOut(sc.Path) {
			s.file(sc.Path)
		}
		for i := before; i < len(s.scan.Files); i++ {
			s.scan.Files[i].Script = &sc
		}
	}
}

// leadsOut records the file at path when a directory on its way is a
// link out of the project (`tools -> /elsewhere`), so that its content,
// which the project does not hold, is not read, and reports whether it
// did.
func (s *scanner) leadsOut(path string) bool {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil || s.inside(dir) {
		return false
	}
	s.add(path, ControlFile{Outside: filepath.Join(dir, filepath.Base(path)), sum: "in a directory out of the project " + dir})
	return true
}

// claudeSettings records the Claude Code settings files in dir, the
// project's .claude directory, which name hook commands.
func (s *scanner) claudeSettings(dir string) {
	for _, name := range []string{"settings.json", "settings.local.json"} {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err == nil {
			s.file(p)
		}
	}
}

// scanner gathers one Scan.
type scanner struct {
	root   string
	budget int64
	scan   Scan
	// walked holds the directories listed so far, resolved: a link back
	// to one adds nothing its files' own sums do not already cover.
	walked map[string]bool
}

// inside reports whether the resolved path real lies in the project.
func (s *scanner) inside(real string) bool {
	rel, err := filepath.Rel(s.root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// add records a file found at path (as cairn reads it), if there is room.
func (s *scanner) add(path string, f ControlFile) {
	rel, err := filepath.Rel(s.root, path)
	if err != nil {
		rel = path
	}
	s.addAs(filepath.ToSlash(rel), f)
}

// addAs records f under the name name, if there is room.
func (s *scanner) addAs(name string, f ControlFile) {
	if len(s.scan.Files) >= maxFiles {
		s.scan.TooMany = true
		return
	}
	f.Path = name
	s.scan.Files = append(s.scan.Files, f)
}

// tree records everything under the directory at path, which may be a
// link. depth counts the links to directories followed on the way.
func (s *scanner) tree(path string, depth int) {
	info, err := os.Lstat(path)
	if err != nil {
		return
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, real, ok := s.link(path)
		if !ok {
			return
		}
		if dir, err := os.Stat(real); err != nil || !dir.IsDir() {
			s.file(path)
			return
		}
		if s.walked[real] {
			s.add(path, ControlFile{sum: "link to a listed directory " + target})
			return
		}
		if depth >= maxLinkDepth {
			s.add(path, ControlFile{sum: "link " + target, Doubt: "links to directories nest too deep"})
			return
		}
		depth++
	} else if !info.IsDir() {
		s.file(path)
		return
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		s.walked[real] = true
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		s.add(path, ControlFile{sum: "unreadable directory", Doubt: "cairn cannot list this directory: " + errText(err)})
		return
	}
	for _, e := range entries {
		if len(s.scan.Files) >= maxFiles {
			s.scan.TooMany = true
			return
		}
		child := filepath.Join(path, e.Name())
		if e.IsDir() || e.Type()&fs.ModeSymlink != 0 {
			s.tree(child, depth)
			continue
		}
		s.file(child)
	}
}

// link handles the symbolic link at path. It returns the link's text and
// where it resolves when that is inside the project; otherwise it records
// the link as a file of its own and returns ok false.
func (s *scanner) link(path string) (target, real string, ok bool) {
	target, err := os.Readlink(path)
	if err != nil {
		s.add(path, ControlFile{sum: "unreadable link", Doubt: "cairn cannot read this link: " + errText(err)})
		return "", "", false
	}
	real, err = filepath.EvalSymlinks(path)
	switch {
	case err != nil:
		// Leads nowhere yet. Should its target appear, the sum changes.
		s.add(path, ControlFile{sum: "dangling link " + target})
		return "", "", false
	case !s.inside(real):
		// The resolved path joins the sum, so re-pointing any link of a
		// chain changes it; what lies there does not.
		s.add(path, ControlFile{Outside: target, sum: "link out " + target + " " + real})
		return "", "", false
	}
	return target, real, true
}

// file records the file at path, fingerprinting its bytes with a bounded
// read of its own, or the link it is.
func (s *scanner) file(path string) {
	prefix := ""
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		target, real, ok := s.link(path)
		if !ok {
			return
		}
		if dir, err := os.Stat(real); err == nil && dir.IsDir() {
			// cairn reads no directory by this name.
			s.add(path, ControlFile{sum: "link to a directory " + target})
			return
		}
		prefix = "link " + target + " "
	}
	if s.budget <= 0 {
		s.add(path, ControlFile{sum: "not read", Doubt: fmt.Sprintf("not checked: the control files before it hold more than %s", regfile.Size(maxBytes))})
		return
	}
	data, err := regfile.Read(path, min(maxFileBytes, s.budget))
	s.budget -= int64(len(data))
	switch {
	case errors.Is(err, regfile.ErrTooLarge) && s.budget <= 0:
		s.add(path, ControlFile{sum: "cut", Doubt: fmt.Sprintf("the control files hold more than %s in all, so cairn cannot tell whether this one changed", regfile.Size(maxBytes))})
	case errors.Is(err, regfile.ErrTooLarge):
		s.add(path, ControlFile{sum: "too large", Doubt: fmt.Sprintf("larger than %s, so cairn cannot tell whether it changed", regfile.Size(maxFileBytes))})
	case errors.Is(err, regfile.ErrNotRegular):
		// cairn never reads it; should it become a file, the sum changes.
		s.add(path, ControlFile{sum: prefix + "not a regular file"})
	case err != nil:
		// It may become readable without changing (a chmod), so no
		// fingerprint can stand for it.
		s.add(path, ControlFile{sum: "unreadable", Doubt: errText(err)})
	default:
		h := sha256.Sum256(data)
		s.add(path, ControlFile{sum: prefix + hex.EncodeToString(h[:])})
	}
}

// errText is an error for a person, without the path the listing already
// shows.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
