package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/atomicfile"
)

// Limits bound what one checkpoint keeps. A file over a limit is recorded
// as unkept, with the reason.
type Limits struct {
	// MaxFileBytes is the largest file whose contents are kept.
	MaxFileBytes int64
	// MaxTotalBytes is the most file content one checkpoint covers,
	// counting unchanged files too; files past it, in walk order, are
	// recorded as unkept.
	MaxTotalBytes int64
}

// DefaultLimits keep files up to 8 MiB, 512 MiB in all per checkpoint.
var DefaultLimits = Limits{MaxFileBytes: 8 << 20, MaxTotalBytes: 512 << 20}

// Retention says which checkpoints gc keeps: the newest Keep, and of
// those only as many, newest first, as fit in MaxBytes of objects (the
// newest is always kept).
type Retention struct {
	Keep     int
	MaxBytes int64
}

// DefaultRetention keeps the newest 200 checkpoints within 2 GiB.
var DefaultRetention = Retention{Keep: 200, MaxBytes: 2 << 30}

// Options configure a Store.
type Options struct {
	// Project is the directory whose files are recorded.
	Project string
	// Dir is the store's directory (see DirFor).
	Dir       string
	Limits    Limits
	Retention Retention
	// Now is the clock for checkpoint times; nil means time.Now.
	Now func() time.Time
}

// DirFor returns the store directory of project under cairnDir (~/.cairn
// or CAIRN_DIR): checkpoints/<base>-<hash of the absolute path>.
func DirFor(cairnDir, project string) string {
	abs, err := filepath.Abs(project)
	if err != nil {
		abs = project
	}
	sum := sha256.Sum256([]byte(abs))
	base := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' {
			return '_'
		}
		return r
	}, filepath.Base(abs))
	if base == "." || base == ".." || base == "" {
		base = "root"
	}
	return filepath.Join(cairnDir, "checkpoints", base+"-"+hex.EncodeToString(sum[:6]))
}

// Phase says when a checkpoint was taken.
type Phase string

// The phases of checkpoints.
const (
	// PhaseBefore is taken before a prompt runs.
	PhaseBefore Phase = "before"
	// PhaseAfter is taken when a prompt settles.
	PhaseAfter Phase = "after"
	// PhaseUndo is taken before a rewind changes files: rewinding to it
	// undoes the rewind (redo).
	PhaseUndo Phase = "undo"
	// PhaseRestored is taken when a rewind has changed files.
	PhaseRestored Phase = "restored"
	// PhaseManual is taken on request (tests, tools).
	PhaseManual Phase = "manual"
)

// Checkpoint is one recorded state of the project's files.
type Checkpoint struct {
	ID    string    `json:"id"`
	Time  time.Time `json:"time"`
	Phase Phase     `json:"phase"`
	// Root names the tree of the project directory.
	Root string `json:"root"`
	// Label is a short description (the prompt's first line).
	Label string `json:"label,omitempty"`
	// Added is how many bytes of new blobs this checkpoint stored.
	Added int64 `json:"added"`
	// Unkept lists the entries whose contents this checkpoint could not
	// keep (at most maxUnkeptListed; UnkeptCount is the full count).
	Unkept      []Unkept `json:"unkept,omitempty"`
	UnkeptCount int      `json:"unkeptCount,omitempty"`
}

// Unkept is a path whose contents a checkpoint could not keep, and why.
type Unkept struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// maxUnkeptListed bounds the unkept paths a checkpoint record lists.
const maxUnkeptListed = 1000

// ErrNoCheckpoint is returned for a checkpoint id the store does not hold.
var ErrNoCheckpoint = errors.New("no such checkpoint")

// Store is one project's checkpoints. Its methods are safe for concurrent
// use; a scan and a restore never run at the same time.
type Store struct {
	opts Options
	dir  string
	root string

	mu sync.Mutex
	// trees caches decoded trees by hash (trees never change).
	trees map[Hash]Tree
	// last is the root tree of the newest scan, the base the next scan
	// compares stats against.
	last    Hash
	hasLast bool
	// head is the id of the newest record this Store wrote.
	head string
	objects
}

// Open returns the store of opts.Project in opts.Dir, creating the
// directory. Zero limits and retention take the defaults.
func Open(opts Options) (*Store, error) {
	if opts.Limits.MaxFileBytes <= 0 {
		opts.Limits.MaxFileBytes = DefaultLimits.MaxFileBytes
	}
	if opts.Limits.MaxTotalBytes <= 0 {
		opts.Limits.MaxTotalBytes = DefaultLimits.MaxTotalBytes
	}
	if opts.Retention.Keep <= 0 {
		opts.Retention.Keep = DefaultRetention.Keep
	}
	if opts.Retention.MaxBytes <= 0 {
		opts.Retention.MaxBytes = DefaultRetention.MaxBytes
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	root, err := filepath.Abs(opts.Project)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: project %s: %w", opts.Project, err)
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: store %s: %w", opts.Dir, err)
	}
	for _, sub := range []string{packsDir, "records"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("checkpoints: create store: %w", err)
		}
	}
	s := &Store{opts: opts, dir: dir, root: root, trees: map[Hash]Tree{}}
	s.openObjects(dir)
	if cp, err := s.Head(); err == nil {
		if h, err := ParseHash(cp.Root); err == nil {
			s.last, s.hasLast = h, true
		}
	}
	return s, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Project returns the directory whose files are recorded.
func (s *Store) Project() string { return s.root }

// tree returns the tree named h, from the cache or the store.
func (s *Store) tree(h Hash) (Tree, error) {
	if t, ok := s.trees[h]; ok {
		return t, nil
	}
	b, err := s.object(objTree, h)
	if errors.Is(err, errDamaged) {
		return nil, fmt.Errorf("tree %s: %w: %v", h, ErrBadTree, err)
	}
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	t, err := DecodeTree(b)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	s.trees[h] = t
	return t, nil
}

// putTree stores t and returns its hash.
func (s *Store) putTree(t Tree) (Hash, error) {
	b := t.Encode()
	h := hashOf(b)
	if _, err := s.writeObject(objTree, h, b); err != nil {
		return h, err
	}
	s.trees[h] = t
	return h, nil
}

// newID returns a checkpoint id that sorts by time.
func newID(t time.Time) string {
	return t.UTC().Format("20060102T150405.000000000Z") + "-" + core.NewEntryID()
}

// validID reports whether id can name a record file.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '-') {
			return false
		}
	}
	return id[0] != '.'
}

func (s *Store) recordPath(id string) string {
	return filepath.Join(s.dir, "records", id+".json")
}

// saveRecord writes cp's record. The newest record is the head: no
// second file names it (stores of older cairns have a HEAD file, which
// is no longer read).
func (s *Store) saveRecord(cp *Checkpoint) error {
	b, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteUnsynced(s.recordPath(cp.ID), b, 0o600); err != nil {
		return fmt.Errorf("checkpoints: write record: %w", err)
	}
	s.head = cp.ID
	return nil
}

// Load returns the checkpoint id.
func (s *Store) Load(id string) (*Checkpoint, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%w: %q", ErrNoCheckpoint, id)
	}
	b, err := os.ReadFile(s.recordPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s (removed by retention, or never taken here)", ErrNoCheckpoint, id)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoints: read %s: %w", id, err)
	}
	var cp Checkpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, fmt.Errorf("checkpoints: record %s is damaged: %w", id, err)
	}
	if cp.ID != id {
		return nil, fmt.Errorf("checkpoints: record %s names %q", id, cp.ID)
	}
	if _, err := ParseHash(cp.Root); err != nil {
		return nil, fmt.Errorf("checkpoints: record %s: %w", id, err)
	}
	return &cp, nil
}

// Head returns the newest checkpoint: the last this Store recorded, else
// the newest whole record in the store (ids sort by time).
func (s *Store) Head() (*Checkpoint, error) {
	if s.head != "" {
		if cp, err := s.Load(s.head); err == nil {
			return cp, nil
		}
	}
	ids, _ := s.recordIDs()
	for i := len(ids) - 1; i >= 0; i-- {
		if cp, err := s.Load(ids[i]); err == nil {
			return cp, nil
		}
	}
	return nil, fmt.Errorf("%w: none recorded yet", ErrNoCheckpoint)
}

// recordIDs returns the ids of the records in the store, sorted.
func (s *Store) recordIDs() ([]string, error) {
	names, err := readDirNames(filepath.Join(s.dir, "records"))
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, name := range names {
		if id, ok := strings.CutSuffix(name, ".json"); ok && validID(id) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// List returns every checkpoint, oldest first. Damaged records are
// skipped and returned as errors beside the list.
func (s *Store) List() ([]Checkpoint, []error) {
	ids, err := s.recordIDs()
	if err != nil {
		return nil, []error{fmt.Errorf("checkpoints: list: %w", err)}
	}
	var out []Checkpoint
	var errs []error
	for _, id := range ids {
		cp, err := s.Load(id)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, *cp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, errs
}
