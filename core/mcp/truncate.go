package mcp

import (
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// MaxResultText is the most text of one block that reaches the model; a
// longer text keeps its start and end around a marker, and the whole text
// is saved to a temporary file the result names.
const MaxResultText = tools.DefaultMaxBytes

// capText applies MaxResultText to every text block of content. tempDir is
// where whole texts are saved ("" means the system's).
func capText(content []core.Content, tempDir string) []core.Content {
	for i, c := range content {
		if c.Type != core.ContentText || len(c.Text) <= MaxResultText {
			continue
		}
		content[i] = core.TextBlock(cutMiddle(c.Text, saveText(c.Text, tempDir)))
	}
	return content
}

// cutMiddle keeps the first and last halves of MaxResultText around a
// marker saying how much was left out and where the whole text is.
func cutMiddle(s, saved string) string {
	half := MaxResultText / 2
	head, tail := s[:half], s[len(s)-half:]
	for len(head) > 0 && !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.ValidString(tail) {
		tail = tail[1:]
	}
	marker := fmt.Sprintf("\n\n[... %d bytes left out", len(s)-len(head)-len(tail))
	if saved != "" {
		marker += "; the whole result is in " + saved
	}
	return head + marker + " ...]\n\n" + tail
}

// saveText writes s to a new temporary file and returns its path, or ""
// when it cannot.
func saveText(s, dir string) string {
	f, err := os.CreateTemp(dir, "cairn-mcp-*.txt")
	if err != nil {
		return ""
	}
	_, werr := f.WriteString(s)
	if cerr := f.Close(); werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return ""
	}
	return f.Name()
}
