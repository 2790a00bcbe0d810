package markdown

import "testing"

func TestCache(t *testing.T) {
	var c Cache
	a := c.Get(darkPalette, 80)
	if c.Get(darkPalette, 80) != a {
		t.Error("same palette and width gave a new renderer")
	}
	if c.Get(lightPalette, 80) == a || c.Get(darkPalette, 81) == a {
		t.Error("a different palette or width gave the same renderer")
	}
	if c.Get(darkPalette, 2) != c.Get(darkPalette, minWidth) {
		t.Error("widths below the minimum are not the minimum")
	}
	// a is still among the four most recently used.
	if c.Get(darkPalette, 80) != a {
		t.Error("recently used renderer was dropped")
	}
	for w := 90; w < 90+cacheSize; w++ {
		c.Get(darkPalette, w)
	}
	if len(c.recent) != cacheSize {
		t.Errorf("cache holds %d renderers, want %d", len(c.recent), cacheSize)
	}
	if c.Get(darkPalette, 80) == a {
		t.Error("least recently used renderer was kept past the cache size")
	}
}
