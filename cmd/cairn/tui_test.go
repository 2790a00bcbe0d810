//go:build !headless

package main

import (
	"strings"
	"testing"
)

// TestWelcomeOffersTheDemo checks that the screen shown without
// credentials points at --demo.
func TestWelcomeOffersTheDemo(t *testing.T) {
	dir := t.TempDir()
	env := newEnvironment(func(k string) string {
		if k == "CAIRN_DIR" {
			return dir
		}
		return ""
	})
	cat, err := loadCatalog(IOStreams{Err: &strings.Builder{}}, env)
	if err != nil {
		t.Fatal(err)
	}
	fr := firstRunHelp(cat, env)
	if !strings.Contains(strings.Join(fr.Lines, "\n"), "cairn --demo") {
		t.Fatalf("the welcome does not offer the demo:\n%s", strings.Join(fr.Lines, "\n"))
	}
}
