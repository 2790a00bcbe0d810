package themes

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/colorprofile"
)

const goSample = "// Greet says hello.\nfunc Greet(name string) int {\n\treturn len(\"hi \" + name) + 42\n}\n"

// TestHighlightPerProfile: at 256 and 16 colours highlighted code is drawn
// in the colours each theme picks for that profile, written as those
// palette indexes; nothing reaches the terminal as RGB to be lowered by
// nearest colour (which drew the dark theme's comments light grey, 7,
// instead of its dim grey, 8, at 16 colours).
func TestHighlightPerProfile(t *testing.T) {
	tests := []struct {
		theme   *Theme
		p       colorprofile.Profile
		comment string // the comment's SGR
		keyword string // "func"'s
		str     string // the string's
	}{
		{Dark(), colorprofile.ANSI256, "\x1b[3m\x1b[38;5;245m", "\x1b[38;5;139m", "\x1b[38;5;143m"},
		{Dark(), colorprofile.ANSI, "\x1b[3m\x1b[90m", "\x1b[95m", "\x1b[32m"},
		{Light(), colorprofile.ANSI256, "\x1b[3m\x1b[38;5;243m", "\x1b[38;5;91m", "\x1b[38;5;28m"},
		{Light(), colorprofile.ANSI, "\x1b[3m\x1b[90m", "\x1b[35m", "\x1b[32m"},
	}
	rgb := regexp.MustCompile(`\x1b\[38;2;`)
	for _, tt := range tests {
		out := tt.theme.ForProfile(tt.p).Highlight(goSample, "go", "")
		for what, want := range map[string]string{
			"comment": tt.comment + "// Greet says hello.",
			"keyword": tt.keyword + "func",
			"string":  tt.str + `"hi "`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s at %s: the %s is not drawn as %q:\n%q", tt.theme.Name, tt.p, what, want, out)
			}
		}
		if rgb.MatchString(out) {
			t.Errorf("%s at %s: some code is drawn in 24-bit colour:\n%q", tt.theme.Name, tt.p, out)
		}
	}
}

// TestChromaFormatterTrueColour: a true-colour theme's code comes out
// byte for byte as chroma's own 24-bit formatter writes it.
func TestChromaFormatterTrueColour(t *testing.T) {
	for _, th := range []*Theme{Dark(), Light()} {
		src := goSample + "\r\nvar x = `a\n\nb`\n"
		var want, got bytes.Buffer
		it, _ := chroma.Coalesce(lexers.Get("go")).Tokenise(nil, src)
		if err := formatters.TTY16m.Format(&want, th.ChromaStyle(), it); err != nil {
			t.Fatal(err)
		}
		it, _ = chroma.Coalesce(lexers.Get("go")).Tokenise(nil, src)
		if err := th.ChromaFormatter().Format(&got, th.ChromaStyle(), it); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: differs from terminal16m\n got %q\nwant %q", th.Name, got.String(), want.String())
		}
	}
}

// TestSpec: a palette index is given as its number, so that glamour draws
// it as that index.
func TestSpec(t *testing.T) {
	d := Dark()
	if got := d.Spec(MdHeading); got != "#e5c07b" {
		t.Errorf("true colour mdHeading = %q", got)
	}
	if got := d.ForProfile(colorprofile.ANSI).Spec(MdHeading); got != "3" {
		t.Errorf("16-colour mdHeading = %q, want 3", got)
	}
	if got := d.Spec(Text); got != "" {
		t.Errorf("default text = %q, want \"\"", got)
	}
}
