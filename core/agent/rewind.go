package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
// Its JSON form (and that of RewindState, RewindPreview and RewindReport)
// is the one cairn's rewind answers carry in the snake_case protocols
// (aionrs, synaps, OpenAgent-Terminal); pi's and ACP's adapters rename.
type RewindPoint struct {
	// EntryID is the prompt's user message; Text its text.
	EntryID string `json:"entry_id,omitempty"`
	Text    string `json:"text,omitempty"`
	// Checkpoint is the checkpoint taken before the prompt ran ("" when
	// none was: checkpoints were off).
	Checkpoint string `json:"checkpoint,omitempty"`
	// Parent is the entry the conversation goes back to ("" for before
	// the first entry).
	Parent string `json:"-"`
}

// RewindRequest says where a rewind goes and what it restores.
type RewindRequest struct {
	// Steps counts prompts back from the newest (1: before the last one).
	Steps   int
	Restore Restore
	// Redo undoes the last rewind instead (Steps is then unused).
	Redo bool
	// Stopping, when set, is called once the rewind is known to go
	// ahead, just before a running prompt is stopped (it is called when
	// none runs too): a front end marks its turn as stopped on purpose,
	// as it does for its own stop command.
	Stopping func()
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
	Enabled bool `json:"enabled"`
	// Points counts the prompts of the current branch a rewind can reach.
	Points int `json:"points"`
	// CanRedo says a rewind can be undone.
	CanRedo bool `json:"can_redo"`
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
			// A prompt whose checkpoint could not be taken (or was cut
			// short by an abort), or one from before checkpoints: a point
			// for the conversation only.
			out = append(out, RewindPoint{EntryID: e.ID, Text: u.Text(), Parent: parent})
		}
	}
	return out, nil
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

// errNoCheckpointBefore refuses to restore the files of a prompt no
// checkpoint was taken before.
var errNoCheckpointBefore = errors.New("no checkpoint was taken before that prompt, so its files cannot be restored; restore the conversation only")

// checkRewindable reports why going steps prompts back (its files too
// when code is set) cannot be done, before anything is stopped. A prompt
// that was accepted but is not in the conversation yet (its checkpoint or
// its hooks still running) counts as the newest point: going back to it
// is judged again once the run has stopped.
func (s *Session) checkRewindable(steps int, code bool) error {
	s.mu.Lock()
	coming := s.run != nil && !s.run.prompted
	s.mu.Unlock()
	if coming {
		if pts, err := s.RewindPoints(); err == nil && steps == len(pts)+1 {
			return nil
		}
	}
	p, err := s.rewindPoint(steps)
	if err != nil {
		return err
	}
	if code && p.Checkpoint == "" {
		return errNoCheckpointBefore
	}
	return nil
}

// Rewind goes back req.Steps prompts: the project's files, the
// conversation, or both. A running prompt is stopped first, once the
// rewind is known to be possible. The files are checkpointed before they
// change, so the rewind can be undone (RewindRequest.Redo). The
// conversation goes back as /tree navigation does: the next prompt starts
// a new branch before the rewound one.
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
	if req.Steps == 0 {
		req.Steps = 1
	}
	if !req.Redo {
		// A rewind that cannot happen leaves a running prompt alone.
		if err := s.checkRewindable(req.Steps, code); err != nil {
			return nil, err
		}
	}
	if req.Stopping != nil {
		req.Stopping()
	}
	if err := s.AbortAndWait(ctx); err != nil {
		return nil, err
	}
	if req.Redo {
		return s.redo(ctx)
	}
	p, err := s.rewindPoint(req.Steps)
	if err != nil {
		return nil, err
	}
	if code && p.Checkpoint == "" {
		return nil, errNoCheckpointBefore
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

// RewindArgs is a rewind as a front end asks for it, in the vocabulary
// every adapter shares (steps, restore, redo, preview), before defaults.
type RewindArgs struct {
	// Steps counts prompts back; 0 means the default, 1.
	Steps int
	// Restore is what goes back; "" means the default, RestoreBoth.
	Restore Restore
	// Redo undoes the last rewind; Preview says what a rewind would
	// change and changes nothing. They cannot be combined.
	Redo    bool
	Preview bool
}

// rewindArgNames are the members a rewind request may carry besides its
// protocol's envelope.
var rewindArgNames = []string{"steps", "restore", "redo", "preview"}

// DecodeRewindArgs reads a rewind request's JSON object. Besides steps,
// restore, redo and preview it allows only the members named by envelope
// (the protocol's own: "type", "id", "sessionId", ...), which it does not
// read; any other member is refused, so a misspelt one is never ignored.
// A null member counts as absent. The errors are sentences a person can
// act on, the same in every adapter.
func DecodeRewindArgs(raw []byte, envelope ...string) (RewindArgs, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return RewindArgs{}, errors.New("a rewind request must be a JSON object")
	}
	return RewindArgsFromFields(fields, envelope...)
}

// RewindArgsFromFields is DecodeRewindArgs for an adapter that has split
// the object into its members already.
func RewindArgsFromFields(fields map[string]json.RawMessage, envelope ...string) (RewindArgs, error) {
	var unknown []string
	for k := range fields {
		if !slices.Contains(rewindArgNames, k) && !slices.Contains(envelope, k) {
			unknown = append(unknown, clip(json.RawMessage(k)))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return RewindArgs{}, fmt.Errorf("rewind takes steps, restore, redo and preview; unknown field %s", strings.Join(unknown, ", "))
	}
	present := func(name string) (json.RawMessage, bool) {
		raw, ok := fields[name]
		return raw, ok && strings.TrimSpace(string(raw)) != "null"
	}
	var a RewindArgs
	if raw, ok := present("steps"); ok {
		if err := json.Unmarshal(raw, &a.Steps); err != nil || a.Steps < 1 {
			return RewindArgs{}, fmt.Errorf("field \"steps\" must be a whole number of at least 1, not %s", clip(raw))
		}
	}
	if raw, ok := present("restore"); ok {
		var r string
		if err := json.Unmarshal(raw, &r); err != nil {
			return RewindArgs{}, fmt.Errorf(`field "restore" must be "code", "conversation" or "both", not %s`, clip(raw))
		}
		switch a.Restore = Restore(r); a.Restore {
		case RestoreBoth, RestoreCode, RestoreConversation:
		default:
			return RewindArgs{}, fmt.Errorf(`field "restore" must be "code", "conversation" or "both", not %s`, clip(raw))
		}
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"redo", &a.Redo}, {"preview", &a.Preview}} {
		if raw, ok := present(f.name); ok {
			if err := json.Unmarshal(raw, f.dst); err != nil {
				return RewindArgs{}, fmt.Errorf("field %q must be true or false, not %s", f.name, clip(raw))
			}
		}
	}
	if a.Redo && a.Preview {
		return RewindArgs{}, errors.New("preview and redo cannot be combined: a preview shows a rewind, redo undoes the last one")
	}
	return a, nil
}

// clip is a sent value as an error quotes it: its first 40 bytes or so,
// cut between characters.
func clip(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	for i := range s {
		if i >= 40 {
			return s[:i] + "..."
		}
	}
	return s
}

// RewindAnswer is what a front end reports for a rewind request: a
// Preview when one was asked for (nothing changed), a Report otherwise.
type RewindAnswer struct {
	Preview *RewindPreview
	Report  *RewindReport
}

// RewindPreview is what a rewind would change, changing nothing.
type RewindPreview struct {
	// RewindPoint is the prompt a rewind would go back to.
	RewindPoint
	// Changes lists every path it would create, modify or delete.
	Changes []checkpoint.Change `json:"changes"`
	// Unrestorable lists the paths it could not put back, and why.
	Unrestorable []checkpoint.Unkept `json:"unrestorable"`
	// Outside lists the files changed outside cairn since its last
	// checkpoint, which the rewind would replace.
	Outside []string `json:"outside"`
}

// RewindReport is what a rewind restored and what it could not, as every
// front end reports it. The lists are never nil.
type RewindReport struct {
	// Restored is what went back: code, conversation or both.
	Restored Restore `json:"restored"`
	// RewindPoint is the prompt gone back to (for a redo, only its
	// Checkpoint: the one restored).
	RewindPoint
	// UndoCheckpoint is the checkpoint taken before the files changed,
	// which a redo goes back to ("" when the files were not restored).
	UndoCheckpoint string `json:"undo_checkpoint,omitempty"`
	// Files lists the paths created, modified or deleted.
	Files []string `json:"files"`
	// NotRestored lists the paths left different, and why; a
	// conversation that could not go back is an entry with Path "".
	NotRestored []checkpoint.Unkept `json:"not_restored"`
	// Outside lists the files changed outside cairn since its last
	// checkpoint, which the rewind replaced (they are in the undo
	// checkpoint).
	Outside []string `json:"outside"`
	// State is the rewind state after the rewind; nil when checkpoints
	// are off.
	State *RewindState `json:"rewind,omitempty"`
}

// AnswerRewind serves a front end's rewind request: a preview, or the
// rewind itself (a running prompt is stopped first, after stopping is
// called; see RewindRequest.Stopping). An error means nothing was
// restored; a rewind that restored the files but not the conversation is
// a report naming what failed.
func (s *Session) AnswerRewind(ctx context.Context, a RewindArgs, stopping func()) (RewindAnswer, error) {
	steps := a.Steps
	if steps == 0 {
		steps = 1
	}
	if a.Preview {
		p, plan, err := s.PreviewRewind(ctx, steps)
		if err != nil {
			return RewindAnswer{}, err
		}
		return RewindAnswer{Preview: &RewindPreview{RewindPoint: p, Changes: nonNil(plan.Changes),
			Unrestorable: nonNil(plan.Unrestorable), Outside: changedPaths(plan.Outside)}}, nil
	}
	res, err := s.Rewind(ctx, RewindRequest{Steps: steps, Restore: a.Restore, Redo: a.Redo, Stopping: stopping})
	if res == nil {
		return RewindAnswer{}, err
	}
	rep := &RewindReport{RewindPoint: res.Point, Files: []string{}, NotRestored: []checkpoint.Unkept{}, Outside: []string{}}
	switch {
	case res.Code != nil && res.Conversation:
		rep.Restored = RestoreBoth
	case res.Code != nil:
		rep.Restored = RestoreCode
	default:
		rep.Restored = RestoreConversation
	}
	if r := res.Code; r != nil {
		rep.UndoCheckpoint = r.Undo.ID
		rep.Files = append(rep.Files, r.Restored...)
		rep.NotRestored = append(rep.NotRestored, r.NotRestored...)
		rep.Outside = changedPaths(r.Outside)
	}
	if err != nil {
		rep.NotRestored = append(rep.NotRestored, checkpoint.Unkept{Reason: err.Error()})
	}
	if st := s.RewindStatus(); st.Enabled {
		rep.State = &st
	}
	return RewindAnswer{Report: rep}, nil
}

func changedPaths(changes []checkpoint.Change) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.Path
	}
	return out
}

func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
