package acp

import (
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
)

// rewindMethod is cairn's ACP extension method (ACP names extension
// methods with a leading underscore): go back some prompts, restoring the
// project's files, the conversation or both, or undo the last rewind.
const rewindMethod = "_cairn/rewind"

// rewindResult is _cairn/rewind's result. A client that shows the
// conversation reloads it (session/load) when conversation is true.
type rewindResult struct {
	Code         bool                `json:"code"`
	Conversation bool                `json:"conversation"`
	Text         string              `json:"text,omitempty"`
	Checkpoint   string              `json:"checkpoint,omitempty"`
	Undo         string              `json:"undoCheckpoint,omitempty"`
	Files        []string            `json:"files"`
	NotRestored  []checkpoint.Unkept `json:"notRestored"`
	Outside      []string            `json:"outside"`
}

// rewindPreview is _cairn/rewind's result for "preview": true; nothing
// is changed.
type rewindPreview struct {
	Preview      bool                `json:"preview"`
	Text         string              `json:"text"`
	Checkpoint   string              `json:"checkpoint"`
	Changes      []checkpoint.Change `json:"changes"`
	Unrestorable []checkpoint.Unkept `json:"unrestorable"`
	Outside      []string            `json:"outside"`
}

// rewind answers _cairn/rewind once the rewind is done (a running prompt
// is stopped first), off the read loop. The params besides sessionId are
// read, and the rewind done, by the core, as every adapter does it.
func (s *server) rewind(m message) (any, *rpcError) {
	var p struct {
		SessionID *string `json:"sessionId"`
	}
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	t, rerr := s.lookup(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	args, err := agent.DecodeRewindArgs(m.Params, "sessionId")
	if err != nil {
		return nil, errorf(CodeInvalidParams, "Invalid params: %v", err)
	}
	sess, id := t.b.sess, m.ID
	if !s.goBackground(func() {
		ans, err := sess.AnswerRewind(s.ctx, args, nil)
		switch {
		case err != nil:
			s.replyError(id, errorf(CodeInternalError, "%v", err))
		case ans.Preview != nil:
			pv := ans.Preview
			s.reply(id, rewindPreview{Preview: true, Text: pv.Text, Checkpoint: pv.Checkpoint,
				Changes: pv.Changes, Unrestorable: pv.Unrestorable, Outside: pv.Outside})
		default:
			r := ans.Report
			s.reply(id, rewindResult{Code: r.Restored != agent.RestoreConversation, Conversation: r.Restored != agent.RestoreCode,
				Text: r.Text, Checkpoint: r.Checkpoint, Undo: r.UndoCheckpoint,
				Files: r.Files, NotRestored: r.NotRestored, Outside: r.Outside})
		}
	}) {
		return nil, errorf(CodeInternalError, "cairn is shutting down")
	}
	return nil, nil
}
