package extension

import (
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// memberChanged serves version 2's member_changed: a member the host
// reported loading when it answered initialize has ready, failed or been
// cut off. Its entry is replaced, and whoever waits for parts still
// starting (a run's first request) is told.
func (e *extension) memberChanged(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	var p Member
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	switch p.State {
	case "ready", "failed", "loading":
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `state must be "ready", "failed" or "loading", not %q`, jsonrpc2.Echo(p.State))
	}
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	e.mu.Lock()
	i := -1
	for j, mb := range e.members {
		if mb.Name == p.Name && mb.Path == p.Path {
			i = j
		}
	}
	if i < 0 {
		e.mu.Unlock()
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no member %q (%s) was reported at initialize", jsonrpc2.Echo(p.Name), jsonrpc2.Echo(p.Path))
	}
	e.members[i] = p
	e.mu.Unlock()
	e.m.changed()
	return nil, nil
}

// loadingMembers names the members of e still loading, as Starting
// names parts: host:member.
func (e *extension) loadingMembers() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, mb := range e.members {
		if mb.State == "loading" {
			out = append(out, e.cfg.Name+":"+mb.Name)
		}
	}
	return out
}
