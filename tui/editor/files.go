package editor

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"
)

// maxFileItems is how many matches the `@` popup shows.
const maxFileItems = 8

// listTimeout bounds how long listing files may take.
const listTimeout = 10 * time.Second

// fileIndex is the list of paths `@` completes against: files relative to
// the working directory, with "/" separators, and the directories holding
// them with a trailing "/". Shallow paths come first, so an empty query
// shows the top of the tree.
type fileIndex struct {
	cwd   string
	paths []string
	ready bool
	// generation tells the latest listing from older ones still running.
	generation int
}

// filesIndexed is the result of listing the files.
type filesIndexed struct {
	generation int
	paths      []string
}

// indexFiles returns the command that lists the files under cwd: through
// git when useGit is set and cwd is in a work tree (tracked and untracked
// files, ignored ones left out), else by walking the tree without .git,
// node_modules and other dot-directories. At most limit files are listed.
func indexFiles(cwd string, useGit bool, limit, generation int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
		defer cancel()
		var files []string
		err := errors.ErrUnsupported
		if useGit {
			files, err = gitFiles(ctx, cwd, limit)
		}
		if err != nil {
			files = walkFiles(ctx, cwd, limit)
		}
		return InternalMsg{filesIndexed{generation: generation, paths: withDirs(files)}}
	}
}

func gitFiles(ctx context.Context, cwd string, limit int) ([]string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	cmd.Dir = cwd
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var files []string
	r := bufio.NewReader(out)
	for len(files) < limit {
		name, err := r.ReadString(0)
		if err != nil {
			break
		}
		files = append(files, name[:len(name)-1])
	}
	if len(files) == limit {
		// Enough: stop git rather than read the rest.
		cancel()
		_ = cmd.Wait()
		return files, nil
	}
	if err := cmd.Wait(); err != nil {
		return nil, err
	}
	return files, nil
}

func walkFiles(ctx context.Context, cwd string, limit int) []string {
	var files []string
	_ = filepath.WalkDir(cwd, func(path string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); path != cwd && (name == "node_modules" || strings.HasPrefix(name, ".")) {
				return fs.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(cwd, path)
		if err != nil {
			return nil
		}
		files = append(files, filepath.ToSlash(rel))
		if len(files) >= limit {
			return fs.SkipAll
		}
		return nil
	})
	return files
}

// withDirs adds the directories of files and orders the whole list by
// depth, then name.
func withDirs(files []string) []string {
	seen := map[string]bool{}
	paths := slices.Clone(files)
	for _, f := range files {
		for i := strings.LastIndexByte(f, '/'); i > 0; i = strings.LastIndexByte(f[:i], '/') {
			dir := f[:i+1]
			if seen[dir] {
				break
			}
			seen[dir] = true
			paths = append(paths, dir)
		}
	}
	slices.SortFunc(paths, func(a, b string) int {
		if da, db := depth(a), depth(b); da != db {
			return da - db
		}
		return strings.Compare(a, b)
	})
	return paths
}

func depth(p string) int { return strings.Count(strings.TrimSuffix(p, "/"), "/") }

// maxRanked is how many candidates a match ranks with the fuzzy scorer,
// which costs about a microsecond a path. When more paths match, those
// holding the query as a substring of their base name are ranked first,
// then those holding it anywhere, then the rest, shallow paths before deep
// ones; each letter typed narrows the set until all are ranked.
const maxRanked = 5000

// fileMatchJob is one fuzzy match of the file index, run off the UI loop.
// It looks only at cands (indexes into paths; nil means all), and stops
// early when stop is set because a newer query superseded it.
type fileMatchJob struct {
	seq   int
	query string
	paths []string
	cands []int32
	stop  *atomic.Bool
}

// fileMatches is the result of a fileMatchJob: the best paths, and the
// indexes of every path that may match, from which a longer query narrows
// (nil when the query cannot narrow).
type fileMatches struct {
	seq     int
	query   string
	best    []string
	matched []int32
}

func (j fileMatchJob) run() tea.Msg {
	if j.query == "" {
		return InternalMsg{fileMatches{seq: j.seq, best: j.paths[:min(len(j.paths), maxFileItems)]}}
	}
	q := strings.ToLower(j.query)
	ascii := isASCII(q)
	var kept []int32
	var tiers [3][]int32
	consider := func(i int32) {
		p := j.paths[i]
		if ascii && !mayMatch(p, []byte(q)) {
			return
		}
		kept = append(kept, i)
		switch base := p[strings.LastIndexByte(strings.TrimSuffix(p, "/"), '/')+1:]; {
		case containsFold(base, q):
			tiers[0] = append(tiers[0], i)
		case containsFold(p, q):
			tiers[1] = append(tiers[1], i)
		default:
			tiers[2] = append(tiers[2], i)
		}
	}
	if j.cands == nil {
		for i := range j.paths {
			consider(int32(i))
		}
	} else {
		for _, i := range j.cands {
			consider(i)
		}
	}
	ranked := make([]int32, 0, min(len(kept), maxRanked))
	for _, t := range tiers {
		ranked = append(ranked, t[:min(len(t), maxRanked-len(ranked))]...)
	}
	stopped := false
	seq := func(yield func(string) bool) {
		for n, i := range ranked {
			if n%256 == 0 && j.stop.Load() {
				stopped = true
				return
			}
			if !yield(j.paths[i]) {
				return
			}
		}
	}
	found := fuzzy.FindFromIterNoSort(j.query, seq)
	if stopped {
		return nil
	}
	// Best first; among equals, the ranking order.
	slices.SortStableFunc(found, func(a, b fuzzy.Match) int { return b.Score - a.Score })
	res := fileMatches{seq: j.seq, query: j.query}
	if ascii {
		res.matched = kept
	}
	for _, f := range found {
		if len(res.best) == maxFileItems {
			break
		}
		// A directory the query already names has nothing left to complete.
		if !(f.Str == j.query && strings.HasSuffix(f.Str, "/")) {
			res.best = append(res.best, f.Str)
		}
	}
	return InternalMsg{res}
}

// containsFold reports whether s contains the lower-case q, ignoring case
// in s. Only ASCII letters are folded unless q has other letters.
func containsFold(s, q string) bool {
	if !isASCII(q) {
		return strings.Contains(strings.ToLower(s), q)
	}
	for i := 0; i+len(q) <= len(s); i++ {
		k := 0
		for k < len(q) {
			c := s[i+k]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != q[k] {
				break
			}
			k++
		}
		if k == len(q) {
			return true
		}
	}
	return false
}

// mayMatch reports whether the lower-case ASCII query q could fuzzy-match
// s: its letters appear in s in order, ignoring case. It is a quick filter
// in front of the fuzzy matcher, so it answers yes whenever it cannot
// tell, as for paths with non-ASCII letters.
func mayMatch(s string, q []byte) bool {
	j := 0
	for i := 0; i < len(s) && j < len(q); i++ {
		c := s[i]
		if c >= 0x80 {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c == q[j] {
			j++
		}
	}
	return j == len(q)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
