package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/atomicfile"
)

// State is what the store knows about a project.
type State int

const (
	// Untrusted: the person has never trusted the project.
	Untrusted State = iota
	// Trusted: the person trusted the project and its control files are as
	// they were then.
	Trusted
	// Changed: the person trusted the project, but its control files have
	// changed since; it must be trusted again.
	Changed
)

// String names the state for messages and logs.
func (s State) String() string {
	switch s {
	case Trusted:
		return "trusted"
	case Changed:
		return "changed since trusted"
	}
	return "untrusted"
}

// Limits on what a fingerprint reads, so a hostile project cannot make
// start-up slow: past them the fingerprint records that it stopped, which
// still changes whenever the files it did read change.
const (
	maxFiles = 2000
	maxBytes = 32 << 20
)

// File returns where trust is stored: <cairnDir>/trusted.json.
func File(cairnDir string) string { return filepath.Join(cairnDir, "trusted.json") }

// Project is a working directory and the project it belongs to.
type Project struct {
	// Root is the nearest directory at or above Dir holding .git, or Dir
	// itself when there is none: context files between Root and Dir come
	// with the repository.
	Root string
	// Dir is the working directory, absolute with symlinks resolved. Trust
	// is keyed by it, since its .cairn/ is the one cairn reads.
	Dir string
}

// Find returns the project of the working directory cwd.
func Find(cwd string) Project {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return Project{Root: cwd, Dir: cwd}
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return Project{Root: dir, Dir: abs}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Project{Root: abs, Dir: abs}
		}
		dir = parent
	}
}

// dirs lists the directories from Root down to Dir.
func (p Project) dirs() []string {
	rel, err := filepath.Rel(p.Root, p.Dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return []string{p.Dir}
	}
	dirs := []string{p.Root}
	cur := p.Root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		dirs = append(dirs, cur)
	}
	return dirs
}

// ControlFiles lists the files of the project that can change what cairn
// does, relative to Root with forward slashes and sorted: every file under
// Dir/.cairn/, each AGENTS.md and CLAUDE.md from Root down to Dir, and the
// .mcp.json files (Claude Code's MCP servers) at Root and Dir, which name
// commands cairn would start. An empty list means there is nothing to
// trust.
func (p Project) ControlFiles() []string {
	var files []string
	add := func(path string) {
		if rel, err := filepath.Rel(p.Root, path); err == nil {
			files = append(files, filepath.ToSlash(rel))
		}
	}
	for _, dir := range p.dirs() {
		names := []string{"AGENTS.md", "CLAUDE.md"}
		if dir == p.Root || dir == p.Dir {
			names = append(names, ".mcp.json")
		}
		for _, name := range names {
			path := filepath.Join(dir, name)
			if info, err := os.Stat(path); err == nil && !info.IsDir() {
				add(path)
			}
		}
	}
	// .cairn itself may be a link; walk what it leads to, naming files by
	// the path cairn reads them through.
	cairnDir := filepath.Join(p.Dir, ".cairn")
	walkRoot := cairnDir
	if real, err := filepath.EvalSymlinks(cairnDir); err == nil {
		walkRoot = real
	}
	_ = filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(files) >= maxFiles {
			return filepath.SkipDir
		}
		// Symlinks count too: the file they lead to is what cairn reads.
		if !d.IsDir() {
			if rel, err := filepath.Rel(walkRoot, path); err == nil {
				add(filepath.Join(cairnDir, rel))
			}
		}
		return nil
	})
	slices.Sort(files)
	return files
}

// Fingerprint hashes the names and contents of the project's control
// files. Two fingerprints are equal exactly when the same files hold the
// same bytes (up to the read limits).
func (p Project) Fingerprint() string {
	h := sha256.New()
	budget := int64(maxBytes)
	for _, rel := range p.ControlFiles() {
		fmt.Fprintf(h, "%q\n", rel)
		path := filepath.Join(p.Root, filepath.FromSlash(rel))
		if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
			// A pipe or a device (a cloned repository can hold one named
			// AGENTS.md) would block the read, or never end.
			fmt.Fprintf(h, "not a regular file: %v\n", info.Mode().Type())
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(h, "unreadable\n")
			continue
		}
		n, _ := io.Copy(h, io.LimitReader(f, budget))
		f.Close()
		budget -= n
		fmt.Fprintf(h, "\n%d\n", n)
		if budget <= 0 {
			fmt.Fprintf(h, "truncated\n")
			break
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Store is the person's record of trusted projects. Its methods are safe
// for concurrent use within one process; the file is replaced atomically,
// so a crash never leaves it half written.
type Store struct {
	// Path is the trust file, normally File(cairnDir).
	Path string
	// Now stamps new entries; nil means time.Now.
	Now func() time.Time

	mu sync.Mutex
}

type entry struct {
	Fingerprint string    `json:"fingerprint"`
	TrustedAt   time.Time `json:"trustedAt"`
}

type fileShape struct {
	Version  int              `json:"version"`
	Projects map[string]entry `json:"projects"`
}

func (s *Store) read() (fileShape, error) {
	f := fileShape{Version: 1, Projects: map[string]entry{}}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read %s: %w", s.Path, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return fileShape{Version: 1, Projects: map[string]entry{}}, fmt.Errorf("%s is not valid JSON (%v): every project counts as untrusted until you fix or delete it", s.Path, err)
	}
	if f.Projects == nil {
		f.Projects = map[string]entry{}
	}
	return f, nil
}

// Check reports whether p is trusted with its control files as they
// are now. A trust file that cannot be read counts as trusting nothing;
// the error says why.
func (s *Store) Check(p Project) (State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	e, ok := f.Projects[p.Dir]
	switch {
	case !ok:
		return Untrusted, err
	case e.Fingerprint != p.Fingerprint():
		return Changed, err
	}
	return Trusted, err
}

// Trust records p as trusted with its control files as they are now. A
// trust file that cannot be parsed is not overwritten.
func (s *Store) Trust(p Project) error {
	return s.update(func(f *fileShape) {
		now := time.Now
		if s.Now != nil {
			now = s.Now
		}
		f.Projects[p.Dir] = entry{Fingerprint: p.Fingerprint(), TrustedAt: now().UTC()}
	})
}

// Forget removes p's trust.
func (s *Store) Forget(p Project) error {
	return s.update(func(f *fileShape) { delete(f.Projects, p.Dir) })
}

func (s *Store) update(change func(*fileShape)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return err
	}
	change(&f)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("save trust: %w", err)
	}
	if err := atomicfile.Write(s.Path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save trust in %s: %w", s.Path, err)
	}
	return nil
}
