package termimage

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// testFonts are the embedded fonts alone, so that images do not depend on
// which fonts the machine has.
func testFonts(t testing.TB) *Fonts {
	t.Helper()
	fs, err := LoadFonts(16)
	if err != nil {
		t.Fatal(err)
	}
	for s := range fs.chains {
		fs.chains[s] = fs.chains[s][:1]
	}
	return fs
}

func render(t testing.TB, text string, cols, rows int) (*image.RGBA, *Fonts) {
	t.Helper()
	s, err := ParseString(text, cols, rows)
	if err != nil {
		t.Fatal(err)
	}
	fs := testFonts(t)
	img, err := Render(s, Options{Fonts: fs})
	if err != nil {
		t.Fatal(err)
	}
	return img, fs
}

// The sample covers every kind of colour and attribute and the shapes; it
// holds only characters Go Mono has, so the image is the same everywhere.
func TestRenderGolden(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	img, _ := render(t, string(text), 0, 0)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample.png")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	wantImg, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if !wantImg.Bounds().Eq(img.Bounds()) {
		t.Fatalf("image is %v, golden is %v", img.Bounds(), wantImg.Bounds())
	}
	diff := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if color.RGBAModel.Convert(wantImg.At(x, y)) != img.At(x, y) {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d pixels differ from %s (look at both; go test -update rewrites it)", diff, golden)
	}
}

// Cells are painted where they belong, in the colours the escapes ask for.
func TestRenderCells(t *testing.T) {
	th := DarkTheme
	tests := []struct {
		name string
		text string
		col  int
		// at is a point inside the cell as a fraction of its size, and
		// want the colour expected there.
		atX, atY float64
		want     color.RGBA
	}{
		{"background colour fills its cell", "a\x1b[44m \x1b[49m", 1, 0.5, 0.5, th.Palette[4]},
		{"default background elsewhere", "a\x1b[44m \x1b[49m ", 2, 0.5, 0.5, th.BG},
		{"full block is the foreground", "\x1b[38;2;10;200;30m█", 0, 0.1, 0.9, rgba(0x0ac81e)},
		{"reverse space shows the foreground", "\x1b[7m ", 0, 0.5, 0.5, th.FG},
		{"lower half block leaves the top", "▄", 0, 0.5, 0.2, th.BG},
		{"lower half block fills the bottom", "▄", 0, 0.5, 0.8, th.FG},
		{"horizontal line reaches the left edge", "─", 0, 0, 0.5, th.FG},
		{"horizontal line reaches the right edge", "─", 0, 0.99, 0.5, th.FG},
		{"vertical line reaches the bottom", "│", 0, 0.5, 0.99, th.FG},
		{"corner has no arm going up", "┌", 0, 0.5, 0.1, th.BG},
		{"wide character covers both cells' background", "\x1b[41m日", 1, 0.9, 0.1, th.Palette[1]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, fs := render(t, tt.text, 0, 1)
			x := tt.col*fs.CellW + int(tt.atX*float64(fs.CellW))
			y := int(tt.atY * float64(fs.CellH))
			if got := img.RGBAAt(x, y); got != tt.want {
				t.Errorf("pixel (%d,%d) = %v, want %v", x, y, got, tt.want)
			}
		})
	}
}

func TestRenderSize(t *testing.T) {
	s, err := ParseString("abc\nde", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	fs := testFonts(t)
	img, err := Render(s, Options{Fonts: fs, Padding: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := image.Rect(0, 0, 3*fs.CellW+10, 2*fs.CellH+10)
	if !img.Bounds().Eq(want) {
		t.Errorf("bounds %v, want %v", img.Bounds(), want)
	}
	if fs.CellW < 8 || fs.CellH < fs.CellW {
		t.Errorf("cell %dx%d is not a plausible 16 px monospace cell", fs.CellW, fs.CellH)
	}
}

func BenchmarkRender(b *testing.B) {
	text, err := os.ReadFile(filepath.Join("testdata", "sample.txt"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := ParseString(string(text), 100, 30)
	if err != nil {
		b.Fatal(err)
	}
	fs := testFonts(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(s, Options{Fonts: fs}); err != nil {
			b.Fatal(err)
		}
	}
}
