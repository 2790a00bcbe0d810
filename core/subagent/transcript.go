package subagent

import (
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/session"
)

// TranscriptDir is where the transcripts of a session's subagents are
// kept: beside its file, in a directory of the same name ending in
// ".subagents" (pi lists only the .jsonl files of a project's directory,
// so it does not mistake them for sessions of their own).
func TranscriptDir(sessionPath string) string {
	return strings.TrimSuffix(sessionPath, ".jsonl") + ".subagents"
}

// transcript returns the conversation a child of parent records in, and
// its file's path: a session file in pi's format in TranscriptDir, named
// after the task call (<time>_<call id>.jsonl), written as the child goes
// (each answer synced), so a crash keeps what the child had completed.
// A parent kept in memory gets a child kept in memory.
func transcript(parent *agent.Session, cwd, callID string) (agent.Conversations, string, error) {
	info := parent.Conversation()
	if parent.InMemory() || info.Path == "" {
		return nil, "", nil
	}
	store := session.Store{Dir: TranscriptDir(info.Path)}
	file := store.CreateWithID(cwd, fileID(callID))
	return agent.NewFileConversations(store, cwd, file), file.FilePath(), nil
}

// fileID is a call id fit for a file name: letters, digits, '-' and '_'
// kept, anything else as '_'.
func fileID(callID string) string {
	b := []byte(callID)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 || len(b) > 128 {
		return "call"
	}
	return filepath.Base(string(b))
}

// Transcripts returns the transcript files of the subagents of the
// session at sessionPath, by task call id (as fileID writes it); a call
// with none has none.
func Transcripts(sessionPath string) map[string]string {
	out := map[string]string{}
	matches, _ := filepath.Glob(filepath.Join(TranscriptDir(sessionPath), "*.jsonl"))
	for _, m := range matches {
		base := strings.TrimSuffix(filepath.Base(m), ".jsonl")
		if _, id, ok := strings.Cut(base, "_"); ok {
			out[id] = m
		}
	}
	return out
}
