package session

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/regfile"
)

// ErrNoSession means there is no session to continue in a directory.
var ErrNoSession = errors.New("no session found")

// Store is where sessions live: one directory per working directory under
// Root, named as pi names them (--home-u-proj--), holding one
// <timestamp>_<uuid>.jsonl file per session.
type Store struct {
	// Root holds the per-project directories, for example
	// ~/.cairn/sessions.
	Root string
	// Dir, when set, holds every session whatever its working directory
	// (pi's --session-dir).
	Dir string
	// Now is the clock for timestamps; nil means time.Now.
	Now func() time.Time
	// Others are further places searched by Latest, List and ListAll (pi's
	// session directory beside cairn's), never written to: new sessions go
	// to Root or Dir.
	Others []Store
}

// places returns s and its Others, each without Others of its own.
func (s Store) places() []Store {
	own := s
	own.Others = nil
	out := []Store{own}
	for _, o := range s.Others {
		o.Others = nil
		if o.Root == own.Root && o.Dir == own.Dir {
			continue
		}
		out = append(out, o)
	}
	return out
}

// ProjectDir returns the directory holding the sessions of cwd.
func (s Store) ProjectDir(cwd string) string {
	if s.Dir != "" {
		return s.Dir
	}
	return filepath.Join(s.Root, Slug(cwd))
}

// Slug is the directory name pi gives the sessions of cwd: the path without
// its leading separator, with /, \ and : replaced by -, between -- and --.
func Slug(cwd string) string {
	if strings.HasPrefix(cwd, "/") || strings.HasPrefix(cwd, `\`) {
		cwd = cwd[1:]
	}
	return "--" + strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(cwd) + "--"
}

// Create starts a new session for cwd. Nothing is written until the first
// assistant message is appended (see File.Append).
func (s Store) Create(cwd string) *File {
	return create(s.ProjectDir(cwd), cwd, "", s.Now)
}

// CreateWithID starts a new session for cwd, as Create does, whose id is
// id (pi's --session-id). id must not hold a path separator.
func (s Store) CreateWithID(cwd, id string) *File {
	return createWithID(s.ProjectDir(cwd), cwd, "", id, s.Now)
}

func create(dir, cwd, parent string, now func() time.Time) *File {
	return createWithID(dir, cwd, parent, "", now)
}

// createWithID is create with the given id, or a new one when id is "".
func createWithID(dir, cwd, parent, id string, now func() time.Time) *File {
	if now == nil {
		now = time.Now
	}
	t := now()
	if id == "" {
		id = newUUID(t)
	}
	h := Header{Version: Version, ID: id, Timestamp: isoTime(t), Cwd: cwd, ParentSession: parent}
	return newFile(newSessionPath(dir, h.Timestamp, h.ID), h, now)
}

// Latest returns the path of the most recently modified session of cwd
// (for --continue), or an error wrapping ErrNoSession. Files whose first
// line is not a session header are ignored. In a directory that holds
// every project's sessions (Dir), only those whose header names cwd count,
// as pi filters its --session-dir.
func (s Store) Latest(cwd string) (string, error) {
	dir := s.ProjectDir(cwd)
	var files []fileStat
	for _, p := range s.places() {
		fs, err := sessionFiles(p.ProjectDir(cwd))
		if err != nil {
			return "", err
		}
		for i := range fs {
			fs[i].flat = p.flat(cwd)
		}
		files = append(files, fs...)
	}
	slices.SortFunc(files, func(a, b fileStat) int { return b.mod.Compare(a.mod) })
	for _, fs := range files {
		if h, err := readHeader(fs.path); err == nil && (!fs.flat || sameCwd(h.Cwd, cwd)) {
			return fs.path, nil
		}
	}
	return "", fmt.Errorf("%w in %s", ErrNoSession, dir)
}

// flat reports whether the sessions of cwd share their directory with other
// projects' (a Dir other than cwd's own directory under Root), so that
// they must be told apart by the cwd in their header.
func (s Store) flat(cwd string) bool {
	return s.Dir != "" && cwd != "" && (s.Root == "" || filepath.Clean(s.Dir) != filepath.Join(s.Root, Slug(cwd)))
}

// sameCwd reports whether a header's cwd names dir, as pi compares them.
func sameCwd(headerCwd, dir string) bool {
	return headerCwd != "" && filepath.Clean(headerCwd) == filepath.Clean(dir)
}

// Info describes a session for a picker.
type Info struct {
	Path          string
	ID            string
	Cwd           string
	Name          string // the latest session_info name, or ""
	ParentSession string
	Created       time.Time // from the header
	Modified      time.Time // the file's modification time
	// LastEntry is when the newest entry was written, from its timestamp:
	// the session's last activity, which a copied or touched file's
	// modification time does not tell. Zero when no entry has one.
	LastEntry    time.Time
	MessageCount int // message entries on every branch
	// FirstMessage is the text of the first user message, or "".
	FirstMessage string
}

// List describes every session of cwd, most recently modified first (for
// --resume). Files that are not sessions are left out, and in a directory
// shared by every project (Dir) so are other projects' sessions.
func (s Store) List(cwd string) ([]Info, error) {
	var files []fileStat
	for _, p := range s.places() {
		fs, err := sessionFiles(p.ProjectDir(cwd))
		if err != nil {
			return nil, err
		}
		for i := range fs {
			fs[i].flat = p.flat(cwd)
		}
		files = append(files, fs...)
	}
	var out []Info
	for _, fs := range files {
		info, err := describe(fs.path)
		if err != nil || fs.flat && !sameCwd(info.Cwd, cwd) {
			continue
		}
		info.Modified = fs.mod
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b Info) int { return b.Modified.Compare(a.Modified) })
	return out, nil
}

// ListAll describes the sessions of every working directory, most
// recently modified first (ACP's session/list without a directory).
// Directories that cannot be read are left out.
func (s Store) ListAll() ([]Info, error) {
	if len(s.Others) > 0 {
		var out []Info
		for _, p := range s.places() {
			infos, err := p.ListAll()
			if err != nil {
				return nil, err
			}
			out = append(out, infos...)
		}
		slices.SortFunc(out, func(a, b Info) int { return b.Modified.Compare(a.Modified) })
		return out, nil
	}
	if s.Dir != "" {
		return s.List("")
	}
	dirs, err := os.ReadDir(s.Root)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []Info
	for _, d := range dirs {
		if !d.IsDir() || !strings.HasPrefix(d.Name(), "--") {
			continue
		}
		files, err := sessionFiles(filepath.Join(s.Root, d.Name()))
		if err != nil {
			continue
		}
		for _, fs := range files {
			if info, err := describe(fs.path); err == nil {
				info.Modified = fs.mod
				out = append(out, info)
			}
		}
	}
	slices.SortFunc(out, func(a, b Info) int { return b.Modified.Compare(a.Modified) })
	return out, nil
}

// ForkFrom copies every entry of the session at src into a new session of
// cwd whose header names src as its parent (pi's --session with a session
// of another project). It is written at once.
func (s Store) ForkFrom(src, cwd string) (*File, error) {
	from, err := Open(src)
	if err != nil {
		return nil, err
	}
	defer from.Close()
	from.mu.Lock()
	defer from.mu.Unlock()
	all := make([]int, len(from.nodes))
	for i := range all {
		all[i] = i
	}
	now := s.Now
	if now == nil {
		now = time.Now
	}
	t := now()
	h := Header{Version: Version, ID: newUUID(t), Timestamp: isoTime(t), Cwd: cwd, ParentSession: src}
	path := newSessionPath(s.ProjectDir(cwd), h.Timestamp, h.ID)
	if err := from.writeCopy(path, h, all, nil); err != nil {
		return nil, fmt.Errorf("fork %s: %w", src, err)
	}
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	f.now = now
	return f, nil
}

type fileStat struct {
	path string
	mod  time.Time
	flat bool // in a directory shared by every project (see Store.flat)
}

// sessionFiles lists the .jsonl files of dir; a missing dir has none.
func sessionFiles(dir string) ([]fileStat, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []fileStat
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, fileStat{path: filepath.Join(dir, e.Name()), mod: fi.ModTime()})
	}
	return out, nil
}

// readHeader reads and checks the first line of a file. Like describe, it
// reads only a regular file (see regfile): a named pipe among the sessions
// must not hang a listing.
func readHeader(path string) (Header, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer fh.Close()
	lr := newLineReader(io.LimitReader(fh, 1<<20))
	line, _, _, err := lr.next()
	if err != nil {
		return Header{}, fmt.Errorf("%w: %v", ErrNotSession, err)
	}
	var d decoder
	return d.header(line)
}

// userText returns the text of a user message entry, its blocks joined by
// spaces as pi shows it, or "".
func userText(p Payload) string {
	me, ok := p.(*MessageEntry)
	if !ok {
		return ""
	}
	um, ok := me.Message.(*core.UserMessage)
	if !ok {
		return ""
	}
	var parts []string
	for _, c := range um.Content {
		if c.Type == core.ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, " ")
}

// isoTime formats t as JavaScript's toISOString does.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// fileTimestamp turns an ISO timestamp into the file-name form pi uses.
func fileTimestamp(ts string) string { return strings.NewReplacer(":", "-", ".", "-").Replace(ts) }

// newUUID returns a time-ordered (version 7) UUID for t, as pi uses for
// session ids.
func newUUID(t time.Time) string {
	var b [16]byte
	rand.Read(b[:])
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// newEntryID returns 8 random hex digits not yet used in the session, as pi
// does (falling back to a whole UUID after 100 collisions).
func (f *File) newEntryID() string {
	for range 100 {
		var b [4]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if _, taken := f.byID[id]; !taken {
			return id
		}
	}
	return newUUID(f.now())
}
