package markdown

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func TestMain(m *testing.M) {
	// chroma's lexers use regexp2, whose shared timeout clock runs in a
	// goroutine of its own that stops by itself some time after the last
	// match.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}

// Palettes the tests render with, shaped like the themes package's built-in
// dark and light themes.
var (
	darkPalette = Palette{
		Text: "#d0d0d0", Heading: "#5fafff", Link: "#87d7ff", LinkURL: "#808080",
		Code: "#ffaf5f", CodeBlock: "#c0c0c0", CodeBlockBorder: "#585858",
		Quote: "#a8a8a8", QuoteBorder: "#5f5f87", HR: "#585858", ListBullet: "#5fafff",
		Dark: true,
	}
	lightPalette = Palette{
		Text: "#303030", Heading: "#005fd7", Link: "#005f87", LinkURL: "#808080",
		Code: "#af5f00", CodeBlock: "#404040", CodeBlockBorder: "#bcbcbc",
		Quote: "#585858", QuoteBorder: "#8787af", HR: "#bcbcbc", ListBullet: "#005fd7",
	}
	palettes = map[string]Palette{"dark": darkPalette, "light": lightPalette}
)

// docs returns the sample documents in testdata/docs by name.
func docs(t testing.TB) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "docs", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no sample documents: %v", err)
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".md")] = string(b)
	}
	return out
}

// golden compares got with testdata/golden/name, or rewrites the file when
// the test runs with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n%s", name, lineDiff(string(want), got))
	}
}

// lineDiff shows the first lines where want and got differ, quoted so that
// escape sequences are visible.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl == gl {
			continue
		}
		b.WriteString("line " + itoa(i+1) + ":\n  want " + quote(wl) + "\n  got  " + quote(gl) + "\n")
		if shown++; shown == 5 {
			break
		}
	}
	if len(w) != len(g) {
		b.WriteString("line counts: want " + itoa(len(w)) + ", got " + itoa(len(g)) + "\n")
	}
	return b.String()
}
