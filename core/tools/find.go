package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"unicode"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// findDefaultLimit is how many paths find returns unless asked.
const findDefaultLimit = 1000

// Find is the find tool: it lists the files and directories of a tree whose
// names (or paths) match a glob, skipping what .gitignore excludes.
type Find struct {
	// Dir is the working directory relative paths are taken from.
	Dir string
}

// NewFind returns the find tool working in cwd.
func NewFind(cwd string) *Find { return &Find{Dir: cwd} }

// FindDetails are the details of a find result, present when something was
// left out: the result limit that was reached and how the text was cut.
type FindDetails struct {
	ResultLimitReached int         `json:"resultLimitReached,omitempty"`
	Truncation         *Truncation `json:"truncation,omitempty"`
}

var findSpec = core.ToolSpec{
	Name: "find",
	Description: "Find files and directories by glob and list their paths relative to the search " +
		"directory, directories ending in '/'. Files excluded by .gitignore are skipped. At most 1000 " +
		"paths (or the limit given) and 50KB are returned.",
	Parameters: json.RawMessage(`{"type":"object","required":["pattern"],"properties":{` +
		`"pattern":{"type":"string","description":"Glob to match: against names, such as '*.go', or against paths when it has a slash, such as 'cmd/**/*_test.go'"},` +
		`"path":{"type":"string","description":"Directory to search (default: the working directory)"},` +
		`"limit":{"type":"number","description":"Most paths to return (default: 1000)"}}}`),
}

// Spec describes the tool to the model.
func (*Find) Spec() core.ToolSpec { return findSpec }

// Category is info: searching changes nothing.
func (*Find) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is search.
func (*Find) Kind() core.ToolKind { return core.KindSearch }

type findArgs struct {
	Pattern *string `json:"pattern"`
	Path    *string `json:"path"`
	Limit   number  `json:"limit"`
}

// Execute lists the paths the call's glob matches.
func (t *Find) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a findArgs
	if err := decodeArgs(findSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("find", "pattern", a.Pattern); err != nil {
		return errorResult(err.Error()), nil
	}
	root := toolpath.ResolveExisting(deref(a.Path, "."), t.Dir)
	info, err := os.Stat(root)
	if err != nil {
		return errorResult("Path not found: " + root), nil
	}
	if !info.IsDir() {
		return errorResult("Not a directory: " + root), nil
	}
	keep, err := findFilter(*a.Pattern, root)
	if err != nil {
		return errorResult(fmt.Sprintf("Invalid glob %q: %v", *a.Pattern, err)), nil
	}
	entries, err := walkTree(ctx, walkOptions{root: root, ignore: ancestorIgnores(root), keep: keep})
	if err != nil {
		return abortedResult(), nil
	}
	if len(entries) == 0 {
		return core.TextResult("No files found matching pattern"), nil
	}
	limit := max(1, a.Limit.intOr(findDefaultLimit))
	paths := make([]string, 0, min(limit, len(entries)))
	for _, e := range entries[:min(limit, len(entries))] {
		if e.mode.IsDir() {
			paths = append(paths, e.rel+"/")
		} else {
			paths = append(paths, e.rel)
		}
	}

	t2 := truncateHead(strings.Join(paths, "\n"), unlimitedLines, DefaultMaxBytes)
	var d FindDetails
	var notes []string
	if len(entries) > limit {
		notes = append(notes, fmt.Sprintf("%d results limit reached. Use limit=%d for more, or refine pattern", limit, limit*2))
		d.ResultLimitReached = limit
	}
	if t2.Truncated {
		notes = append(notes, formatSize(DefaultMaxBytes)+" limit reached")
		d.Truncation = &t2
	}
	if len(notes) == 0 {
		return core.TextResult(t2.Content), nil
	}
	return withDetails(t2.Content+"\n\n["+strings.Join(notes, ". ")+"]", d), nil
}

// findFilter returns the walk filter for a find pattern, read as fd reads
// it: a pattern without a slash is matched against names, one with a slash
// against the path from the search directory (at any depth, unless it starts
// with '/' when it is matched against the absolute path). A pattern without
// capital letters matches regardless of case.
func findFilter(pattern, root string) (func(rel, name string, mode fs.FileMode) bool, error) {
	fold := !strings.ContainsFunc(pattern, unicode.IsUpper)
	subject := func(rel, name string) string { return name }
	switch {
	case strings.HasPrefix(pattern, "/"):
		prefix := strings.TrimSuffix(root, "/") + "/"
		subject = func(rel, _ string) string { return prefix + rel }
	case strings.Contains(pattern, "/"):
		if !strings.HasPrefix(pattern, "**/") && pattern != "**" {
			pattern = "**/" + pattern
		}
		subject = func(rel, _ string) string { return rel }
	}
	g, err := compileGlob(pattern, globOptions{braces: true, fold: fold})
	if err != nil {
		return nil, err
	}
	return func(rel, name string, _ fs.FileMode) bool { return g.match(subject(rel, name)) }, nil
}
