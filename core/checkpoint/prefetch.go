package checkpoint

import (
	"path/filepath"
	"runtime"
	"sync"
)

// maxListers bounds the goroutines that list directories ahead of a scan.
const maxListers = 3

// prefetcher lists a scan's directories ahead of it on the other cores:
// listing and stating every entry is nearly all a scan's time, and the
// walk that compares, reads and stores (in walk order, for the limits)
// stays on one goroutine. The walk asks for each directory with get; a
// directory no lister has started yet it lists itself.
type prefetcher struct {
	root string
	skip func(dirAbs string) func(name string) bool
	// buf is the walk's own getdents buffer.
	buf []byte

	mu      sync.Mutex
	wake    *sync.Cond
	pending []string // directories to list, in the order found
	dirs    map[string]*listing
	stopped bool
	listers int
	wg      sync.WaitGroup
}

// listing is one directory's entries, as listDir returns them.
type listing struct {
	ents []Entry
	err  error
	done chan struct{}
}

// newPrefetcher starts listers for the scan of root (none on one core);
// stop ends them.
func newPrefetcher(root string, skip func(dirAbs string) func(name string) bool) *prefetcher {
	p := &prefetcher{root: root, skip: skip, buf: make([]byte, dirBufSize), dirs: map[string]*listing{}}
	p.wake = sync.NewCond(&p.mu)
	p.listers = min(runtime.GOMAXPROCS(0)-1, maxListers)
	for range p.listers {
		p.wg.Add(1)
		go p.lister()
	}
	return p
}

// get returns the entries of the directory rel (slash-separated, relative
// to the root), listing it now unless a lister has.
func (p *prefetcher) get(rel string) ([]Entry, error) {
	p.mu.Lock()
	l, claimed := p.dirs[rel]
	if !claimed {
		l = &listing{done: make(chan struct{})}
		p.dirs[rel] = l
	}
	p.mu.Unlock()
	if !claimed {
		p.fill(rel, l, p.buf)
	}
	<-l.done
	// The listing stays claimed, so no lister lists it again; the walk
	// owns its entries now.
	ents, err := l.ents, l.err
	l.ents = nil
	return ents, err
}

// lister lists pending directories until stop.
func (p *prefetcher) lister() {
	defer p.wg.Done()
	buf := make([]byte, dirBufSize)
	for {
		p.mu.Lock()
		for len(p.pending) == 0 && !p.stopped {
			p.wake.Wait()
		}
		if p.stopped {
			p.mu.Unlock()
			return
		}
		// The oldest queued is the one the walk reaches last: the walk
		// goes forward from the first directory, the listers backward
		// from the last, and they meet in the middle.
		rel := p.pending[0]
		p.pending = p.pending[1:]
		_, claimed := p.dirs[rel]
		var l *listing
		if !claimed {
			l = &listing{done: make(chan struct{})}
			p.dirs[rel] = l
		}
		p.mu.Unlock()
		if !claimed {
			p.fill(rel, l, buf)
		}
	}
}

// fill lists rel into l and queues its subdirectories.
func (p *prefetcher) fill(rel string, l *listing, buf []byte) {
	abs := filepath.Join(p.root, filepath.FromSlash(rel))
	ents, err := listDir(abs, rel == "", buf, p.skip(abs))
	if p.listers > 0 {
		p.mu.Lock()
		n := len(p.pending)
		for i := len(ents) - 1; i >= 0; i-- { // last first: the walk reaches it last
			if ents[i].Kind == 0 && ents[i].Mode.IsDir() {
				p.pending = append(p.pending, join(rel, ents[i].Name))
			}
		}
		if len(p.pending) > n && !p.stopped {
			p.wake.Broadcast()
		}
		p.mu.Unlock()
	}
	// Written before done is closed, read after: done orders them.
	l.ents, l.err = ents, err
	close(l.done)
}

// stop ends the listers and waits for them.
func (p *prefetcher) stop() {
	p.mu.Lock()
	p.stopped = true
	p.pending = nil
	p.wake.Broadcast()
	p.mu.Unlock()
	p.wg.Wait()
}

// entryLists keeps the entry slices of directories a scan found unchanged
// (nearly all of them) for the next listings, so a scan of a tree that
// changed little allocates little but names.
var entryLists sync.Pool

// entriesFor returns an empty slice with room for n entries.
func entriesFor(n int) []Entry {
	if p, _ := entryLists.Get().(*[]Entry); p != nil && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]Entry, 0, n)
}

// recycle gives back a slice no one uses any more.
func recycle(s []Entry) {
	clear(s[:cap(s)]) // let go of the names it holds
	entryLists.Put(&s)
}
