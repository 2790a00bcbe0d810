package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/atomicfile"
	"github.com/cairn-dev/cairn/core/session"
)

// saveParams are session.save's params; include_history and
// include_blocks are accepted and have no effect (a session file always
// holds the whole conversation).
type saveParams struct {
	Path           string `json:"path"`
	IncludeHistory *bool  `json:"include_history"`
	IncludeBlocks  *bool  `json:"include_blocks"`
}

// save copies the session file to the path asked for (mode 0600, replacing
// the file there), or reports where the session is kept.
func (c *conn) save(params json.RawMessage) (any, *Error) {
	var p saveParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Path != "" && !filepath.IsAbs(p.Path) {
		return nil, errorf(CodeInvalidParams, "path must be absolute, not %q", p.Path)
	}
	if c.sess.InMemory() {
		return nil, errorf(CodeAgentError, "this session is kept in memory (cairn was started with --no-session), so it cannot be saved")
	}
	info := c.sess.Conversation()
	if info.File == "" {
		return nil, errorf(CodeAgentError, "the session has nothing to save yet: it is written with the first answer")
	}
	f, err := os.Open(info.File)
	if err != nil {
		return nil, errorf(CodeInternalError, "read the session file: %v", err)
	}
	defer f.Close()
	// A query may be appending: keep whole lines only. The copy is read
	// from the file as it is written, never held whole.
	size, err := wholeLines(f)
	if err != nil {
		return nil, errorf(CodeInternalError, "read the session file: %v", err)
	}
	path := info.File
	if p.Path != "" && filepath.Clean(p.Path) != info.File {
		path = filepath.Clean(p.Path)
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return nil, errorf(CodeInvalidParams, "%s is a directory; give a file path", path)
		}
		if _, err := atomicfile.WriteFrom(path, io.NewSectionReader(f, 0, size), 0o600); err != nil {
			return nil, errorf(CodeAgentError, "write %s: %v", path, err)
		}
	}
	return map[string]any{"saved": true, "path": path, "size": size, "session_id": info.ID}, nil
}

// wholeLines is the length of f up to the end of its last whole line,
// found by reading back from its end; a file without a newline counts
// whole.
func wholeLines(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 32<<10)
	for end := st.Size(); end > 0; {
		start := max(0, end-int64(len(buf)))
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return st.Size(), nil
}

// loadParams are session.load's params: the spec's path, or, as
// OpenAgent's backend takes it, a session id (or its start) among this
// directory's sessions.
type loadParams struct {
	Path      string `json:"path"`
	SessionID string `json:"session_id"`
}

// load continues a stored session in this connection's session.
func (c *conn) load(params json.RawMessage) (any, *Error) {
	var p loadParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	path := p.Path
	switch {
	case path == "" && p.SessionID == "":
		return nil, errorf(CodeInvalidParams, "give path (a session file) or session_id")
	case path != "" && !filepath.IsAbs(path):
		return nil, errorf(CodeInvalidParams, "path must be absolute, not %q", path)
	case path == "":
		found, err := c.findSession(p.SessionID)
		if err != nil {
			return nil, err
		}
		path = found
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return nil, errorf(CodeInvalidParams, "no session file at %s", path)
	}
	c.mu.Lock()
	busy := c.running != ""
	c.mu.Unlock()
	if busy {
		return nil, errorf(CodeAgentError, "a query is running; load a session after its stream.complete")
	}
	if err := c.sess.OpenConversation(path); err != nil {
		return nil, errorf(CodeAgentError, "load %s: %v", path, err)
	}
	info := c.sess.Conversation()
	session := map[string]any{"id": info.ID, "path": path, "messages_count": len(c.sess.Messages()), "blocks_count": c.countBlocks()}
	if list, err := c.sess.ListConversations(); err == nil {
		for _, s := range list {
			if s.ID == info.ID {
				session["created"] = s.Created.Unix()
			}
		}
	}
	// loaded and session are the documented answer; session_id and
	// messages are what the shipped terminal reads. The keys are in the
	// order json.Marshal wrote them for a map; messages is written one
	// message at a time, as the translator writes the answer.
	tail, err := json.Marshal(map[string]any{"session": session, "session_id": info.ID})
	if err != nil {
		return nil, errorf(CodeInternalError, "encode the answer: %v", err)
	}
	tail[0] = ','
	return &streamedResult{head: []byte(`{"loaded":true,"messages":`), body: transcriptJSON(c.sess.Messages()), tail: tail}, nil
}

// transcriptJSON writes transcript(msgs) as a JSON array, one message at
// a time: the bytes json.Marshal wrote for transcript(msgs).
type transcriptJSON []core.Message

// WriteTo implements io.WriterTo.
func (t transcriptJSON) WriteTo(w io.Writer) (int64, error) {
	var n int64
	write := func(b []byte) error {
		k, err := w.Write(b)
		n += int64(k)
		return err
	}
	if err := write([]byte{'['}); err != nil {
		return n, err
	}
	first := true
	for _, m := range t {
		tm, ok := transcriptEntry(m)
		if !ok {
			continue
		}
		b, err := json.Marshal(tm)
		if err != nil {
			// Closed, so what was written stays valid JSON.
			return n, errors.Join(err, write([]byte{']'}))
		}
		if !first {
			b = append([]byte{','}, b...)
		}
		first = false
		if err := write(b); err != nil {
			return n, err
		}
	}
	return n, write([]byte{']'})
}

// transcriptMessage is one message as the shipped terminal reads it: role
// user or assistant (it knows no others), the text, an RFC 3339 time.
type transcriptMessage struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	Timestamp  string `json:"timestamp"`
	TokenCount *int   `json:"token_count"`
}

// transcript is the conversation's prompts and answers; tool calls and
// their results are left out, as the terminal has no role for them.
func transcript(msgs []core.Message) []transcriptMessage {
	out := []transcriptMessage{}
	for _, m := range msgs {
		if tm, ok := transcriptEntry(m); ok {
			out = append(out, tm)
		}
	}
	return out
}

// transcriptEntry is m as the terminal reads it, if it shows m.
func transcriptEntry(m core.Message) (transcriptMessage, bool) {
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano) }
	switch m := m.(type) {
	case *core.UserMessage:
		return transcriptMessage{Role: "user", Content: m.Text(), Timestamp: at(m.Timestamp)}, true
	case *core.AssistantMessage:
		if text := m.Text(); text != "" {
			n := m.Usage.Output
			return transcriptMessage{Role: "assistant", Content: text, Timestamp: at(m.Timestamp), TokenCount: &n}, true
		}
	}
	return transcriptMessage{}, false
}

// list answers session.list{limit?}: this directory's sessions, newest
// first, in the shape the shipped terminal reads.
func (c *conn) list(params json.RawMessage) (any, *Error) {
	var p struct {
		Limit *int `json:"limit"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Limit != nil && *p.Limit < 0 {
		return nil, errorf(CodeInvalidParams, "limit must not be negative, not %d", *p.Limit)
	}
	infos, err := c.sess.ListConversations()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, errorf(CodeAgentError, "list sessions: %v", err)
	}
	if p.Limit != nil && len(infos) > *p.Limit {
		infos = infos[:*p.Limit]
	}
	sessions := []map[string]any{}
	for _, in := range infos {
		sessions = append(sessions, map[string]any{
			"session_id": in.ID, "title": sessionTitle(in),
			"created_at": in.Created.UTC().Format(time.RFC3339Nano), "updated_at": in.Modified.UTC().Format(time.RFC3339Nano),
			// Token totals are not kept per session file.
			"message_count": in.MessageCount, "total_tokens": 0,
		})
	}
	return map[string]any{"sessions": sessions}, nil
}

// sessionTitle is a session's name, else the start of its first prompt.
func sessionTitle(in session.Info) string {
	title := in.Name
	if title == "" {
		title = strings.Join(strings.Fields(in.FirstMessage), " ")
	}
	if r := []rune(title); len(r) > 60 {
		title = string(r[:59]) + "…"
	}
	if title == "" {
		title = "Session " + in.ID
	}
	return title
}

// export answers session.export{session_id?, format?}: the session (this
// connection's when no id is given) as markdown, the one format the
// terminal asks for.
func (c *conn) export(params json.RawMessage) (any, *Error) {
	var p struct {
		SessionID string `json:"session_id"`
		Format    string `json:"format"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Format != "" && p.Format != "markdown" {
		return nil, errorf(CodeInvalidParams, "format must be markdown, not %q", p.Format)
	}
	msgs, id := c.sess.Messages(), c.sess.Conversation().ID
	if p.SessionID != "" {
		path, err := c.findSession(p.SessionID)
		if err != nil {
			return nil, err
		}
		f, ferr := session.Open(path)
		if ferr != nil {
			return nil, errorf(CodeAgentError, "open %s: %v", path, ferr)
		}
		msgs, id = f.Context().Messages, f.Header().ID
		_ = f.Close()
	}
	// {"content": the markdown, "format": "markdown"}, the markdown
	// written a message at a time as the answer is written.
	return &streamedResult{head: []byte(`{"content":`), body: markdownJSON{id: id, msgs: msgs}, tail: []byte(`,"format":"markdown"}`)}, nil
}

// markdownJSON writes a session's prompts and answers as markdown, a JSON
// string written a message at a time: the bytes json.Marshal wrote for
// the whole markdown (each piece is escaped alone, and pieces meet at
// ASCII newlines, where escaping cannot differ).
type markdownJSON struct {
	id   string
	msgs []core.Message
}

// WriteTo implements io.WriterTo.
func (md markdownJSON) WriteTo(w io.Writer) (int64, error) {
	var n int64
	write := func(piece string) error {
		b, _ := json.Marshal(piece) // a string always encodes
		k, err := w.Write(b[1 : len(b)-1])
		n += int64(k)
		return err
	}
	if _, err := w.Write([]byte{'"'}); err != nil {
		return n, err
	}
	n++
	if err := write(fmt.Sprintf("# Session %s\n", md.id)); err != nil {
		return n, err
	}
	for _, m := range md.msgs {
		tm, ok := transcriptEntry(m)
		if !ok {
			continue
		}
		role := "User"
		if tm.Role == "assistant" {
			role = "Assistant"
		}
		if err := write(fmt.Sprintf("\n## %s (%s)\n\n%s\n", role, tm.Timestamp, tm.Content)); err != nil {
			return n, err
		}
	}
	k, err := w.Write([]byte{'"'})
	return n + int64(k), err
}

// delete answers session.delete{session_id}: removes a stored session of
// this directory; the one this connection has open is refused.
func (c *conn) delete(params json.RawMessage) (any, *Error) {
	var p struct {
		SessionID string `json:"session_id"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.SessionID == "" {
		return nil, errorf(CodeInvalidParams, "session_id is required")
	}
	path, err := c.findSession(p.SessionID)
	if err != nil {
		return nil, err
	}
	if info := c.sess.Conversation(); info.File != "" && filepath.Clean(info.File) == filepath.Clean(path) {
		return nil, errorf(CodeAgentError, "session %s is the one open on this connection; load another before deleting it", info.ID)
	}
	if err := os.Remove(path); err != nil {
		return nil, errorf(CodeAgentError, "delete %s: %v", path, err)
	}
	return map[string]any{"deleted": p.SessionID}, nil
}

// findSession resolves a session of this directory by its id, its name or
// the start of its id (see session.Match).
func (c *conn) findSession(ref string) (string, *Error) {
	list, err := c.sess.ListConversations()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", errorf(CodeAgentError, "list sessions: %v", err)
	}
	in, err := session.Match(list, ref)
	if err != nil {
		return "", errorf(CodeInvalidParams, "%v in this directory", err)
	}
	return in.Path, nil
}

// countBlocks counts what the conversation would show as blocks: fenced
// code in answers and tool results.
func (c *conn) countBlocks() int {
	n := 0
	for _, m := range c.sess.Messages() {
		switch m := m.(type) {
		case *core.AssistantMessage:
			n += len(codeBlocks(m.Text()))
		case *core.ToolResultMessage:
			n++
		}
	}
	return n
}
