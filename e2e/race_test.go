//go:build race

package e2e

// raceEnabled reports whether the tests run with -race; cairn is then
// built with it too, so a data race in the real TUI fails the test (the
// race detector makes cairn exit with status 66).
const raceEnabled = true
