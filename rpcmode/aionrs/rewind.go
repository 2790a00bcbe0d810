package aionrs

import (
	"fmt"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
)

// cmdRewind is cairn's own command, beside aionrs's:
// {"type":"rewind","steps":N,"restore":"code"|"conversation"|"both"},
// with "redo" and "preview" as in --mode rpc. aionrs hosts never send it;
// the protocol's versioning rule lets a host meet new event types, and
// rewind_result and rewind_preview are only ever answers to it.
const cmdRewind commandType = "rewind"

// rewindState is capabilities.rewind: what a rewind can reach now. It is
// left out when checkpoints are off.
type rewindState struct {
	Points  int  `json:"points"`
	CanRedo bool `json:"can_redo"`
}

// rewindResultFrame answers a rewind: what was restored and what could
// not be, then the rewind state after it.
type rewindResultFrame struct {
	Type string `json:"type"`
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

// rewindPreviewFrame answers {"preview":true}: nothing was changed.
type rewindPreviewFrame struct {
	Type         string              `json:"type"`
	Text         string              `json:"text"`
	Checkpoint   string              `json:"checkpoint"`
	Changes      []checkpoint.Change `json:"changes"`
	Unrestorable []checkpoint.Unkept `json:"unrestorable"`
	Outside      []string            `json:"outside"`
}

// onRewind rewinds on the reader, so the commands after it see its
// result. A message in flight is stopped first, as stop stops it: its
// stream_end comes before the answer.
func (s *server) onRewind(c command) {
	ans, err := s.sess.AnswerRewind(s.ctx, c.Rewind, func() {
		s.mu.Lock()
		if s.turn != nil {
			s.turn.stopped = true
		}
		s.mu.Unlock()
	})
	switch {
	case err != nil:
		s.sendError("", fmt.Sprintf("Rewind failed: %v", err))
	case ans.Preview != nil:
		pv := ans.Preview
		s.send(line(rewindPreviewFrame{Type: "rewind_preview", Text: pv.Point.Text, Checkpoint: pv.Point.Checkpoint,
			Changes: pv.Changes, Unrestorable: pv.Unrestorable, Outside: pv.Outside}))
	default:
		r := ans.Report
		s.send(line(rewindResultFrame{Type: "rewind_result", Restored: r.Restored, Text: r.Point.Text,
			Checkpoint: r.Point.Checkpoint, UndoCheckpoint: r.UndoCheckpoint, Files: r.Files,
			NotRestored: r.NotRestored, Outside: r.Outside, Rewind: rewindStateOf(r.State)}))
	}
}

// rewindStateOf is nil when checkpoints are off.
func rewindStateOf(st agent.RewindState) *rewindState {
	if !st.Enabled {
		return nil
	}
	return &rewindState{Points: st.Points, CanRedo: st.CanRedo}
}
