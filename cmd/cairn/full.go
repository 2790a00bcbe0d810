//go:build !headless

package main

import (
	"context"

	"github.com/cairn-dev/cairn/core/export"
)

// This is the full build: the TUI, the highlighter and every mode in one
// binary (go build ./cmd/cairn, go install). make build also makes a
// headless build (headless.go) and installs this one beside it as
// cairn-tui.

// handOverTUI is the headless build's; the full build runs the TUI itself.
func handOverTUI([]string, IOStreams) (int, bool) { return 0, false }

// exportSession writes the session file as an HTML page, in this process.
func exportSession(_ context.Context, file, out, model string) (string, error) {
	return export.Session(file, out, model, export.Options{})
}
