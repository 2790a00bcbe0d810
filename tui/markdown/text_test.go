package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"## Plan\n\nI will **read** the file, then fix `Parse`:", "Plan I will read the file, then fix Parse:"},
		{"- one\n- two [docs](https://example.com)", "one two docs"},
		{"```go\nfunc x() {}\n```\nafter", "func x() {} after"},
		{"line one\nline two", "line one line two"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCodeSpanKeepsItsPunctuation: an inline code span is drawn without
// padding, so punctuation after it stays against it.
func TestCodeSpanKeepsItsPunctuation(t *testing.T) {
	r := New(Palette{Dark: true}, 80)
	got := ansi.Strip(r.Render("It calls `Parse`, then `Close`."))
	if !strings.Contains(got, "Parse, then Close.") {
		t.Errorf("rendered %q", got)
	}
}
