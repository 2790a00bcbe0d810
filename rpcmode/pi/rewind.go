package pi

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
)

// rewindFields are the fields the rewind command takes; any other is
// refused, so a misspelt one is never silently ignored.
var rewindFields = map[string]bool{"type": true, "id": true, "steps": true, "restore": true, "redo": true, "preview": true}

// unrestored is a path a rewind could not put back, and why.
type unrestored struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// fileChange is one path a rewind changes.
type fileChange struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

// rewindData is the rewind command's response (cairn's own command).
type rewindData struct {
	// Restored is what was put back: "code", "conversation" or "both".
	Restored string `json:"restored"`
	// EntryID and Text are the prompt rewound to (its text, for the
	// editor, as fork returns it).
	EntryID string `json:"entryId,omitempty"`
	Text    string `json:"text,omitempty"`
	// Checkpoint is the checkpoint restored; UndoCheckpoint the one taken
	// before, which {"redo":true} goes back to.
	Checkpoint     string       `json:"checkpoint,omitempty"`
	UndoCheckpoint string       `json:"undoCheckpoint,omitempty"`
	Files          []string     `json:"files"`
	NotRestored    []unrestored `json:"notRestored"`
	// Outside lists the files changed outside cairn since its last
	// checkpoint, which the rewind replaced (they are in the undo
	// checkpoint).
	Outside []string `json:"outside"`
}

// rewindPreview is the response to {"preview":true}: nothing is changed.
type rewindPreview struct {
	EntryID      string       `json:"entryId"`
	Text         string       `json:"text"`
	Checkpoint   string       `json:"checkpoint"`
	Changes      []fileChange `json:"changes"`
	Unrestorable []unrestored `json:"unrestorable"`
	Outside      []string     `json:"outside"`
}

// rewind is cairn's {"type":"rewind","steps":N,"restore":"code"|
// "conversation"|"both"}: back N prompts (default 1), both by default;
// {"redo":true} undoes the last rewind; {"preview":true} says what would
// change. A running prompt is stopped first.
func (s *server) rewind(c *command) (any, error) {
	var unknown []string
	for k := range c.fields {
		if !rewindFields[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("rewind takes steps, restore, redo and preview; unknown field %s", strings.Join(unknown, ", "))
	}
	steps := 1
	if raw, ok := c.present("steps"); ok {
		if err := json.Unmarshal(raw, &steps); err != nil || steps < 1 {
			return nil, &fieldError{field: "steps", want: "a whole number of at least 1", got: string(raw)}
		}
	}
	restore, _, err := c.optOneOf("restore", "code", "conversation", "both")
	if err != nil {
		return nil, err
	}
	redo, _, err := c.optBool("redo")
	if err != nil {
		return nil, err
	}
	preview, _, err := c.optBool("preview")
	if err != nil {
		return nil, err
	}
	if preview {
		p, plan, err := s.sess.PreviewRewind(s.ctx, steps)
		if err != nil {
			return nil, err
		}
		out := rewindPreview{EntryID: p.EntryID, Text: p.Text, Checkpoint: p.Checkpoint, Changes: []fileChange{}, Unrestorable: unrestoredOf(plan.Unrestorable), Outside: pathsOf(plan.Outside)}
		for _, ch := range plan.Changes {
			out.Changes = append(out.Changes, fileChange{ch.Path, string(ch.Action)})
		}
		return out, nil
	}
	if err := s.stop(); err != nil {
		return nil, err
	}
	res, err := s.sess.Rewind(s.ctx, agent.RewindRequest{Steps: steps, Restore: agent.Restore(restore), Redo: redo})
	if res == nil {
		return nil, err
	}
	out := rewindData{EntryID: res.Point.EntryID, Text: res.Point.Text, Checkpoint: res.Point.Checkpoint, Files: []string{}, NotRestored: []unrestored{}, Outside: []string{}}
	switch {
	case res.Code != nil && res.Conversation:
		out.Restored = "both"
	case res.Code != nil:
		out.Restored = "code"
	default:
		out.Restored = "conversation"
	}
	if r := res.Code; r != nil {
		out.UndoCheckpoint = r.Undo.ID
		out.Files = append(out.Files, r.Restored...)
		out.NotRestored = unrestoredOf(r.NotRestored)
		out.Outside = pathsOf(r.Outside)
	}
	if err != nil {
		// The files went back but the conversation did not: say both.
		out.NotRestored = append(out.NotRestored, unrestored{Path: "", Reason: err.Error()})
	}
	return out, nil
}

func unrestoredOf(list []checkpoint.Unkept) []unrestored {
	out := make([]unrestored, len(list))
	for i, u := range list {
		out[i] = unrestored{u.Path, u.Reason}
	}
	return out
}

func pathsOf(changes []checkpoint.Change) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.Path
	}
	return out
}

// rewindState is get_state's cairn-only "rewind" field.
type rewindState struct {
	Enabled bool `json:"enabled"`
	// Points counts the prompts of the current branch a rewind can reach.
	Points  int  `json:"points"`
	CanRedo bool `json:"canRedo"`
}

// rewindState is nil, and get_state leaves the field out, when
// checkpoints are off.
func (s *server) rewindState() *rewindState {
	st := s.sess.RewindStatus()
	if !st.Enabled {
		return nil
	}
	return &rewindState{Enabled: st.Enabled, Points: st.Points, CanRedo: st.CanRedo}
}
