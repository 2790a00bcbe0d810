package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// grepDefaultLimit is how many matching lines grep returns unless asked.
const grepDefaultLimit = 100

// Grep is the grep tool: a regular-expression (or literal) search through
// the files of a tree, skipping what .gitignore excludes, binary files and
// .git, with matches listed as "path:line: text".
type Grep struct {
	// Dir is the working directory relative paths are taken from.
	Dir string
}

// NewGrep returns the grep tool working in cwd.
func NewGrep(cwd string) *Grep { return &Grep{Dir: cwd} }

// GrepDetails are the details of a grep result, present when something was
// left out: the match limit that was reached, how the text was cut, and
// whether long lines were shortened.
type GrepDetails struct {
	MatchLimitReached int         `json:"matchLimitReached,omitempty"`
	Truncation        *Truncation `json:"truncation,omitempty"`
	LinesTruncated    bool        `json:"linesTruncated,omitempty"`
}

var grepSpec = core.ToolSpec{
	Name: "grep",
	Description: "Search the contents of files for a pattern and list the matching lines as " +
		"path:line: text. Files excluded by .gitignore are skipped. At most 100 matches (or the limit " +
		"given) and 50KB are returned; lines longer than 500 characters are shortened.",
	Parameters: json.RawMessage(`{"type":"object","required":["pattern"],"properties":{` +
		`"pattern":{"type":"string","description":"Regular expression to look for, or plain text when literal is true"},` +
		`"path":{"type":"string","description":"Directory or file to search (default: the working directory)"},` +
		`"glob":{"type":"string","description":"Only search files matching this glob, such as '*.go' or 'cmd/**/*.go'"},` +
		`"ignoreCase":{"type":"boolean","description":"Ignore letter case (default: false)"},` +
		`"literal":{"type":"boolean","description":"Take the pattern as plain text, not a regular expression (default: false)"},` +
		`"context":{"type":"number","description":"Lines to show before and after each match (default: 0)"},` +
		`"limit":{"type":"number","description":"Most matches to return (default: 100)"}}}`),
}

// Spec describes the tool to the model.
func (*Grep) Spec() core.ToolSpec { return grepSpec }

// Category is info: searching changes nothing.
func (*Grep) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is search.
func (*Grep) Kind() core.ToolKind { return core.KindSearch }

type grepArgs struct {
	Pattern    *string `json:"pattern"`
	Path       *string `json:"path"`
	Glob       *string `json:"glob"`
	IgnoreCase boolean `json:"ignoreCase"`
	Literal    boolean `json:"literal"`
	Context    number  `json:"context"`
	Limit      number  `json:"limit"`
}

// Execute runs the search the call describes.
func (g *Grep) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a grepArgs
	if err := decodeArgs(grepSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("grep", "pattern", a.Pattern); err != nil {
		return errorResult(err.Error()), nil
	}
	m, err := newLineMatcher(*a.Pattern, a.IgnoreCase.value, a.Literal.value)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	root := toolpath.ResolveExisting(deref(a.Path, "."), g.Dir)
	info, err := os.Stat(root)
	if err != nil {
		return errorResult("Path not found: " + root), nil
	}
	limit := max(1, a.Limit.intOr(grepDefaultLimit))
	s := &grepSearch{matcher: m, limit: limit, context: max(0, a.Context.intOr(0))}

	if info.IsDir() {
		keep, err := globFilter(deref(a.Glob, ""))
		if err != nil {
			return errorResult(fmt.Sprintf("Invalid glob %q: %v", *a.Glob, err)), nil
		}
		entries, err := walkTree(ctx, walkOptions{root: root, ignore: ancestorIgnores(root), keep: keep})
		if err != nil {
			return abortedResult(), nil
		}
		s.files = entries
	} else {
		s.files = []walkEntry{{rel: filepath.Base(root), abs: root}}
	}
	res, err := s.run(ctx)
	if err != nil {
		return abortedResult(), nil
	}
	return grepResult(res, limit), nil
}

// globFilter returns the walk filter for grep's glob argument: regular
// files only, and of those the ones the glob matches. A glob without a slash
// is matched against file names, one with a slash against the path from the
// search directory; a leading '!' excludes instead.
func globFilter(pattern string) (func(rel, name string, mode fs.FileMode) bool, error) {
	regular := func(_, _ string, mode fs.FileMode) bool { return mode.IsRegular() }
	if pattern == "" {
		return regular, nil
	}
	negate := strings.HasPrefix(pattern, "!")
	pattern = strings.TrimPrefix(pattern, "!")
	anchored := strings.Contains(pattern, "/")
	pattern = strings.TrimPrefix(pattern, "/")
	gl, err := compileGlob(pattern, globOptions{braces: true})
	if err != nil {
		return nil, err
	}
	return func(rel, name string, mode fs.FileMode) bool {
		if !mode.IsRegular() {
			return false
		}
		subject := name
		if anchored {
			subject = rel
		}
		return gl.match(subject) != negate
	}, nil
}

// grepResult formats the matches found, with pi's notes on what was left
// out.
func grepResult(r grepFound, limit int) core.ToolResult {
	if r.matches == 0 {
		return core.TextResult("No matches found")
	}
	t := truncateHead(strings.Join(r.lines, "\n"), unlimitedLines, DefaultMaxBytes)
	var d GrepDetails
	var notes []string
	if r.matches >= limit {
		notes = append(notes, fmt.Sprintf("%d matches limit reached. Use limit=%d for more, or refine pattern", limit, limit*2))
		d.MatchLimitReached = limit
	}
	if t.Truncated {
		notes = append(notes, formatSize(DefaultMaxBytes)+" limit reached")
		d.Truncation = &t
	}
	if r.linesTruncated {
		notes = append(notes, "Some lines truncated to "+strconv.Itoa(GrepMaxLineLength)+" chars. Use read tool to see full lines")
		d.LinesTruncated = true
	}
	if len(notes) == 0 {
		return core.TextResult(t.Content)
	}
	return withDetails(t.Content+"\n\n["+strings.Join(notes, ". ")+"]", d)
}

func deref(s *string, def string) string {
	if s == nil || *s == "" {
		return def
	}
	return *s
}
