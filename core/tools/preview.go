package tools

import (
	"encoding/json"
	"strings"

	"github.com/cairn-dev/cairn/core/toolpath"
)

// EditPreview returns the change an edit call would make, without making
// it: the diff in the same numbered form as EditDetails.Diff and the first
// changed line of the new file, as Execute would report them if the file
// stayed as it is now. Relative paths are taken from cwd. The error is the
// one Execute would put in its result (bad arguments, a missing file, text
// not found or not unique), worded for a person deciding on the call.
//
// Front ends call it to show what an edit awaiting approval will change. It
// only reads the file, so it is safe to call from any goroutine, but it does
// the whole work of matching and diffing: call it once per call, off the
// render path.
func EditPreview(cwd string, args json.RawMessage) (diff string, firstLine int, err error) {
	var a editArgs
	if err := decodeArgs(editSpec, args, &a); err != nil {
		return "", 0, err
	}
	if err := requireString("edit", "path", a.Path); err != nil {
		return "", 0, err
	}
	edits, err := a.parseEdits()
	if err != nil {
		return "", 0, err
	}
	data, err := readFile(toolpath.Resolve(*a.Path, cwd))
	if err != nil {
		return "", 0, err
	}
	// The byte order mark and line endings are put back by Execute when it
	// writes; the diff is always of the LF text without the mark.
	text := strings.TrimPrefix(string(data), "\uFEFF")
	base, updated, err := applyEdits(toLF(text), edits, *a.Path)
	if err != nil {
		return "", 0, err
	}
	diff, firstLine = lineDiff(base, updated)
	return diff, firstLine, nil
}
