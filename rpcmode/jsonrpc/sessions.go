package jsonrpc

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/atomicfile"
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
	data, err := os.ReadFile(info.File)
	if err != nil {
		return nil, errorf(CodeInternalError, "read the session file: %v", err)
	}
	// A query may be appending: keep whole lines only.
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	}
	path := info.File
	if p.Path != "" && filepath.Clean(p.Path) != info.File {
		path = filepath.Clean(p.Path)
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return nil, errorf(CodeInvalidParams, "%s is a directory; give a file path", path)
		}
		if err := atomicfile.Write(path, data, 0o600); err != nil {
			return nil, errorf(CodeAgentError, "write %s: %v", path, err)
		}
	}
	return map[string]any{"saved": true, "path": path, "size": len(data), "session_id": info.ID}, nil
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
	return map[string]any{"loaded": true, "session": session}, nil
}

// findSession resolves a session id, or the start of one.
func (c *conn) findSession(id string) (string, *Error) {
	list, err := c.sess.ListConversations()
	if err != nil {
		return "", errorf(CodeAgentError, "list sessions: %v", err)
	}
	var match []string
	for _, s := range list {
		if strings.HasPrefix(s.ID, id) {
			match = append(match, s.Path)
		}
	}
	switch len(match) {
	case 0:
		return "", errorf(CodeInvalidParams, "no session of this directory has an id starting %q", id)
	case 1:
		return match[0], nil
	}
	return "", errorf(CodeInvalidParams, "%d sessions have ids starting %q; give more of the id", len(match), id)
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
