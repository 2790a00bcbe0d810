package acp

import (
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
)

// rewindMethod is cairn's ACP extension method (ACP names extension
// methods with a leading underscore): go back some prompts, restoring the
// project's files, the conversation or both, or undo the last rewind.
const rewindMethod = "_cairn/rewind"

type rewindParams struct {
	SessionID *string `json:"sessionId"`
	Steps     *int    `json:"steps"`
	Restore   *string `json:"restore"`
	Redo      bool    `json:"redo"`
}

// rewindPath is a path a rewind could not restore, and why.
type rewindPath struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// rewindResult is _cairn/rewind's result. A client that shows the
// conversation reloads it (session/load) when conversation is true.
type rewindResult struct {
	Code         bool         `json:"code"`
	Conversation bool         `json:"conversation"`
	Text         string       `json:"text,omitempty"`
	Checkpoint   string       `json:"checkpoint,omitempty"`
	Undo         string       `json:"undoCheckpoint,omitempty"`
	Files        []string     `json:"files"`
	NotRestored  []rewindPath `json:"notRestored"`
	Outside      []string     `json:"outside"`
}

// rewind answers _cairn/rewind once the rewind is done (a running prompt
// is stopped first), off the read loop.
func (s *server) rewind(m message) (any, *rpcError) {
	var p rewindParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	t, rerr := s.lookup(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	req := agent.RewindRequest{Steps: 1, Restore: agent.RestoreBoth, Redo: p.Redo}
	if p.Steps != nil {
		if *p.Steps < 1 {
			return nil, errorf(CodeInvalidParams, `Invalid params: "steps" must be 1 or more`)
		}
		req.Steps = *p.Steps
	}
	if p.Restore != nil {
		switch r := agent.Restore(*p.Restore); r {
		case agent.RestoreBoth, agent.RestoreCode, agent.RestoreConversation:
			req.Restore = r
		default:
			return nil, errorf(CodeInvalidParams, `Invalid params: "restore" must be "code", "conversation" or "both"`)
		}
	}
	sess, id := t.b.sess, m.ID
	if !s.goBackground(func() {
		res, err := sess.Rewind(s.ctx, req)
		if res == nil {
			s.replyError(id, errorf(CodeInternalError, "%v", err))
			return
		}
		s.reply(id, rewindResultOf(res, err))
	}) {
		return nil, errorf(CodeInternalError, "cairn is shutting down")
	}
	return nil, nil
}

func rewindResultOf(res *agent.RewindResult, err error) rewindResult {
	out := rewindResult{Conversation: res.Conversation, Text: res.Point.Text, Checkpoint: res.Point.Checkpoint,
		Files: []string{}, NotRestored: []rewindPath{}, Outside: []string{}}
	if r := res.Code; r != nil {
		out.Code, out.Undo = true, r.Undo.ID
		out.Files = append(out.Files, r.Restored...)
		for _, u := range r.NotRestored {
			out.NotRestored = append(out.NotRestored, rewindPath{u.Path, u.Reason})
		}
		out.Outside = outsidePaths(r.Outside)
	}
	if err != nil {
		out.NotRestored = append(out.NotRestored, rewindPath{"", err.Error()})
	}
	return out
}

func outsidePaths(list []checkpoint.Change) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.Path
	}
	return out
}
