package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/jsonl"
)

// Live is what ServeLive serves: the sessions running in this process,
// whatever front end owns them.
type Live interface {
	// Sessions lists the live sessions' hosts, oldest first.
	Sessions() []LiveSession
	// Find returns the live session whose id is id (or, alone, starts
	// with it); the error says why none is.
	Find(id string) (LiveSession, error)
}

// LiveSession is a session another front end owns, as an attached client
// sees it.
type LiveSession struct {
	// Host is the session as Serve would serve it. Its Close is never
	// called and its Workspace stays the owner's.
	Host Host
	// Front names the owner ("tui", "rpc", "acp", ...), for lists.
	Front string
	// Started is when the session began to be served.
	Started time.Time
}

// AttachMethod is the notification a client sends before session/new to
// say which live session session/new attaches to (`cairn acp --attach
// SESSION` sends it for the editor): params {"sessionId": "..."}.
const AttachMethod = "_cairn/attach"

// ServeLive speaks ACP on in and out for a client attaching to sessions
// that run in this process (a TUI, an rpc host, another editor): it joins
// them, it does not own them. session/list lists them; session/load
// attaches to one (its history replays first, then its open questions,
// then every event as it happens), as does session/new (the session
// AttachMethod named, else the only live one). A prompt while the session
// is busy steers the running turn, as Enter does in the TUI;
// session/cancel aborts the running turn, whoever started it; a
// permission request goes to every attached client and the owner, the
// first answer wins and the others are withdrawn with $/cancel_request.
// When the client goes, the sessions go on; nothing of the client (its
// file system, terminals or MCP servers) is offered to them. base gives
// the settings that hold for the connection (Version, Warn, limits).
func ServeLive(ctx context.Context, in io.Reader, out io.Writer, base Host, live Live) error {
	if live == nil {
		return errors.New("acp.ServeLive: live is required")
	}
	s := newLiveServer(base, live, out)
	readErr := jsonl.ReadUntil(ctx, s.ctx, func() error { return s.readLoop(in) })
	s.shutdown()
	return jsonl.Served("acp", readErr, s.out.failure())
}

func newLiveServer(base Host, live Live, out io.Writer) *server {
	s := newServerState(base, out)
	s.live = live
	return s
}

// attachParams is AttachMethod's params.
type attachParams struct {
	SessionID string `json:"sessionId"`
}

// setTarget takes AttachMethod.
func (s *server) setTarget(raw json.RawMessage) {
	var p attachParams
	if json.Unmarshal(raw, &p) != nil || p.SessionID == "" {
		s.warn("acp: %s without a sessionId was ignored", AttachMethod)
		return
	}
	s.mu.Lock()
	s.target = p.SessionID
	s.mu.Unlock()
}

// liveNew is session/new on the attach socket: it attaches to the target
// session, or to the only live one.
func (s *server) liveNew(m message, p sessionParams) (any, *rpcError) {
	s.mu.Lock()
	target := s.target
	s.mu.Unlock()
	if target == "" {
		all := s.live.Sessions()
		switch len(all) {
		case 0:
			return nil, errorf(CodeInvalidRequest, "Invalid Request: no session is running in this cairn")
		case 1:
			target = all[0].Host.Session.Conversation().ID
		default:
			ids := make([]string, len(all))
			for i, l := range all {
				ids[i] = l.Host.Session.Conversation().ID
			}
			return nil, errorf(CodeInvalidRequest, "Invalid Request: %d sessions run in this cairn (%s); name one with session/load or `cairn acp --attach SESSION`",
				len(all), strings.Join(ids, ", "))
		}
	}
	return s.liveOpen(m, target, p, true, true)
}

// liveOpen attaches to live session id and answers m; replay sends its
// history first. withID puts the session's id in the answer (session/new).
func (s *server) liveOpen(m message, id string, p sessionParams, replay, withID bool) (any, *rpcError) {
	l, err := s.live.Find(id)
	if err != nil {
		return nil, notFound(id, err.Error())
	}
	sid := l.Host.Session.Conversation().ID
	s.mu.Lock()
	t := s.threads[sid]
	s.mu.Unlock()
	if t == nil {
		b := newBound(l.Host)
		t = s.attach(b, false)
		// Everyone in front of the session learns who joined it (and,
		// liveDetach, who left): whoever attaches can answer its questions.
		l.Host.Session.Notify(core.NotifyInfo, s.joinedName()+" joined this session")
		if p.Cwd != nil && !sameDir(*p.Cwd, l.Host.Cwd) {
			// Said, not ignored: the session works where its owner put it.
			b.sub.Mark(markNotice{core.Notice{Level: core.NotifyWarning,
				Message: "this session works in " + l.Host.Cwd + ", not in " + *p.Cwd + " (the directory this client named): it runs in another front end, which chose it"}})
		}
		if len(p.MCPServers) > 0 && string(p.MCPServers) != "[]" && string(p.MCPServers) != "null" {
			// Said, not dropped: the live session keeps its owner's servers.
			b.sub.Mark(markNotice{core.Notice{Level: core.NotifyWarning,
				Message: "this session runs in another front end: it keeps that front end's MCP servers, and the ones this client offered were not added"}})
		}
	}
	res := sessionResult{Modes: modes(t.b), ConfigOptions: s.configOptions(t.b)}
	if withID {
		// session/new: the client learns the id from the answer, so the
		// history follows it (an editor drops updates of a session it does
		// not know yet).
		res.SessionID = t.id
		t.send(response{JSONRPC: "2.0", ID: m.ID, Result: res})
	}
	if replay {
		s.replay(t, t.b.sess.Messages())
	}
	if !withID {
		// session/load: the history, then the answer, as ACP asks.
		t.send(response{JSONRPC: "2.0", ID: m.ID, Result: res})
	}
	// Questions asked before this client came: put to it too, unless
	// answered by the time they are written (or put already).
	for _, q := range t.b.sess.OpenQuestions() {
		t.b.sub.Mark(markOpenQuestion{q})
	}
	s.sendCommands(t)
	return nil, nil
}

// markOpenQuestion is a question that was open when the client attached.
type markOpenQuestion struct{ q core.Question }

func (markOpenQuestion) EventType() string { return "acp_open_question" }

// liveList lists the live sessions for session/list.
func (s *server) liveList(p listParams) (any, *rpcError) {
	out := struct {
		Sessions []sessionInfo `json:"sessions"`
	}{Sessions: []sessionInfo{}}
	for _, l := range s.live.Sessions() {
		if p.Cwd != nil && !sameDir(*p.Cwd, l.Host.Cwd) {
			continue
		}
		sess := l.Host.Session
		title := sess.Conversation().Name
		if title == "" {
			for _, msg := range sess.Messages() {
				if u, ok := msg.(*core.UserMessage); ok {
					title = firstLine(u.Text())
					break
				}
			}
		}
		out.Sessions = append(out.Sessions, sessionInfo{SessionID: sess.Conversation().ID, Cwd: l.Host.Cwd, Title: title,
			UpdatedAt: l.Started.UTC().Format(time.RFC3339),
			Meta:      map[string]any{"cairn": map[string]any{"front": l.Front, "live": true, "busy": sess.State().IsStreaming}}})
	}
	return out, nil
}

// liveDetach lets go of a live session: its last frames are written and
// its events no longer followed; the session itself goes on.
func (s *server) liveDetach(t *thread) {
	t.b.sub.Mark(markEnd{})
	<-t.written
	t.b.sub.Stop()
	t.b.sess.Notify(core.NotifyInfo, s.joinedName()+" left this session")
}

// joinedName names the client in the notices of its coming and going.
func (s *server) joinedName() string {
	s.mu.Lock()
	name := s.clientName
	s.mu.Unlock()
	if name == "" {
		name = "a client"
	}
	if r := []rune(name); len(r) > 60 {
		name = string(r[:59]) + "…"
	}
	return "An attached client (" + escape.Visible(name) + ")"
}

// errNotLive explains a method the attach socket does not serve.
func errNotLive(method string) *rpcError {
	return errorf(CodeMethodNotFound, "Method not found: %s (this connection attaches to live sessions; it cannot %s)", method,
		map[string]string{"session/resume": "resume a stored session: use session/load with a live session's id"}[method])
}

var _ = fmt.Sprint
