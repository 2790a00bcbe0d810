package web

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// maxCached is how many pages the cache keeps; the oldest goes first.
const maxCached = 32

// cache keeps fetched pages' results for CacheFor, in memory.
type cache struct {
	mu      sync.Mutex
	now     func() time.Time
	entries map[string]cached
}

type cached struct {
	at     time.Time
	result core.ToolResult
}

func (c *cache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// get returns the result kept for key, marked as cached, if it is fresh.
func (c *cache) get(key string) (core.ToolResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || c.clock().Sub(e.at) > CacheFor {
		delete(c.entries, key)
		return core.ToolResult{}, false
	}
	r := e.result
	var d map[string]any
	if json.Unmarshal(r.Details, &d) == nil {
		d["cached"] = true
		r.Details, _ = json.Marshal(d)
	}
	return r, true
}

// put keeps r for key, dropping the oldest entry when full.
func (c *cache) put(key string, r core.ToolResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]cached{}
	}
	if len(c.entries) >= maxCached {
		oldest := ""
		for k, e := range c.entries {
			if oldest == "" || e.at.Before(c.entries[oldest].at) {
				oldest = k
			}
		}
		delete(c.entries, oldest)
	}
	c.entries[key] = cached{at: c.clock(), result: r}
}
