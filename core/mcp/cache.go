package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-dev/cairn/core/atomicfile"
	"github.com/cairn-dev/cairn/core/tools"
)

// ToolCache remembers each server's tools between runs, so listings (/mcp,
// rpc's get_mcp_servers) can show them while the server starts. It never
// decides what a session declares: that is the live tools' job. An entry
// holds only for the exact configuration it was listed with.
type ToolCache struct {
	Path string

	mu sync.Mutex
}

// CacheFile is where cairn keeps the cache: <cairnDir>/mcp/tools.json.
func CacheFile(cairnDir string) string { return filepath.Join(cairnDir, "mcp", "tools.json") }

// maxCacheBytes bounds the tool cache file.
const maxCacheBytes = 32 << 20

type cacheEntry struct {
	Key   string     `json:"key"`
	Tools []ToolInfo `json:"tools"`
}

// Key identifies a server's configuration: a change to its command,
// arguments, environment, directory, URL or headers makes the cached
// tools stale.
func Key(s Server) string {
	b, _ := json.Marshal([]any{s.Transport, s.Command, s.Args, s.Env, s.Dir, s.URL, s.Headers})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (c *ToolCache) read() map[string]cacheEntry {
	entries := map[string]cacheEntry{}
	// The cache may outgrow a configuration file (many servers, large
	// schemas): read it with its own, larger limit, or Store would drop
	// every other server's entry.
	data, err := tools.ReadRegular(c.Path, maxCacheBytes)
	if err == nil {
		_ = json.Unmarshal(data, &entries)
	}
	return entries
}

// Lookup returns the cached tools of each server whose configuration is
// unchanged.
func (c *ToolCache) Lookup(servers []Server) map[string][]ToolInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	entries := c.read()
	out := map[string][]ToolInfo{}
	for _, s := range servers {
		if e, ok := entries[s.Name]; ok && e.Key == Key(s) {
			out[s.Name] = e.Tools
		}
	}
	return out
}

// Store records s's tools. Errors are ignored: the cache only saves time.
func (c *ToolCache) Store(s Server, tools []ToolInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	entries := c.read()
	entries[s.Name] = cacheEntry{Key: Key(s), Tools: tools}
	data, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(c.Path), 0o700) == nil {
		_ = atomicfile.Write(c.Path, data, 0o600)
	}
}
