package synaps

import (
	"github.com/cairn-dev/cairn/core/agent"
)

// rewind serves cairn's own command {"type":"rewind","id":…,"steps":N,
// "restore":"code"|"conversation"|"both"} (with "redo" and "preview" as
// in --mode rpc), read and done by the core as in every adapter. synaps
// answers every command by its id with a response whose body is open to
// new command names, so a bridge that never sends it is not affected.
// A prompt in flight is stopped first (its agent_end and cancelled
// response come before this one), and so is a compaction.
func (s *server) rewind(c command) body {
	ans, err := s.sess.AnswerRewind(s.ctx, c.Rewind, s.stopForRewind)
	switch {
	case err != nil:
		return body{"ok": false, "error": err.Error()}
	case ans.Preview != nil:
		pv := ans.Preview
		return body{"ok": true, "preview": true, "text": pv.Point.Text, "checkpoint": pv.Point.Checkpoint,
			"changes": pv.Changes, "unrestorable": pv.Unrestorable, "outside": pv.Outside}
	}
	r := ans.Report
	b := body{"ok": true, "restored": r.Restored, "files": r.Files, "not_restored": r.NotRestored, "outside": r.Outside}
	if r.Point.Text != "" {
		b["text"] = r.Point.Text
	}
	if r.Point.Checkpoint != "" {
		b["checkpoint"] = r.Point.Checkpoint
	}
	if r.UndoCheckpoint != "" {
		b["undo_checkpoint"] = r.UndoCheckpoint
	}
	if st := rewindStateOf(r.State); st != nil {
		b["rewind"] = st
	}
	return b
}

// stopForRewind marks the turn in flight as cancelled, so it ends as an
// abort ends it, and stops a compaction, waiting for its response.
func (s *server) stopForRewind() {
	s.mu.Lock()
	if s.turn != nil {
		s.turn.cancelled = true
	}
	cp := s.compact
	s.mu.Unlock()
	if cp == nil {
		return
	}
	cp.cancel()
	select {
	case <-cp.done:
	case <-s.ctx.Done():
	}
}

// rewindState is get_state's and the rewind response's "rewind": what a
// rewind can reach now.
type rewindState struct {
	Enabled bool `json:"enabled"`
	Points  int  `json:"points"`
	CanRedo bool `json:"can_redo"`
}

// rewindStateOf is nil, and the member left out, when checkpoints are off.
func rewindStateOf(st agent.RewindState) *rewindState {
	if !st.Enabled {
		return nil
	}
	return &rewindState{Enabled: true, Points: st.Points, CanRedo: st.CanRedo}
}
