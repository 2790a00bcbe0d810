package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunWritesPNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "shot.png")
	in := strings.NewReader("\x1b[1mhello\x1b[0m\nworld\n")
	if err := run([]string{"-out", out, "-cols", "20", "-rows", "4", "-padding", "0", "-bg", "#000000"}, in); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx()%20 != 0 || b.Dy()%4 != 0 || b.Dx() < 20*8 {
		t.Errorf("image is %v, want 20x4 cells", b)
	}
	if r, g, bl, _ := img.At(b.Max.X-1, b.Max.Y-1).RGBA(); r|g|bl != 0 {
		t.Errorf("corner is not the -bg colour #000000")
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no output", nil, "-out is required"},
		{"bad colour", []string{"-out", "x.png", "-bg", "blue"}, "not #rrggbb"},
		{"missing input", []string{"-out", "x.png", "-in", "/nonexistent/capture.txt"}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(tt.args, strings.NewReader(""))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run(%q) = %v, want an error with %q", tt.args, err, tt.want)
			}
		})
	}
}
