// Package pihometest finds pi 0.87.1 for tests that check pi itself reads
// what cairn wrote into its home.
package pihometest

import (
	"os"
	"path/filepath"
	"testing"
)

// Command returns the command that runs pi 0.87.1: CAIRN_PI (a wrapper),
// else the wrapper ../shared/tools/pi-install.sh leaves in its cache
// (PI_CACHE, else ~/.cache/cairn-pi). Without pi the test is skipped,
// unless CI is set: then it fails.
func Command(t testing.TB) []string {
	t.Helper()
	if p := os.Getenv("CAIRN_PI"); p != "" {
		return []string{p}
	}
	cache := os.Getenv("PI_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "cairn-pi")
	}
	w := filepath.Join(cache, "pi-0.87.1", "pi")
	if _, err := os.Stat(w); err == nil {
		return []string{w}
	}
	const how = "install it with ../shared/tools/pi-install.sh (and set CAIRN_PI to the wrapper it prints)"
	if os.Getenv("CI") != "" {
		t.Fatalf("pi 0.87.1 is not installed; CI is set, so this test may not be skipped: %s", how)
	}
	t.Skipf("pi 0.87.1 is not installed; to run this test, %s", how)
	return nil
}
