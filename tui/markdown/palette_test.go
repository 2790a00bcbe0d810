package markdown

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/x/ansi"
)

// fg returns the SGR parameters lipgloss writes for a "#rrggbb" foreground.
func fg(hex string) string {
	var r, g, b int
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	return fmt.Sprintf("38;2;%d;%d;%d", r, g, b)
}

func TestPaletteColours(t *testing.T) {
	p := Palette{
		Text: "#010101", Heading: "#020202", Link: "#030303", LinkURL: "#040404",
		Code: "#050505", Quote: "#060606", QuoteBorder: "#070707", HR: "#080808",
		ListBullet: "#090909", Dark: true,
	}
	tests := []struct {
		field, md, colour string
	}{
		{"Text", "plain words", p.Text},
		{"Heading", "## heading", p.Heading},
		{"Heading (H1)", "# title", p.Heading},
		{"Heading (H6)", "###### small", p.Heading},
		{"Link", "[text](https://example.com)", p.Link},
		{"LinkURL", "[text](https://example.com)", p.LinkURL},
		{"Code", "some `code` here", p.Code},
		{"Quote", "> quoted", p.Quote},
		{"QuoteBorder", "> quoted", p.QuoteBorder},
		{"HR", "a\n\n---\n\nb", p.HR},
		{"ListBullet", "- item", p.ListBullet},
	}
	r := New(p, 60)
	for _, tt := range tests {
		out := r.Render(tt.md)
		if !strings.Contains(out, fg(tt.colour)) {
			t.Errorf("%s: rendering %q does not use %s:\n%q", tt.field, tt.md, tt.colour, out)
		}
	}
}

func TestPaletteDefaultsFollowDark(t *testing.T) {
	md := "# Title\n\ntext with `code`\n\n```go\nfunc f() {}\n```"
	dark, light := New(Palette{Dark: true}, 60).Render(md), New(Palette{}, 60).Render(md)
	if dark == light {
		t.Error("empty dark and light palettes render the same")
	}
	for name, out := range map[string]string{"dark": dark, "light": light} {
		if plain := stripANSI(out); !strings.Contains(plain, "# Title") || !strings.Contains(plain, "func f() {}") {
			t.Errorf("%s: text missing:\n%s", name, plain)
		}
	}
}

func TestCustomChromaStyles(t *testing.T) {
	red := chroma.MustNewStyle("red", chroma.StyleEntries{chroma.Keyword: "#ff0000"})
	blue := chroma.MustNewStyle("blue", chroma.StyleEntries{chroma.Keyword: "#0000ff"})
	md := "```go\nfunc f() {}\n```"

	// Two styles in use at once each keep their own colours, and a style
	// used by several renderers is registered once.
	rr := New(Palette{Chroma: red, Dark: true}, 60)
	rb := New(Palette{Chroma: blue, Dark: true}, 60)
	New(Palette{Chroma: red}, 40)
	if out := rr.Render(md); !strings.Contains(out, fg("#ff0000")) {
		t.Errorf("red style not used:\n%q", out)
	}
	if out := rb.Render(md); !strings.Contains(out, fg("#0000ff")) {
		t.Errorf("blue style not used:\n%q", out)
	}
	if a, b := chromaStyleName(Palette{Chroma: red}), chromaStyleName(Palette{Chroma: red}); a != b {
		t.Errorf("one style registered twice: %q and %q", a, b)
	}
	if red.Name != "red" {
		t.Errorf("registering renamed the caller's style to %q", red.Name)
	}
}

func TestRenderNarrowAndEmpty(t *testing.T) {
	r := New(darkPalette, 1)
	if r.Width() != minWidth {
		t.Errorf("Width() = %d, want the minimum %d", r.Width(), minWidth)
	}
	if got := r.Render(""); got != "" {
		t.Errorf("Render(\"\") = %q", got)
	}
	for _, line := range strings.Split(r.Render("a few words that need wrapping"), "\n") {
		if w := ansi.StringWidth(line); w > minWidth {
			t.Errorf("line %q is %d cells wide", stripANSI(line), w)
		}
	}
}

func TestRenderPlain(t *testing.T) {
	style := lipgloss.NewStyle().Italic(true)
	tests := []struct {
		name  string
		text  string
		width int
		want  []string // lines without escape sequences
	}{
		{"wraps at spaces", "the quick brown fox jumps", 10, []string{"the quick", "brown fox", "jumps"}},
		{"splits long words", "abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"keeps empty lines", "one\n\ntwo", 10, []string{"one", "", "two"}},
		{"drops trailing spaces", "one   \r\ntwo  ", 10, []string{"one", "two"}},
		{"expands tabs", "\tx", 10, []string{"    x"}},
		{"no width, no wrapping", "a long line of thought", 0, []string{"a long line of thought"}},
		{"wide characters", "日本語のテキスト", 6, []string{"日本語", "のテキ", "スト"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := RenderPlain(tt.text, tt.width, style)
			lines := strings.Split(out, "\n")
			if got := strings.Split(stripANSI(out), "\n"); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("lines %q, want %q", got, tt.want)
			}
			for _, l := range lines {
				if l != "" && !strings.Contains(l, "\x1b[3m") {
					t.Errorf("line %q is not italic", l)
				}
				if tt.width > 0 && ansi.StringWidth(l) > tt.width {
					t.Errorf("line %q is wider than %d", l, tt.width)
				}
			}
		})
	}
}

func TestRenderPlainKeepsStylesAcrossBreaks(t *testing.T) {
	out := RenderPlain("\x1b[31mred words wrap here\x1b[m", 9, lipgloss.NewStyle())
	lines := strings.Split(out, "\n")
	if len(lines) < 2 {
		t.Fatalf("no wrapping: %q", out)
	}
	for _, l := range lines {
		if !strings.Contains(l, "\x1b[31m") {
			t.Errorf("line %q lost the red colour", l)
		}
	}
}
