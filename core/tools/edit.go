package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// Edit is the edit tool: it replaces exact, unique pieces of a file's text.
// Line endings (LF or CRLF) and a UTF-8 byte order mark are kept as the file
// had them.
type Edit struct {
	// Dir is the working directory relative paths are taken from.
	Dir string
	// Workspace is where it reads and writes; nil is the local machine.
	Workspace *Workspace
}

// NewEdit returns the edit tool working in cwd.
func NewEdit(cwd string) *Edit { return &Edit{Dir: cwd} }

// EditDetails are the details of a successful edit: the change in pi's
// numbered diff form (see lineDiff), the same change as a unified diff
// (pi 0.87's patch, which patch(1) and git apply read), and the first
// changed line of the new file, counting from 1.
type EditDetails struct {
	Diff             string `json:"diff"`
	Patch            string `json:"patch,omitempty"`
	FirstChangedLine int    `json:"firstChangedLine,omitempty"`
}

var editSpec = core.ToolSpec{
	Name: "edit",
	Description: "Change a file by replacing exact pieces of its text. Each edits[].oldText is looked up in " +
		"the file as it was before this call and must occur exactly once; the pieces must not overlap. " +
		"Keep each oldText short but unique, and merge changes to neighbouring lines into a single edit " +
		"rather than padding it with long unchanged stretches.",
	Parameters: json.RawMessage(`{"type":"object","required":["path","edits"],"properties":{` +
		`"path":{"type":"string","description":"File to edit, absolute or relative to the working directory"},` +
		`"edits":{"type":"array","items":{"type":"object","required":["oldText","newText"],"properties":{` +
		`"oldText":{"type":"string","description":"Text to replace, exactly as it appears in the file (whitespace and newlines included); it must occur once and not overlap another edit's oldText"},` +
		`"newText":{"type":"string","description":"Text to put in its place"}},` +
		`"additionalProperties":false},` +
		`"description":"The replacements, each matched against the original file rather than the result of the previous one"}},` +
		`"additionalProperties":false}`),
}

// Spec describes the tool to the model.
func (*Edit) Spec() core.ToolSpec { return editSpec }

// Category is edit: it changes files.
func (*Edit) Category() core.ApprovalCategory { return core.CategoryEdit }

// Kind is edit.
func (*Edit) Kind() core.ToolKind { return core.KindEdit }

// replacement is one oldText/newText pair.
type replacement struct {
	OldText *string `json:"oldText"`
	NewText *string `json:"newText"`
}

type editArgs struct {
	Path  *string         `json:"path"`
	Edits json.RawMessage `json:"edits"`
}

// parseEdits returns the replacements of a call. Besides an array it accepts
// the array encoded as a JSON string (some models send that), read as
// strictly as the call's own arguments.
func (a editArgs) parseEdits() ([]replacement, error) {
	var edits []replacement
	raw := a.Edits
	var s string
	if json.Unmarshal(raw, &s) == nil {
		var wrapped editArgs
		if err := decodeArgs(editSpec, json.RawMessage(`{"edits":`+s+`}`), &wrapped); err != nil {
			return nil, &argError{"edit", "edits must be an array of {oldText, newText} objects"}
		}
		raw = wrapped.Edits
	}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &edits); err != nil {
			return nil, &argError{"edit", "edits must be an array of {oldText, newText} objects"}
		}
	}
	if len(edits) == 0 {
		return nil, &argError{"edit", "edits must contain at least one replacement"}
	}
	for i, e := range edits {
		if e.OldText == nil {
			return nil, &argError{"edit", fmt.Sprintf("edits[%d].oldText is required", i)}
		}
		if e.NewText == nil {
			return nil, &argError{"edit", fmt.Sprintf("edits[%d].newText is required", i)}
		}
	}
	return edits, nil
}

// Execute applies the call's replacements to its file.
func (t *Edit) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a editArgs
	if err := decodeArgs(editSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("edit", "path", a.Path); err != nil {
		return errorResult(err.Error()), nil
	}
	edits, err := a.parseEdits()
	if err != nil {
		return errorResult(err.Error()), nil
	}
	path := *a.Path
	abs := toolpath.Resolve(path, t.Dir)
	unlock, err := fileLocks.lock(ctx, abs)
	if err != nil {
		return abortedResult(), nil
	}
	defer unlock()

	data, err := t.Workspace.readFile(ctx, abs)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	text := string(data)
	bom := ""
	if strings.HasPrefix(text, "\uFEFF") {
		bom, text = "\uFEFF", text[len("\uFEFF"):]
	}
	crlf := usesCRLF(text)
	base, updated, err := applyEdits(toLF(text), edits, path)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	if ctx.Err() != nil {
		return abortedResult(), nil
	}
	out := updated
	if crlf {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	if err := t.Workspace.writeFile(ctx, abs, []byte(bom+out)); err != nil {
		return errorResult(fmt.Sprintf("Could not write %s: %v", path, err)), nil
	}
	diff, first := lineDiff(base, updated)
	return withDetails(fmt.Sprintf("Successfully replaced %d block(s) in %s.", len(edits), path),
		EditDetails{Diff: diff, Patch: unifiedPatch(path, base, updated), FirstChangedLine: first}), nil
}

// usesCRLF reports whether the text's first line ending is CRLF.
func usesCRLF(text string) bool {
	i := strings.IndexByte(text, '\n')
	return i > 0 && text[i-1] == '\r'
}

// toLF turns CRLF and lone CR line endings into LF.
func toLF(text string) string {
	if strings.IndexByte(text, '\r') < 0 {
		return text
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
}

// match is where one replacement's oldText was found.
type match struct {
	edit       int
	start, end int
	newText    string
}

// applyEdits applies replacements to LF text. Every oldText is looked up in
// the original text and must occur exactly once; the matches must not
// overlap. When some oldText is found only after relaxing whitespace at line
// ends and Unicode quotes, dashes and spaces (see relaxText), all of them are
// matched in the relaxed text, which then becomes the base of the edit. It
// returns the base and the edited text.
func applyEdits(text string, edits []replacement, path string) (string, string, error) {
	olds := make([]string, len(edits))
	news := make([]string, len(edits))
	for i, e := range edits {
		olds[i], news[i] = toLF(*e.OldText), toLF(*e.NewText)
		if olds[i] == "" {
			return "", "", editError(len(edits),
				fmt.Sprintf("oldText must not be empty in %s.", path),
				fmt.Sprintf("edits[%d].oldText must not be empty in %s.", i, path))
		}
	}
	base := text
	for _, old := range olds {
		if !strings.Contains(text, old) {
			base = relaxText(text)
			break
		}
	}

	matches := make([]match, 0, len(edits))
	for i, old := range olds {
		hay, needle := base, old
		if !strings.Contains(hay, needle) {
			needle = relaxText(old)
		}
		start := strings.Index(hay, needle)
		if start < 0 {
			return "", "", editError(len(edits),
				fmt.Sprintf("Could not find the exact text in %s. The old text must match exactly including all whitespace and newlines.", path),
				fmt.Sprintf("Could not find edits[%d] in %s. The oldText must match exactly including all whitespace and newlines.", i, path))
		}
		if n := strings.Count(hay, needle); n > 1 {
			return "", "", editError(len(edits),
				fmt.Sprintf("Found %d occurrences of the text in %s. The text must be unique. Please provide more context to make it unique.", n, path),
				fmt.Sprintf("Found %d occurrences of edits[%d] in %s. Each oldText must be unique. Please provide more context to make it unique.", n, i, path))
		}
		matches = append(matches, match{edit: i, start: start, end: start + len(needle), newText: news[i]})
	}
	slices.SortFunc(matches, func(a, b match) int { return a.start - b.start })
	for i := 1; i < len(matches); i++ {
		if prev, cur := matches[i-1], matches[i]; prev.end > cur.start {
			return "", "", fmt.Errorf("edits[%d] and edits[%d] overlap in %s. Merge them into one edit or target disjoint regions.", prev.edit, cur.edit, path)
		}
	}
	var b strings.Builder
	pos := 0
	for _, m := range matches {
		b.WriteString(base[pos:m.start])
		b.WriteString(m.newText)
		pos = m.end
	}
	b.WriteString(base[pos:])
	updated := b.String()
	if updated == base {
		return "", "", editError(len(edits),
			fmt.Sprintf("No changes made to %s. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.", path),
			fmt.Sprintf("No changes made to %s. The replacements produced identical content.", path))
	}
	return base, updated, nil
}

// editError picks the wording for a single edit or for one of several.
func editError(count int, single, multi string) error {
	if count == 1 {
		return errors.New(single)
	}
	return errors.New(multi)
}

// relaxedRunes maps the Unicode quotes, dashes and spaces models tend to
// confuse with their ASCII forms.
var relaxedRunes = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201A", "'", "\u201B", "'",
	"\u201C", `"`, "\u201D", `"`, "\u201E", `"`, "\u201F", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u00A0", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ", "\u2005", " ", "\u2006", " ",
	"\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
)

// relaxText is the form texts are compared in when an exact match fails:
// trailing whitespace removed from every line, and Unicode quotes, dashes
// and spaces written as ASCII.
func relaxText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, isSpace)
	}
	return relaxedRunes.Replace(strings.Join(lines, "\n"))
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\v', '\f', '\r', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
