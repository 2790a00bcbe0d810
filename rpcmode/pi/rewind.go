package pi

import (
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
)

// rewindData is the rewind command's response (cairn's own command).
type rewindData struct {
	// Restored is what was put back: "code", "conversation" or "both".
	Restored agent.Restore `json:"restored"`
	// EntryID and Text are the prompt rewound to (its text, for the
	// editor, as fork returns it).
	EntryID string `json:"entryId,omitempty"`
	Text    string `json:"text,omitempty"`
	// Checkpoint is the checkpoint restored; UndoCheckpoint the one taken
	// before, which {"redo":true} goes back to.
	Checkpoint     string              `json:"checkpoint,omitempty"`
	UndoCheckpoint string              `json:"undoCheckpoint,omitempty"`
	Files          []string            `json:"files"`
	NotRestored    []checkpoint.Unkept `json:"notRestored"`
	// Outside lists the files changed outside cairn since its last
	// checkpoint, which the rewind replaced (they are in the undo
	// checkpoint).
	Outside []string `json:"outside"`
}

// rewindPreview is the response to {"preview":true}: nothing is changed.
type rewindPreview struct {
	EntryID      string              `json:"entryId"`
	Text         string              `json:"text"`
	Checkpoint   string              `json:"checkpoint"`
	Changes      []checkpoint.Change `json:"changes"`
	Unrestorable []checkpoint.Unkept `json:"unrestorable"`
	Outside      []string            `json:"outside"`
}

// rewind is cairn's {"type":"rewind","steps":N,"restore":"code"|
// "conversation"|"both"}: back N prompts (default 1), both by default;
// {"redo":true} undoes the last rewind; {"preview":true} says what would
// change. A running prompt, or a compaction, is stopped first. The
// request is read, and the rewind done, by the core, as every adapter
// does it.
func (s *server) rewind(c *command) (any, error) {
	args, err := agent.RewindArgsFromFields(c.fields, "type", "id")
	if err != nil {
		return nil, err
	}
	if !args.Preview {
		if err := s.stop(); err != nil {
			return nil, err
		}
	}
	ans, err := s.sess.AnswerRewind(s.ctx, args, nil)
	if err != nil {
		return nil, err
	}
	if pv := ans.Preview; pv != nil {
		return rewindPreview{EntryID: pv.EntryID, Text: pv.Text, Checkpoint: pv.Checkpoint,
			Changes: pv.Changes, Unrestorable: pv.Unrestorable, Outside: pv.Outside}, nil
	}
	r := ans.Report
	return rewindData{Restored: r.Restored, EntryID: r.EntryID, Text: r.Text, Checkpoint: r.Checkpoint,
		UndoCheckpoint: r.UndoCheckpoint, Files: r.Files, NotRestored: r.NotRestored, Outside: r.Outside}, nil
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
