package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// lsDefaultLimit is how many entries ls returns unless asked.
const lsDefaultLimit = 500

// Ls is the ls tool: it lists one directory, every entry including dotfiles
// and ignored ones, sorted without regard to case, directories (and links to
// them) ending in '/'.
type Ls struct {
	// Dir is the working directory relative paths are taken from.
	Dir string
}

// NewLs returns the ls tool working in cwd.
func NewLs(cwd string) *Ls { return &Ls{Dir: cwd} }

// LsDetails are the details of an ls result, present when something was
// left out: the entry limit that was reached and how the text was cut.
type LsDetails struct {
	EntryLimitReached int         `json:"entryLimitReached,omitempty"`
	Truncation        *Truncation `json:"truncation,omitempty"`
}

var lsSpec = core.ToolSpec{
	Name: "ls",
	Description: "List a directory: every entry, dotfiles included, in alphabetical order, directories " +
		"ending in '/'. At most 500 entries (or the limit given) and 50KB are returned.",
	Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"Directory to list (default: the working directory)"},` +
		`"limit":{"type":"number","description":"Most entries to return (default: 500)"}}}`),
}

// Spec describes the tool to the model.
func (*Ls) Spec() core.ToolSpec { return lsSpec }

// Category is info: listing changes nothing.
func (*Ls) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is read: it reads one directory.
func (*Ls) Kind() core.ToolKind { return core.KindRead }

type lsArgs struct {
	Path  *string `json:"path"`
	Limit number  `json:"limit"`
}

// Execute lists the call's directory.
func (t *Ls) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a lsArgs
	if err := decodeArgs(lsSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if ctx.Err() != nil {
		return abortedResult(), nil
	}
	dir := toolpath.ResolveExisting(deref(a.Path, "."), t.Dir)
	info, err := os.Stat(dir)
	if err != nil {
		return errorResult("Path not found: " + dir), nil
	}
	if !info.IsDir() {
		return errorResult("Not a directory: " + dir), nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return errorResult(fmt.Sprintf("Cannot read directory: %v", unwrapPathError(err))), nil
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})

	limit := max(1, a.Limit.intOr(lsDefaultLimit))
	limitReached := len(names) > limit
	names = names[:min(limit, len(names))]
	for i, name := range names {
		// Stat follows links, so a link to a directory reads as one.
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.IsDir() {
			names[i] = name + "/"
		}
	}
	if len(names) == 0 {
		return core.TextResult("(empty directory)"), nil
	}

	tr := truncateHead(strings.Join(names, "\n"), unlimitedLines, DefaultMaxBytes)
	var d LsDetails
	var notes []string
	if limitReached {
		notes = append(notes, fmt.Sprintf("%d entries limit reached. Use limit=%d for more", limit, limit*2))
		d.EntryLimitReached = limit
	}
	if tr.Truncated {
		notes = append(notes, formatSize(DefaultMaxBytes)+" limit reached")
		d.Truncation = &tr
	}
	if len(notes) == 0 {
		return core.TextResult(tr.Content), nil
	}
	return withDetails(tr.Content+"\n\n["+strings.Join(notes, ". ")+"]", d), nil
}
