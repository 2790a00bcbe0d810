package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
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

// rewindResult is cairn.rewind's result: what was restored and what could
// not be, then the rewind state after it.
type rewindResult struct {
	// Restored is what went back: code, conversation or both.
	Restored       agent.Restore       `json:"restored"`
	Text           string              `json:"text,omitempty"`
	Checkpoint     string              `json:"checkpoint,omitempty"`
	UndoCheckpoint string              `json:"undo_checkpoint,omitempty"`
	Files          []string            `json:"files"`
	NotRestored    []checkpoint.Unkept `json:"not_restored"`
	Outside        []string            `json:"outside"`
	Rewind         *rewindState        `json:"rewind,omitempty"`
}

// rewindPreview is the result for "preview": true; nothing was changed.
type rewindPreview struct {
	Preview      bool                `json:"preview"`
	Text         string              `json:"text"`
	Checkpoint   string              `json:"checkpoint"`
	Changes      []checkpoint.Change `json:"changes"`
	Unrestorable []checkpoint.Unkept `json:"unrestorable"`
	Outside      []string            `json:"outside"`
}

// rewindState is what a rewind can reach now.
type rewindState struct {
	Points  int  `json:"points"`
	CanRedo bool `json:"can_redo"`
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
		pv := ans.Preview
		return rewindPreview{Preview: true, Text: pv.Point.Text, Checkpoint: pv.Point.Checkpoint,
			Changes: pv.Changes, Unrestorable: pv.Unrestorable, Outside: pv.Outside}, nil
	}
	r := ans.Report
	out := rewindResult{Restored: r.Restored, Text: r.Point.Text, Checkpoint: r.Point.Checkpoint,
		UndoCheckpoint: r.UndoCheckpoint, Files: r.Files, NotRestored: r.NotRestored, Outside: r.Outside}
	if r.State.Enabled {
		out.Rewind = &rewindState{Points: r.State.Points, CanRedo: r.State.CanRedo}
	}
	return out, nil
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
