package aionrs

import (
	"fmt"

	"github.com/cairn-dev/cairn/core/agent"
)

// cmdRewind is cairn's own command, beside aionrs's:
// {"type":"rewind","steps":N,"restore":"code"|"conversation"|"both"},
// with "redo" and "preview" as in --mode rpc. aionrs hosts never send it;
// the protocol's versioning rule lets a host meet new event types, and
// rewind_result and rewind_preview are only ever answers to it.
const cmdRewind commandType = "rewind"

// rewindResultFrame answers a rewind with the core's report: what was
// restored and what could not be, then the rewind state after it.
type rewindResultFrame struct {
	Type string `json:"type"`
	*agent.RewindReport
}

// rewindPreviewFrame answers {"preview":true}: nothing was changed.
type rewindPreviewFrame struct {
	Type string `json:"type"`
	*agent.RewindPreview
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
		s.send(line(rewindPreviewFrame{Type: "rewind_preview", RewindPreview: ans.Preview}))
	default:
		s.send(line(rewindResultFrame{Type: "rewind_result", RewindReport: ans.Report}))
	}
}

// rewindState is capabilities.rewind: nil, and left out, when checkpoints
// are off.
func (s *server) rewindState() *agent.RewindState {
	if st := s.sess.RewindStatus(); st.Enabled {
		return &st
	}
	return nil
}
