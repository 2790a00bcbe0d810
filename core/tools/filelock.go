package tools

import (
	"context"
	"path/filepath"
	"sync"
)

// fileLocks serialises changes to one file across concurrent tool calls (a
// model may send two edits of a file in one turn), while changes to
// different files run in parallel. It is process-wide, as files are.
var fileLocks = &lockTable{locks: map[string]*fileLock{}}

type lockTable struct {
	mu    sync.Mutex
	locks map[string]*fileLock
}

type fileLock struct {
	held chan struct{}
	refs int
}

// lock waits for the file at abs to be free, or for ctx to end. The returned
// function releases it.
func (t *lockTable) lock(ctx context.Context, abs string) (func(), error) {
	key := abs
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		key = real
	}
	t.mu.Lock()
	l := t.locks[key]
	if l == nil {
		l = &fileLock{held: make(chan struct{}, 1)}
		t.locks[key] = l
	}
	l.refs++
	t.mu.Unlock()

	select {
	case l.held <- struct{}{}:
		return func() { <-l.held; t.release(key, l) }, nil
	case <-ctx.Done():
		t.release(key, l)
		return nil, ctx.Err()
	}
}

func (t *lockTable) release(key string, l *fileLock) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l.refs--; l.refs == 0 {
		delete(t.locks, key)
	}
}
