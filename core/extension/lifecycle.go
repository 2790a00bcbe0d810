package extension

// Version 2's session lifecycle calls: compact and request_shutdown.

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// Compacter is a Host that compacts the conversation for an extension
// (protocol version 2's compact); *agent.Session is one. An active prompt
// is aborted first, as pi's ctx.compact does.
type Compacter interface {
	Compact(ctx context.Context, instructions string) (core.CompactionResult, error)
}

// Shutdowner is a Host that ends the session for an extension once the
// agent is idle (protocol version 2's request_shutdown, pi's
// ctx.shutdown). RequestShutdown returns at once; the front end ends the
// session as its own quit does.
type Shutdowner interface {
	RequestShutdown() error
}

// compactTimeout bounds a compaction an extension asked for: the summary
// is one model request, which has its own limits; this is the outer one.
const compactTimeout = 10 * time.Minute

// lifecycle serves compact and request_shutdown.
func (e *extension) lifecycle(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
	}
	if m.Method == MethodRequestShutdown {
		if err := decodeParams(m.Params, &struct{}{}); err != nil {
			return nil, err
		}
		s, ok := h.(Shutdowner)
		if !ok {
			return nil, jsonrpc2.Errorf(CodeRefused, "this front end cannot be shut down by an extension; quit it as usual")
		}
		if err := s.RequestShutdown(); err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		return nil, nil
	}
	var p CompactParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	c, ok := h.(Compacter)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "this session cannot be compacted")
	}
	ctx, cancel := context.WithTimeout(context.Background(), compactTimeout)
	defer cancel()
	r, err := c.Compact(ctx, p.CustomInstructions)
	if err != nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
	}
	return CompactResult{Summary: r.Summary, FirstKeptEntryID: r.FirstKeptEntryID, TokensBefore: r.TokensBefore}, nil
}
