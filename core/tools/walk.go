package tools

import (
	"context"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// walkEntry is one entry found under a walk's root.
type walkEntry struct {
	rel  string      // slash-separated path from the root
	abs  string      // absolute path
	mode fs.FileMode // type bits only: directory, symlink, ...
}

// walkOptions configure a walk.
type walkOptions struct {
	root   string      // absolute directory to walk
	ignore *ignoreList // rules applying from above root
	// keep says whether an entry belongs in the result; directories are
	// descended into either way. It is called from several goroutines.
	keep func(rel, name string, mode fs.FileMode) bool
}

// walkTree lists the tree under root the way ripgrep and fd see it: hidden
// files included, .git directories and whatever .gitignore and .ignore
// files exclude left out, symbolic links not followed. Directories are read
// in parallel; the result is sorted by path, directories' contents after
// them. Unreadable directories are skipped. It stops early, returning
// ctx.Err(), when ctx ends.
func walkTree(ctx context.Context, opt walkOptions) ([]walkEntry, error) {
	w := &walker{opt: opt, stack: []dirJob{{abs: opt.root, ign: opt.ignore}}, pending: 1}
	w.cond = sync.NewCond(&w.mu)
	stopWatch := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		w.stopped = true
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer stopWatch()

	workers := max(4, 2*runtime.GOMAXPROCS(0))
	found := make([][]walkEntry, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() { found[i] = w.work() })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all []walkEntry
	for _, f := range found {
		all = append(all, f...)
	}
	slices.SortFunc(all, func(a, b walkEntry) int { return comparePaths(a.rel, b.rel) })
	return all, nil
}

// dirJob is a directory waiting to be read, with the rules above it.
type dirJob struct {
	abs, rel string
	ign      *ignoreList
}

// walker shares the directories still to read among its workers.
type walker struct {
	opt     walkOptions
	mu      sync.Mutex
	cond    *sync.Cond
	stack   []dirJob
	pending int // directories queued or being read
	stopped bool
}

// work reads directories until none are left, returning what it kept.
func (w *walker) work() []walkEntry {
	var kept []walkEntry
	for {
		w.mu.Lock()
		for len(w.stack) == 0 && w.pending > 0 && !w.stopped {
			w.cond.Wait()
		}
		if w.stopped || len(w.stack) == 0 {
			w.mu.Unlock()
			return kept
		}
		job := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.mu.Unlock()

		var subdirs []dirJob
		kept, subdirs = w.readDir(job, kept)

		w.mu.Lock()
		w.stack = append(w.stack, subdirs...)
		w.pending += len(subdirs) - 1
		if len(subdirs) > 0 || w.pending == 0 {
			w.cond.Broadcast()
		}
		w.mu.Unlock()
	}
}

// readDir lists one directory, keeping entries and returning its
// subdirectories to descend into.
func (w *walker) readDir(job dirJob, kept []walkEntry) ([]walkEntry, []dirJob) {
	entries, err := os.ReadDir(job.abs)
	if err != nil {
		return kept, nil
	}
	ign := job.ign
	for _, name := range ignoreFileNames {
		if _, ok := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, n string) int {
			return strings.Compare(e.Name(), n)
		}); ok {
			ign = ign.withFile(job.abs, job.abs+"/"+name)
		}
	}
	var subdirs []dirJob
	prefix := job.abs + "/"
	if job.abs == "/" {
		prefix = "/"
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		mode := e.Type()
		abs := prefix + name
		if ign != nil && ign.ignored(abs, name, mode.IsDir()) {
			continue
		}
		rel := name
		if job.rel != "" {
			rel = job.rel + "/" + name
		}
		if mode.IsDir() {
			subdirs = append(subdirs, dirJob{abs: abs, rel: rel, ign: ign})
		}
		if w.opt.keep(rel, name, mode) {
			kept = append(kept, walkEntry{rel: rel, abs: abs, mode: mode})
		}
	}
	return kept, subdirs
}

// comparePaths orders slash-separated paths so that a directory's contents
// follow it directly ("a/b" before "a-b").
func comparePaths(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca == '/' {
			return -1
		}
		if cb == '/' {
			return 1
		}
		return int(ca) - int(cb)
	}
	return len(a) - len(b)
}
