package synaps

import (
	"github.com/cairn-dev/cairn/core/agent"
)

// rewound is the rewind response's body: ok, then the core's report
// (what was restored and what could not be, and the rewind state after
// it).
type rewound struct {
	OK bool `json:"ok"`
	*agent.RewindReport
}

// rewindPreview is the body for "preview": true: what would change.
type rewindPreview struct {
	OK      bool `json:"ok"`
	Preview bool `json:"preview"`
	*agent.RewindPreview
}

// rewind serves cairn's own command {"type":"rewind","id":…,"steps":N,
// "restore":"code"|"conversation"|"both"} (with "redo" and "preview" as
// in --mode rpc), read and done by the core as in every adapter. synaps
// answers every command by its id with a response whose body is open to
// new command names, so a bridge that never sends it is not affected.
// A prompt in flight is stopped first (its agent_end and cancelled
// response come before this one), and so is a compaction.
func (s *server) rewind(c command) []byte {
	id := c.ID
	ans, err := s.sess.AnswerRewind(s.ctx, c.Rewind, s.stopForRewind)
	if err != nil {
		return responseFrame(&id, "rewind", body{"ok": false, "error": err.Error()})
	}
	if ans.Preview != nil {
		return responseOf(&id, "rewind", rewindPreview{OK: true, Preview: true, RewindPreview: ans.Preview})
	}
	return responseOf(&id, "rewind", rewound{OK: true, RewindReport: ans.Report})
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
