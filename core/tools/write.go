package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// Write is the write tool: it creates or replaces a file, making its parent
// directories as needed.
type Write struct {
	// Dir is the working directory relative paths are taken from.
	Dir string
	// Workspace is where it reads and writes; nil is the local machine.
	Workspace *Workspace
}

// NewWrite returns the write tool working in cwd.
func NewWrite(cwd string) *Write { return &Write{Dir: cwd} }

var writeSpec = core.ToolSpec{
	Name: "write",
	Description: "Write a file with the given content, replacing it if it exists and creating it " +
		"(and any missing parent directories) if it does not.",
	Parameters: json.RawMessage(`{"type":"object","required":["path","content"],"properties":{` +
		`"path":{"type":"string","description":"File to write, absolute or relative to the working directory"},` +
		`"content":{"type":"string","description":"The complete new content of the file"}}}`),
}

// Spec describes the tool to the model.
func (*Write) Spec() core.ToolSpec { return writeSpec }

// Category is edit: it changes files.
func (*Write) Category() core.ApprovalCategory { return core.CategoryEdit }

// Kind is edit.
func (*Write) Kind() core.ToolKind { return core.KindEdit }

type writeArgs struct {
	Path    *string `json:"path"`
	Content *string `json:"content"`
}

// Execute writes the file named by the call.
func (w *Write) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a writeArgs
	if err := decodeArgs(writeSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("write", "path", a.Path); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("write", "content", a.Content); err != nil {
		return errorResult(err.Error()), nil
	}
	abs := toolpath.Resolve(*a.Path, w.Dir)
	unlock, err := fileLocks.lock(ctx, abs)
	if err != nil {
		return abortedResult(), nil
	}
	defer unlock()
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return errorResult(fmt.Sprintf("Could not create the directory for %s: %v", *a.Path, unwrapPathError(err))), nil
	}
	before, replaced := previousText(abs)
	if err := w.Workspace.writeFile(ctx, abs, []byte(*a.Content)); err != nil {
		return errorResult(fmt.Sprintf("Could not write %s: %v", *a.Path, err)), nil
	}
	text := fmt.Sprintf("Successfully wrote %d bytes to %s", len(*a.Content), *a.Path)
	if replaced && before != *a.Content {
		return withDetails(text, WriteDetails{Patch: unifiedPatch(*a.Path, before, *a.Content)}), nil
	}
	return core.TextResult(text), nil
}

// WriteDetails are the details of a write that replaced a file's text:
// the change as a unified diff, as an edit reports it, for hosts that
// show it (AionUi). A new file, or one written unchanged, has none.
type WriteDetails struct {
	Patch string `json:"patch,omitempty"`
}

// maxDiffedWrite bounds the file a write reads first to report its change.
const maxDiffedWrite = 1 << 20

// previousText is the text a write is about to replace, read from the
// local disk (a host's unsaved buffer is not consulted); ok is false for
// a missing, large or binary file, whose change is not reported.
func previousText(abs string) (text string, ok bool) {
	info, err := os.Stat(abs)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxDiffedWrite {
		return "", false
	}
	data, err := os.ReadFile(abs)
	if err != nil || !utf8.Valid(data) {
		return "", false
	}
	return string(data), true
}

// unwrapPathError drops the operation and path from a *fs.PathError, which
// the message around it already names.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
