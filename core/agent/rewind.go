package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/session"
)

// CheckpointType is the customType of the session entries that link a
// prompt to the checkpoint of the project's files taken before it ran
// (and when it settled): {"checkpoint": id, "phase": "before"|"after"}.
// They sit on the branch, so forks and tree navigation carry them.
const CheckpointType = "cairn.checkpoint"

// checkpointData is a checkpoint entry's data.
type checkpointData struct {
	Checkpoint string           `json:"checkpoint"`
	Phase      checkpoint.Phase `json:"phase"`
}

// Restore says what a rewind puts back.
type Restore string

// What a rewind can restore.
const (
	RestoreBoth         Restore = "both"
	RestoreCode         Restore = "code"
	RestoreConversation Restore = "conversation"
)

// RewindPoint is a prompt of the current branch a rewind can go back to.
type RewindPoint struct {
	// EntryID is the prompt's user message; Text its text.
	EntryID string
	Text    string
	// Checkpoint is the checkpoint taken before the prompt ran ("" when
	// none was: checkpoints were off).
	Checkpoint string
	// Parent is the entry the conversation goes back to ("" for before
	// the first entry).
	Parent string
}

// RewindRequest says where a rewind goes and what it restores.
type RewindRequest struct {
	// Steps counts prompts back from the newest (1: before the last one).
	Steps   int
	Restore Restore
	// Redo undoes the last rewind instead (Steps is then unused).
	Redo bool
}

// RewindResult is what a rewind did.
type RewindResult struct {
	Point RewindPoint
	// Code is the files' rewind (nil when code was not restored).
	Code *checkpoint.Result
	// Conversation says the conversation went back to Point.
	Conversation bool
}

// RewindState is what get_state reports about rewinding.
type RewindState struct {
	Enabled bool
	// Points counts the prompts of the current branch a rewind can reach.
	Points int
	// CanRedo says a rewind can be undone.
	CanRedo bool
}

// lastRewind is what Redo needs: the undo checkpoint and the entry the
// conversation was at.
type lastRewind struct {
	undo string
	leaf string
	conv bool
}

// Errors of rewinds.
var (
	ErrNoCheckpoints = errors.New("checkpoints are off for this session (no project directory, or turned off in settings)")
	ErrNothingToRedo = errors.New("there is no rewind to undo")
)

// checkpointBefore records the project's files before a prompt runs and
// links the checkpoint to the prompt in the session; a failure is a
// notice, never a reason not to run.
func (s *Session) checkpointBefore(ctx context.Context, pending []core.Message) {
	label := ""
	if len(pending) > 0 {
		if u, ok := pending[0].(*core.UserMessage); ok {
			label, _, _ = strings.Cut(u.Text(), "\n")
			if len(label) > 80 {
				label = label[:80]
			}
		}
	}
	s.recordCheckpoint(ctx, checkpoint.PhaseBefore, label)
}

// checkpointAfter records what the prompt changed, whoever changed it,
// and applies the retention policy when it is due.
func (s *Session) checkpointAfter() {
	s.recordCheckpoint(context.WithoutCancel(s.base), checkpoint.PhaseAfter, "")
	if s.cfg.Checkpoints != nil {
		if _, err := s.cfg.Checkpoints.MaybeGC(); err != nil {
			s.publish(core.Notice{Level: core.NotifyWarning, Message: "checkpoints: retention: " + err.Error()})
		}
	}
}

func (s *Session) recordCheckpoint(ctx context.Context, phase checkpoint.Phase, label string) {
	st := s.cfg.Checkpoints
	if st == nil {
		return
	}
	cp, err := st.Record(ctx, phase, label)
	if err != nil {
		s.publish(core.Notice{Level: core.NotifyWarning, Message: "checkpoints: could not record the project's files (a rewind cannot go back to this point): " + err.Error()})
		return
	}
	s.appendCheckpointEntry(cp.ID, phase)
}

func (s *Session) appendCheckpointEntry(id string, phase checkpoint.Phase) {
	data, _ := json.Marshal(checkpointData{Checkpoint: id, Phase: phase})
	s.mu.Lock()
	store := s.store
	s.mu.Unlock()
	a, ok := store.(interface {
		Append(session.Payload) (session.Entry, error)
	})
	if !ok {
		return
	}
	if _, err := a.Append(&session.CustomEntry{CustomType: CheckpointType, Data: data}); err != nil {
		s.publish(core.Notice{Level: core.NotifyWarning, Message: "checkpoints: could not link the checkpoint in the session: " + err.Error()})
	}
}

// RewindPoints lists the prompts of the current branch, oldest first,
// with the checkpoints taken before them.
func (s *Session) RewindPoints() ([]RewindPoint, error) {
	entries, tip, err := s.Entries()
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*session.Entry, len(entries))
	for i := range entries {
		byID[entries[i].ID] = &entries[i]
	}
	var branch []*session.Entry
	for id := tip; id != ""; {
		e := byID[id]
		if e == nil {
			break
		}
		branch = append(branch, e)
		if e.ParentID == nil {
			break
		}
		id = *e.ParentID
	}
	var out []RewindPoint
	var pending *RewindPoint
	for i := len(branch) - 1; i >= 0; i-- {
		e := branch[i]
		parent := ""
		if e.ParentID != nil {
			parent = *e.ParentID
		}
		switch p := e.Payload.(type) {
		case *session.CustomEntry:
			var d checkpointData
			if p.CustomType == CheckpointType && json.Unmarshal(p.Data, &d) == nil && d.Phase == checkpoint.PhaseBefore {
				pending = &RewindPoint{Checkpoint: d.Checkpoint, Parent: parent}
			}
		case *session.MessageEntry:
			u, ok := p.Message.(*core.UserMessage)
			if !ok {
				continue
			}
			if pending != nil {
				pending.EntryID, pending.Text = e.ID, u.Text()
				out = append(out, *pending)
				pending = nil
				continue
			}
			// A steering message, or a prompt from before checkpoints:
			// only a prompt that began a run has a checkpoint.
			if i+1 < len(branch) && isCheckpointEntry(branch[i+1]) {
				continue
			}
			out = append(out, RewindPoint{EntryID: e.ID, Text: u.Text(), Parent: parent})
		}
	}
	return out, nil
}

func isCheckpointEntry(e *session.Entry) bool {
	c, ok := e.Payload.(*session.CustomEntry)
	return ok && c.CustomType == CheckpointType
}

// RewindStatus reports what get_state shows about rewinding (only
// Enabled, false, when checkpoints are off). It reads the session's
// entries: O(entries).
func (s *Session) RewindStatus() RewindState {
	st := RewindState{Enabled: s.cfg.Checkpoints != nil}
	if !st.Enabled {
		return st
	}
	if pts, err := s.RewindPoints(); err == nil {
		st.Points = len(pts)
	}
	s.mu.Lock()
	st.CanRedo = s.rewound != nil
	s.mu.Unlock()
	return st
}

// rewindPoint returns the point steps prompts back.
func (s *Session) rewindPoint(steps int) (RewindPoint, error) {
	if steps < 1 {
		return RewindPoint{}, fmt.Errorf("steps must be 1 or more, not %d", steps)
	}
	pts, err := s.RewindPoints()
	if err != nil {
		return RewindPoint{}, err
	}
	if steps > len(pts) {
		return RewindPoint{}, fmt.Errorf("cannot go %d prompts back: this branch has %d", steps, len(pts))
	}
	return pts[len(pts)-steps], nil
}

// PreviewRewind says what rewinding steps prompts back would change in the
// project's files, changing nothing.
func (s *Session) PreviewRewind(ctx context.Context, steps int) (RewindPoint, *checkpoint.Plan, error) {
	p, err := s.rewindPoint(steps)
	if err != nil {
		return p, nil, err
	}
	if s.cfg.Checkpoints == nil {
		return p, nil, ErrNoCheckpoints
	}
	if p.Checkpoint == "" {
		return p, nil, fmt.Errorf("no checkpoint was taken before that prompt")
	}
	plan, err := s.cfg.Checkpoints.Preview(ctx, p.Checkpoint)
	return p, plan, err
}

// Rewind goes back req.Steps prompts: the project's files, the
// conversation, or both. A running prompt is stopped first. The files are
// checkpointed before they change, so the rewind can be undone
// (RewindRequest.Redo). The conversation goes back as /tree navigation
// does: the next prompt starts a new branch before the rewound one.
func (s *Session) Rewind(ctx context.Context, req RewindRequest) (*RewindResult, error) {
	if req.Restore == "" {
		req.Restore = RestoreBoth
	}
	switch req.Restore {
	case RestoreBoth, RestoreCode, RestoreConversation:
	default:
		return nil, fmt.Errorf("restore must be code, conversation or both, not %q", req.Restore)
	}
	code := req.Restore != RestoreConversation
	if code && s.cfg.Checkpoints == nil {
		return nil, ErrNoCheckpoints
	}
	if err := s.AbortAndWait(ctx); err != nil {
		return nil, err
	}
	if req.Redo {
		return s.redo(ctx)
	}
	if req.Steps == 0 {
		req.Steps = 1
	}
	p, err := s.rewindPoint(req.Steps)
	if err != nil {
		return nil, err
	}
	if code && p.Checkpoint == "" {
		return nil, fmt.Errorf("no checkpoint was taken before that prompt, so its files cannot be restored; restore the conversation only")
	}
	_, leaf, _ := s.Entries()
	res := &RewindResult{Point: p}
	last := &lastRewind{leaf: leaf}
	if code {
		r, err := s.cfg.Checkpoints.Rewind(ctx, p.Checkpoint)
		if err != nil {
			return nil, err
		}
		res.Code, last.undo = r, r.Undo.ID
	}
	if req.Restore != RestoreCode {
		if err := s.Branch(p.Parent); err != nil {
			return res, fmt.Errorf("the files were restored, but the conversation could not go back: %w", err)
		}
		res.Conversation, last.conv = true, true
	}
	s.mu.Lock()
	s.rewound = last
	s.mu.Unlock()
	return res, nil
}

// redo undoes the last rewind: the files as they were before it, and the
// conversation where it was.
func (s *Session) redo(ctx context.Context) (*RewindResult, error) {
	s.mu.Lock()
	last := s.rewound
	s.mu.Unlock()
	if last == nil {
		return nil, ErrNothingToRedo
	}
	res := &RewindResult{}
	next := &lastRewind{}
	if last.undo != "" {
		if s.cfg.Checkpoints == nil {
			return nil, ErrNoCheckpoints
		}
		r, err := s.cfg.Checkpoints.Rewind(ctx, last.undo)
		if err != nil {
			return nil, err
		}
		res.Code, next.undo = r, r.Undo.ID
		res.Point.Checkpoint = last.undo
	}
	if last.conv {
		_, leaf, _ := s.Entries()
		if err := s.Branch(last.leaf); err != nil {
			return res, fmt.Errorf("the files were restored, but the conversation could not go forward again: %w", err)
		}
		res.Conversation, next.leaf, next.conv = true, leaf, true
	}
	// Redoing a redo undoes it again.
	s.mu.Lock()
	s.rewound = next
	s.mu.Unlock()
	return res, nil
}

// Checkpoints returns the session's checkpoint store (nil when off), for
// front ends showing a rewind's diffs.
func (s *Session) Checkpoints() *checkpoint.Store { return s.cfg.Checkpoints }
