package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/cairn-dev/cairn/core/agent"
)

// rewindMethod is cairn's own method, named in the protocol's
// namespace.verb style under a namespace of its own, so that neither the
// shipped terminal nor a later version of the protocol can mean something
// else by it: go back some queries, restoring the project's files, the
// conversation or both; or undo the last rewind; or preview one.
const rewindMethod = "cairn.rewind"

// rewindLimit bounds a rewind: the cancelled query winding down, then
// the files and the conversation going back.
const rewindLimit = 2 * time.Minute

// rewindPreview is the result for "preview": true; nothing was changed.
type rewindPreview struct {
	Preview bool `json:"preview"`
	*agent.RewindPreview
}

// rewind serves cairn.rewind{steps?, restore?, redo?, preview?}, read and
// done by the core as in every adapter, on the reader: the requests after
// it see its result. The query running is cancelled first and the queued
// ones are dropped, each ending with its stream.complete "cancelled"
// before the result.
func (c *conn) rewind(params json.RawMessage) (any, *Error) {
	if params == nil || bytes.Equal(params, []byte("null")) {
		params = json.RawMessage(`{}`)
	}
	args, err := agent.DecodeRewindArgs(params)
	if err != nil {
		return nil, errorf(CodeInvalidParams, "%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), rewindLimit)
	defer cancel()
	ans, err := c.sess.AnswerRewind(ctx, args, c.stopForRewind)
	switch {
	case err != nil:
		return nil, errorf(CodeAgentError, "%v", err)
	case ans.Preview != nil:
		return rewindPreview{Preview: true, RewindPreview: ans.Preview}, nil
	}
	return ans.Report, nil
}

// stopForRewind cancels the running query as agent.cancel does and ends
// the queued ones, so none starts while the rewind changes the session.
func (c *conn) stopForRewind() {
	c.mu.Lock()
	running, queued := c.running, c.queued
	c.queued = nil
	c.mu.Unlock()
	for _, q := range queued {
		c.completeCancelled(q.id)
	}
	if running != "" {
		c.sub.Mark(cancelMark{id: running})
	}
}
