package webui

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/rpcmode/acp"
)

// fakeCairn serves ACP over in-process pipes the way `cairn serve` does,
// with the scripted faux model: each Dial is a connection of its own over
// sessions stored in one directory.
type fakeCairn struct {
	t        *testing.T
	cwd      string
	storeDir string
	faux     *faux.Provider
	mode     approval.Mode
	// timeout is how long a question waits for its answer (a minute when
	// zero).
	timeout time.Duration

	mu    sync.Mutex
	dials int
	serve sync.WaitGroup
}

func newFakeCairn(t *testing.T, mode approval.Mode, opts faux.Options, responses ...faux.Response) *fakeCairn {
	t.Helper()
	c := &fakeCairn{t: t, cwd: t.TempDir(), storeDir: t.TempDir(), faux: faux.New(opts, responses...), mode: mode}
	// Every connection's Serve has returned before the test ends.
	t.Cleanup(c.serve.Wait)
	return c
}

// Dials reports how many streams were opened.
func (c *fakeCairn) Dials() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dials
}

// host builds a session in dir with its gate and tools.
func (c *fakeCairn) host(dir string) (acp.Host, error) {
	timeout := c.timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	gate, err := approval.Open(approval.Config{Mode: c.mode, Dir: dir, RulesFile: approval.ProjectRulesFile(dir), Timeout: timeout})
	if err != nil {
		return acp.Host{}, err
	}
	ws := tools.NewWorkspace()
	toolset := append(tools.NewIn(dir, ws), tools.NewTodoWrite())
	store := session.Store{Dir: c.storeDir}
	sess, err := agent.New(agent.Config{
		Model:         faux.Model,
		Open:          func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: c.faux}, nil },
		Models:        []core.Model{faux.Model},
		Tools:         toolset,
		Approver:      gate,
		SystemPrompt:  func([]core.Tool) string { return "You are a test assistant." },
		Conversations: agent.NewFileConversations(store, dir, store.Create(dir)),
	})
	if err != nil {
		return acp.Host{}, err
	}
	h := acp.Host{Session: sess, Approvals: gate, Tools: toolset, Workspace: ws, Cwd: dir, Version: "test"}
	h.ListSessions = func(cwd string) ([]session.Info, error) {
		if cwd == "" {
			return store.ListAll()
		}
		return store.List(cwd)
	}
	return h, nil
}

// Dial is Config.Dial: a new ACP server on a pipe.
func (c *fakeCairn) Dial(ctx context.Context) (io.ReadWriteCloser, error) {
	h, err := c.host(c.cwd)
	if err != nil {
		return nil, err
	}
	h.Open = func(dir string, _ []mcp.Server) (acp.Host, error) {
		next, err := c.host(dir)
		if err != nil {
			return acp.Host{}, err
		}
		next.Close = next.Session.Close
		return next, nil
	}
	c.mu.Lock()
	c.dials++
	c.mu.Unlock()
	page, agentEnd := net.Pipe()
	c.serve.Add(1)
	go func() {
		defer c.serve.Done()
		_ = acp.Serve(ctx, agentEnd, agentEnd, h)
		h.Session.Close()
		agentEnd.Close()
	}()
	return page, nil
}
