package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/atomicfile"
	"github.com/cairn-dev/cairn/core/regfile"
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
	// changed since, or some cannot be fingerprinted whole (see
	// Scan.Sure); it must be trusted again.
	Changed
	// Outdated: the person trusted the project with a cairn that
	// fingerprinted control files another way; it must be trusted again,
	// once.
	Outdated
)

// String names the state for messages and logs.
func (s State) String() string {
	switch s {
	case Trusted:
		return "trusted"
	case Changed:
		return "changed since trusted"
	case Outdated:
		return "trusted by an older cairn"
	}
	return "untrusted"
}

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
	// ClaudeSettings makes Claude Code's settings files in Dir/.claude
	// (settings.json, settings.local.json) control files too: the person
	// opted in to their hooks (hook.Config.ReadClaudeProjectSettings).
	ClaudeSettings bool
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

// entry is one trusted project. Files holds each control file's own
// fingerprint, so one file can be re-recorded alone (see Keep); entries
// written before it existed have none and count as Outdated.
type entry struct {
	Fingerprint string            `json:"fingerprint"`
	Files       map[string]string `json:"files"`
	TrustedAt   time.Time         `json:"trustedAt"`
}

type fileShape struct {
	Version  int              `json:"version"`
	Projects map[string]entry `json:"projects"`
}

func (s *Store) read() (fileShape, error) {
	f := fileShape{Version: 1, Projects: map[string]entry{}}
	data, err := regfile.Read(s.Path, regfile.MaxConfig)
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

// Check reports whether p is trusted with its control files as now
// holds them (now is p.Scan(), taken by the caller so that what it shows
// the person is what was checked). A trust file that cannot be read
// counts as trusting nothing; the error says why.
func (s *Store) Check(p Project, now Scan) (State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	e, ok := f.Projects[p.Dir]
	switch {
	case !ok:
		return Untrusted, err
	case e.Files == nil:
		return Outdated, err
	case !now.Sure() || !maps.Equal(e.Files, now.sums()):
		return Changed, err
	}
	return Trusted, err
}

// Changes lists the control files of p that are not as the person
// trusted them: changed, new or gone, by Path, sorted. It lists nothing
// for a project never trusted, or trusted by an older cairn.
func (s *Store) Changes(p Project, now Scan) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, _ := s.read()
	e, ok := f.Projects[p.Dir]
	if !ok || e.Files == nil {
		return nil
	}
	sums := now.sums()
	var out []string
	for name, sum := range sums {
		if old, ok := e.Files[name]; !ok || old != sum {
			out = append(out, name)
		}
	}
	for name := range e.Files {
		if _, ok := sums[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Trust records p as trusted with its control files as now holds them:
// the scan the person was shown. A trust file that cannot be parsed is
// not overwritten.
func (s *Store) Trust(p Project, now Scan) error {
	return s.update(func(f *fileShape) {
		clock := time.Now
		if s.Now != nil {
			clock = s.Now
		}
		f.Projects[p.Dir] = entry{Fingerprint: now.Fingerprint(), Files: now.sums(), TrustedAt: clock().UTC()}
	})
}

// ErrNotKept is wrapped by Keep's error when the project's control files
// changed in more than the one file cairn wrote.
var ErrNotKept = errors.New("other control files changed")

// Keep keeps p trusted after cairn itself, at the person's request, wrote
// its control file name, a path relative to p.Dir (an "Always allow"
// rule, a project setting):
// otherwise the next start would take the person's own change for a
// stranger's. It records only that file's new fingerprint, and only when
// every other control file is as it was in trusted, the scan this run
// trusted; any other change is left for the next start to ask about. It
// returns the scan to pass as trusted next time.
func (s *Store) Keep(p Project, trusted Scan, name string) (Scan, error) {
	now := p.Scan()
	rel := filepath.Join(p.Dir, name)
	if r, err := filepath.Rel(p.Root, rel); err == nil {
		rel = filepath.ToSlash(r)
	}
	before, after := trusted.sums(), now.sums()
	delete(before, rel)
	delete(after, rel)
	if !now.Sure() || !maps.Equal(before, after) {
		return trusted, fmt.Errorf("cairn saved %s, but %w since you trusted %s, so it does not renew that trust: the next start asks again", rel, ErrNotKept, p.Dir)
	}
	if err := s.Trust(p, now); err != nil {
		return trusted, err
	}
	return now, nil
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
