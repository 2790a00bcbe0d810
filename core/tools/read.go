package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// Read is the read tool: it returns a text file's lines, a page at a time,
// or an image file as an image block.
type Read struct {
	// Dir is the working directory relative paths are read from.
	Dir string
	// Workspace is where it reads and writes; nil is the local machine.
	Workspace *Workspace
}

// NewRead returns the read tool working in cwd.
func NewRead(cwd string) *Read { return &Read{Dir: cwd} }

// ReadDetails are the details of a read result: how the text was cut, when
// it was.
type ReadDetails struct {
	Truncation *Truncation `json:"truncation,omitempty"`
}

var readSpec = core.ToolSpec{
	Name: "read",
	Description: "Read a file. Text files come back as they are, up to 2000 lines or 50KB, whichever " +
		"comes first; a longer file ends with a note giving the offset to continue from, so page " +
		"through it with offset/limit until you have what you need. Images (jpg, png, gif, webp) " +
		"come back as image attachments.",
	Parameters: json.RawMessage(`{"type":"object","required":["path"],"properties":{` +
		`"path":{"type":"string","description":"File to read, absolute or relative to the working directory"},` +
		`"offset":{"type":"number","description":"First line to return, counting from 1"},` +
		`"limit":{"type":"number","description":"Most lines to return"}}}`),
}

// Spec describes the tool to the model.
func (*Read) Spec() core.ToolSpec { return readSpec }

// Category is info: reading changes nothing.
func (*Read) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is read.
func (*Read) Kind() core.ToolKind { return core.KindRead }

type readArgs struct {
	Path   *string `json:"path"`
	Offset number  `json:"offset"`
	Limit  number  `json:"limit"`
}

// Execute reads the file named by the call.
func (r *Read) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var a readArgs
	if err := decodeArgs(readSpec, call.Arguments, &a); err != nil {
		return errorResult(err.Error()), nil
	}
	if err := requireString("read", "path", a.Path); err != nil {
		return errorResult(err.Error()), nil
	}
	if ctx.Err() != nil {
		return abortedResult(), nil
	}
	abs := toolpath.ResolveExisting(*a.Path, r.Dir)
	data, err := r.Workspace.readFile(ctx, abs)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	if ctx.Err() != nil {
		return abortedResult(), nil
	}
	if mime := sniffImage(data); mime != "" {
		return imageResult(data, mime), nil
	}
	return readText(string(data), *a.Path, a.Offset, a.Limit)
}

// readFile reads a whole regular file, with errors a model can act on.
func readFile(abs string) ([]byte, error) {
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fileError(err, abs)
	}
	if info.IsDir() {
		return nil, fmt.Errorf("Path is a directory: %s. Use ls to list its entries.", abs)
	}
	if !info.Mode().IsRegular() {
		// A device or a pipe could block or never end.
		return nil, fmt.Errorf("Not a regular file: %s", abs)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fileError(err, abs)
	}
	return data, nil
}

// fileError words a file system error for the model.
func fileError(err error, abs string) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("File not found: %s", abs)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("Permission denied: %s", abs)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("Could not access %s: %v", abs, err)
}

// readText returns the lines of text the arguments select, cut to the
// limits, with a note saying how to read on when there is more.
func readText(text, path string, offset, limit number) (core.ToolResult, error) {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	total := strings.Count(text, "\n") + 1
	start := max(offset.intOr(0)-1, 0)
	if start >= total {
		return errorResult(fmt.Sprintf("Offset %s is beyond end of file (%d lines total)", formatNumber(offset.value), total)), nil
	}
	from := lineStart(text, 0, start)
	selected := text[from:]
	end := total
	if limit.set {
		end = min(start+max(limit.intOr(0), 0), total)
		switch {
		case end == start:
			selected = ""
		case end < total:
			selected = text[from : lineStart(text, from, end-start)-1]
		}
	}

	t := truncateHead(selected, DefaultMaxLines, DefaultMaxBytes)
	first := start + 1
	switch {
	case t.FirstLineExceedsLimit:
		lineLen := len(selected)
		if i := strings.IndexByte(selected, '\n'); i >= 0 {
			lineLen = i
		}
		msg := fmt.Sprintf("[Line %d is %s, exceeds %s limit. Use bash: sed -n '%dp' %s | head -c %d]",
			first, formatSize(lineLen), formatSize(DefaultMaxBytes), first, path, DefaultMaxBytes)
		return withDetails(msg, ReadDetails{Truncation: &t}), nil
	case t.Truncated:
		last := first + t.OutputLines - 1
		limitNote := ""
		if t.TruncatedBy == TruncatedByBytes {
			limitNote = " (" + formatSize(DefaultMaxBytes) + " limit)"
		}
		msg := fmt.Sprintf("%s\n\n[Showing lines %d-%d of %d%s. Use offset=%d to continue.]",
			t.Content, first, last, total, limitNote, last+1)
		return withDetails(msg, ReadDetails{Truncation: &t}), nil
	case end < total:
		msg := fmt.Sprintf("%s\n\n[%d more lines in file. Use offset=%d to continue.]", t.Content, total-end, end+1)
		return core.TextResult(msg), nil
	}
	return core.TextResult(t.Content), nil
}

// lineStart returns the byte offset of the line n lines after the line
// starting at from.
func lineStart(text string, from, n int) int {
	for ; n > 0; n-- {
		i := strings.IndexByte(text[from:], '\n')
		if i < 0 {
			return len(text)
		}
		from += i + 1
	}
	return from
}

// formatNumber writes a number as JavaScript would: 3, 2.5, -1.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// imageResult returns an image file as a note and an image block, scaled
// down first when it is too large to send.
func imageResult(data []byte, mime string) core.ToolResult {
	img, ok := fitImage(data, mime)
	if !ok {
		return core.TextResult(fmt.Sprintf("Read image file [%s]\n[Image omitted: could not be resized below the inline image size limit.]", mime))
	}
	note := fmt.Sprintf("Read image file [%s]", img.mime)
	if img.resized {
		note += fmt.Sprintf("\n[Image: original %dx%d, displayed at %dx%d. Multiply coordinates by %.2f to map to original image.]",
			img.origW, img.origH, img.w, img.h, float64(img.origW)/float64(img.w))
	}
	return core.ToolResult{Content: []core.Content{
		core.TextBlock(note),
		core.ImageBlock(base64.StdEncoding.EncodeToString(img.data), img.mime),
	}}
}
