package host

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/cairn-dev/cairn/core/mcp"
)

// sharedMCP is one running set of MCP servers and how many sessions use it.
type sharedMCP struct {
	manager *mcp.Manager
	users   int
}

// mcpPool keeps the MCP servers shared between sessions.
type mcpPool struct {
	mu   sync.Mutex
	sets map[string]*sharedMCP
}

// MCP returns the MCP servers of cfg in project dir, shared with every
// other session of the same directory whose configuration is the same
// (the same servers, commands, environment, headers and timeouts): the
// first caller starts them with start, later ones get the same manager.
// release gives the caller's use back; the servers stop when the last use
// is given back. With a nil Host start's manager is the caller's own and
// release closes it.
func (h *Host) MCP(dir string, cfg mcp.Config, start func() *mcp.Manager) (m *mcp.Manager, release func()) {
	if h == nil {
		m = start()
		return m, sync.OnceFunc(m.Close)
	}
	key := mcpKey(dir, cfg)
	h.mcp.mu.Lock()
	if h.mcp.sets == nil {
		h.mcp.sets = map[string]*sharedMCP{}
	}
	set := h.mcp.sets[key]
	if set == nil {
		// Started under the lock: starting never waits for a server (the
		// manager starts them in the background), and a second session
		// asking meanwhile must get this set, not start another.
		set = &sharedMCP{manager: start()}
		h.mcp.sets[key] = set
	}
	set.users++
	h.mcp.mu.Unlock()
	return set.manager, sync.OnceFunc(func() {
		h.mcp.mu.Lock()
		set.users--
		last := set.users == 0
		if last && h.mcp.sets[key] == set {
			delete(h.mcp.sets, key)
		}
		h.mcp.mu.Unlock()
		if last {
			set.manager.Close()
		}
	})
}

// MCPSets is how many sets of MCP servers are running, for tests and
// `cairn ps`.
func (h *Host) MCPSets() int {
	if h == nil {
		return 0
	}
	h.mcp.mu.Lock()
	defer h.mcp.mu.Unlock()
	return len(h.mcp.sets)
}

// mcpKey names a configuration in a directory. A configuration that cannot
// be encoded is never shared (its key is unique to the call).
func mcpKey(dir string, cfg mcp.Config) string {
	b, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Sprintf("unshared %d", unshared.Add(1))
	}
	return filepath.Clean(dir) + "\x00" + string(b)
}

// unshared numbers the configurations that are never shared.
var unshared atomic.Uint64
