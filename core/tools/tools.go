// Package tools holds cairn's built-in tools: read, write, edit, bash, grep,
// find and ls. Each is a core.Tool value bound to a working directory, with
// the parameter names, limits, result texts and details of pi's tools of the
// same names, so models and hosts written for pi see what they expect.
//
// Text results are capped at DefaultMaxLines lines or DefaultMaxBytes bytes:
// read keeps the head and says how to continue, bash keeps the tail and saves
// the whole output to a temporary file, and the search tools cap their
// matches and say how to ask for more.
package tools

import (
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// New returns every built-in tool working in cwd on the local machine, in
// pi's order: read, bash, edit, write, grep, find, ls.
func New(cwd string) []core.Tool { return NewIn(cwd, nil) }

// NewIn returns every built-in tool working in cwd, in pi's order, with
// read, edit, write and bash working in ws (nil is the local machine).
func NewIn(cwd string, ws *Workspace) []core.Tool {
	return []core.Tool{
		&Read{Dir: cwd, Workspace: ws},
		&Bash{Dir: cwd, Workspace: ws},
		&Edit{Dir: cwd, Workspace: ws},
		&Write{Dir: cwd, Workspace: ws},
		NewGrep(cwd),
		NewFind(cwd),
		NewLs(cwd),
	}
}

// errorResult is a failed result with pi's empty details object.
func errorResult(text string) core.ToolResult {
	r := core.ErrorResult(text)
	r.Details = json.RawMessage(`{}`)
	return r
}

// abortedResult is the result of a call whose context ended before it
// finished.
func abortedResult() core.ToolResult { return errorResult("Operation aborted") }

// withDetails returns a successful text result carrying details, or none when
// details is nil.
func withDetails(text string, details any) core.ToolResult {
	r := core.TextResult(text)
	if details != nil {
		r.Details = mustJSON(details)
	}
	return r
}

// mustJSON encodes a details value. The details types are plain structs of
// strings, numbers and booleans, so encoding cannot fail.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}
