package markdown

// cacheSize is how many renderers a Cache keeps: enough for the widths a
// terminal passes through while it is resized, and a theme switch.
const cacheSize = 4

// Cache hands out one Renderer per palette and width, building it on first
// use and keeping the few most recently used, so that callers can ask for a
// renderer on every frame without paying for glamour's setup. The zero value
// is ready to use; a Cache is not safe for concurrent use.
type Cache struct {
	recent []*Renderer // most recently used first
}

// Get returns the Renderer for palette p and width, building it if the
// cache does not hold one.
func (c *Cache) Get(p Palette, width int) *Renderer {
	width = max(width, minWidth)
	for i, r := range c.recent {
		if r.width == width && r.palette == p {
			copy(c.recent[1:i+1], c.recent[:i])
			c.recent[0] = r
			return r
		}
	}
	r := New(p, width)
	if len(c.recent) < cacheSize {
		c.recent = append(c.recent, nil)
	}
	copy(c.recent[1:], c.recent)
	c.recent[0] = r
	return r
}
