package pihome

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"time"
)

// pi guards auth.json with the npm package proper-lockfile: the lock is a
// directory named auth.json.lock, made with mkdir (which only one process
// can win) and freshened (its mtime set) while held. A lock whose mtime is
// older than the stale limit belongs to a process that died and may be
// removed. cairn takes the same lock, so a refresh by cairn and one by pi
// never overlap.
const (
	// lockStale is the age after which pi's asynchronous writer (the one
	// that refreshes tokens) treats a lock as abandoned.
	lockStale = 30 * time.Second
	// lockFreshen is how often a held lock's mtime is set. pi's synchronous
	// reader treats a lock as stale after 10 s (proper-lockfile's default),
	// so the lock is freshened well within that.
	lockFreshen = 3 * time.Second
	// lockMaxWait bounds the wait for a lock another process holds, as pi
	// bounds its own (the stale limit).
	lockMaxWait = 30 * time.Second
)

// ErrAuthLocked is returned when another process held pi's auth.json lock
// for longer than cairn waits.
var ErrAuthLocked = errors.New("pi's auth.json is locked by another process")

// authLock is a held lock on pi's auth.json.
type authLock struct {
	path string
	stop chan struct{}
	done chan struct{}
}

// lockAuthFile takes pi's lock on file, waiting (with pi's backoff) at most
// lockMaxWait or until ctx ends. A lock older than lockStale is removed and
// taken, as pi does.
func lockAuthFile(ctx context.Context, file string) (*authLock, error) {
	path := file + ".lock"
	deadline := time.Now().Add(lockMaxWait)
	for retry := 0; ; retry++ {
		err := os.Mkdir(path, 0o777)
		if err == nil {
			l := &authLock{path: path, stop: make(chan struct{}), done: make(chan struct{})}
			go l.freshen()
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", file, err)
		}
		st, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // released between the two calls
		case err != nil:
			return nil, fmt.Errorf("lock %s: %w", file, err)
		case time.Since(st.ModTime()) > lockStale:
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("remove the stale lock %s: %w", path, err)
			}
			continue
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return nil, fmt.Errorf("%w (%s); try again, or remove that directory if no pi or cairn is running", ErrAuthLocked, path)
		}
		base := min(10*time.Millisecond<<min(retry, 10), time.Second)
		wait := min(base+time.Duration(rand.Int64N(int64(base)+1)), remaining)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// freshen sets the lock's mtime until the lock is released, so that no
// other process takes it for abandoned.
func (l *authLock) freshen() {
	defer close(l.done)
	tick := time.NewTicker(lockFreshen)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-tick.C:
			now := time.Now()
			_ = os.Chtimes(l.path, now, now)
		}
	}
}

// release removes the lock.
func (l *authLock) release() {
	close(l.stop)
	<-l.done
	_ = os.Remove(l.path)
}
