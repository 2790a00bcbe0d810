//go:build !race

package e2e

// raceEnabled reports whether the tests run with -race.
const raceEnabled = false
