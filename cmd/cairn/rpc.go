package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/rpcmode/pi"
)

// rpcMode serves pi's rpc protocol on stdin and stdout until stdin ends or
// the process is told to stop; then the session file is flushed and cairn
// exits 0. Only protocol frames reach stdout; warnings go to stderr.
func rpcMode(ctx context.Context, streams IOStreams, env environment, opts *Options) int {
	ui := pi.NewUI()
	var mem *pi.MemorySessions
	var memStore agent.Store
	if opts.NoSession {
		mem = pi.NewMemorySessions()
		memStore = mem.Store()
	}
	a, err := buildApp(streams, env, opts, ui, memStore)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	defer a.close()
	host := pi.Host{
		Session:   a.session,
		Models:    a.cat,
		Settings:  a.settings,
		UI:        ui,
		Approvals: a.gate,
		Bash:      &pi.ExecBash{Dir: a.cwd, Shell: a.settings.Effective().ShellPath, Prefix: a.settings.Effective().ShellCommandPrefix},
	}
	if mem != nil {
		host.Sessions = mem
	} else {
		fs := &fileSessions{a: a, store: sessionStore(env, opts)}
		host.Sessions = fs
	}
	if err := pi.Serve(ctx, streams.In, streams.Out, host); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// fileSessions gives the rpc session commands the session files of
// core/session. The app's file is replaced on new, switch and fork.
type fileSessions struct {
	a     *app
	store session.Store
	mu    sync.Mutex
}

func (s *fileSessions) file() *session.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.a.file
}

// replace makes f the current file, closing the old one, and returns the
// conversation to continue.
func (s *fileSessions) replace(f *session.File) pi.Conversation {
	s.mu.Lock()
	old := s.a.file
	s.a.file = f
	s.mu.Unlock()
	if old != nil && old != f {
		_ = old.Close()
	}
	ctx := f.Context()
	c := pi.Conversation{Store: f, Messages: ctx.Messages, EntryIDs: ctx.EntryIDs, Thinking: ctx.ThinkingLevel}
	if ctx.Model != nil {
		c.Provider, c.ModelID = ctx.Model.Provider, ctx.Model.ModelID
	}
	return c
}

// Info implements pi.Sessions.
func (s *fileSessions) Info() pi.SessionInfo {
	f := s.file()
	info := pi.SessionInfo{ID: f.Header().ID, Name: f.Name()}
	if f.Persisted() {
		info.File = f.FilePath()
	}
	return info
}

// SetName implements pi.Sessions.
func (s *fileSessions) SetName(name string) error {
	_, err := s.file().Append(&session.SessionInfoEntry{Name: name})
	return err
}

// New implements pi.Sessions.
func (s *fileSessions) New(string) (pi.Conversation, error) {
	f := s.store.Create(s.a.cwd)
	return s.replace(f), nil
}

// Switch implements pi.Sessions.
func (s *fileSessions) Switch(path string) (pi.Conversation, error) {
	f, err := session.Open(path)
	if err != nil {
		return pi.Conversation{}, fmt.Errorf("open session %s: %w", path, err)
	}
	for _, w := range f.Warnings() {
		fmt.Fprintf(os.Stderr, "cairn: warning: session %s: %v\n", path, w)
	}
	return s.replace(f), nil
}

// Fork implements pi.Sessions: a new file with the path up to the user
// message's parent; the message's text is returned for editing.
func (s *fileSessions) Fork(entryID string) (string, pi.Conversation, error) {
	cur := s.file()
	e, err := cur.Entry(entryID)
	if err != nil {
		return "", pi.Conversation{}, fmt.Errorf("no entry %s in this session: %w", entryID, err)
	}
	me, ok := e.Payload.(*session.MessageEntry)
	u, isUser := core.Message(nil), false
	if ok {
		u = me.Message
		_, isUser = u.(*core.UserMessage)
	}
	if !isUser {
		return "", pi.Conversation{}, errors.New("fork needs the entry id of a user message (see get_fork_messages)")
	}
	parent := ""
	if e.ParentID != nil {
		parent = *e.ParentID
	}
	f, err := cur.Fork(parent)
	if err != nil {
		return "", pi.Conversation{}, err
	}
	return u.(*core.UserMessage).Text(), s.replace(f), nil
}

// ForkMessages implements pi.Sessions.
func (s *fileSessions) ForkMessages() ([]pi.ForkMessage, error) {
	f := s.file()
	out := []pi.ForkMessage{}
	for _, n := range f.Nodes() {
		if n.Type != session.TypeMessage {
			continue
		}
		e, err := f.Entry(n.ID)
		if err != nil {
			return nil, err
		}
		if me, ok := e.Payload.(*session.MessageEntry); ok {
			if u, ok := me.Message.(*core.UserMessage); ok {
				out = append(out, pi.ForkMessage{EntryID: n.ID, Text: u.Text()})
			}
		}
	}
	return out, nil
}
