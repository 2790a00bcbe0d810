package extension

// Version 2's reload: pi's ctx.reload, which cairn answers by starting
// every extension again.

import (
	"context"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// MethodReload starts every extension again (pi's ctx.reload): each is
// told session_shutdown (reason "reload"), stopped, started, and told
// session_start (reason "reload"). cairn answers at once; the extension
// that asked is among those stopped.
const MethodReload = "reload"

// reloadShutdownLimit bounds each extension's session_shutdown before a
// reload stops it.
const reloadShutdownLimit = 5 * time.Second

// reload serves MethodReload.
func (e *extension) reload(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	if err := decodeParams(m.Params, &struct{}{}); err != nil {
		return nil, err
	}
	if e.m.closing() {
		return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
	}
	go e.m.Reload()
	return nil, nil
}

// Reload starts every running extension again, in parallel, and returns
// once each is ready or has failed (each start bounded by StartTimeout).
// Its tools, commands and events are those its new process registers.
func (m *Manager) Reload() {
	var wg sync.WaitGroup
	for _, e := range m.exts {
		if st, _ := e.snapshot(); st != Ready {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.restart()
		}()
	}
	wg.Wait()
}

// restart stops the extension's process and starts a new one.
func (e *extension) restart() {
	if e.handles("session_shutdown") {
		ctx, cancel := context.WithTimeout(context.Background(), reloadShutdownLimit)
		_, _ = e.event(ctx, "session_shutdown", map[string]any{"type": "session_shutdown", "reason": "reload"})
		cancel()
	}
	e.mu.Lock()
	e.reloads++
	e.mu.Unlock()
	e.stop()
	if e.m.closing() {
		return
	}
	e.mu.Lock()
	e.state, e.err = Starting, nil
	e.tools, e.commands, e.events, e.members, e.version = nil, nil, nil, nil, 0
	e.conn, e.cmd = nil, nil
	e.exited = make(chan struct{})
	e.startReason = "reload"
	e.mu.Unlock()
	e.m.changed()
	e.start(context.Background())
}

// reloadCount counts the extension's reloads: a call that fails while
// the count changes was cut short by a reload, and did not fail.
func (e *extension) reloadCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reloads
}
