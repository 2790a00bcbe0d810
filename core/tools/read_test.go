package tools

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 60*1024)
	writeFiles(t, dir, map[string]string{
		"notes.txt":  "hello world\nsecond line\n",
		"five.txt":   "1\n2\n3\n4\n5",
		"big.txt":    numberedLines(2500),
		"wide.txt":   strings.Repeat(strings.Repeat("w", 99)+"\n", 1000),
		"huge.txt":   long + "\nshort\n",
		"sub/a.txt":  "in sub",
		"crlf.txt":   "a\r\nb\r\n",
		"binary.bin": "\x00\x01\xff",
	})
	cases := []struct {
		name    string
		args    map[string]any
		want    string
		isError bool
		details bool
	}{
		{name: "whole file as it is", args: map[string]any{"path": "notes.txt"}, want: "hello world\nsecond line\n"},
		{name: "absolute path", args: map[string]any{"path": filepath.Join(dir, "sub/a.txt")}, want: "in sub"},
		{name: "mention prefix", args: map[string]any{"path": "@sub/a.txt"}, want: "in sub"},
		{name: "carriage returns kept", args: map[string]any{"path": "crlf.txt"}, want: "a\r\nb\r\n"},
		{name: "offset", args: map[string]any{"path": "five.txt", "offset": 4}, want: "4\n5"},
		{name: "offset and limit", args: map[string]any{"path": "five.txt", "offset": 2, "limit": 2},
			want: "2\n3\n\n[2 more lines in file. Use offset=4 to continue.]"},
		{name: "limit reaching the end", args: map[string]any{"path": "five.txt", "offset": 4, "limit": 10}, want: "4\n5"},
		{name: "offset zero is the start", args: map[string]any{"path": "five.txt", "offset": 0, "limit": 1},
			want: "1\n\n[4 more lines in file. Use offset=2 to continue.]"},
		{name: "offset past the end", args: map[string]any{"path": "five.txt", "offset": 9},
			want: "Offset 9 is beyond end of file (5 lines total)", isError: true},
		{name: "line limit", args: map[string]any{"path": "big.txt"},
			want: strings.TrimSuffix(numberedLines(2000), "\n") + "\n\n[Showing lines 1-2000 of 2501. Use offset=2001 to continue.]", details: true},
		{name: "line limit from an offset", args: map[string]any{"path": "big.txt", "offset": 2001},
			want: strings.TrimPrefix(numberedLines(2500), numberedLines(2000))},
		{name: "byte limit", args: map[string]any{"path": "wide.txt"},
			want: strings.Repeat(strings.Repeat("w", 99)+"\n", 511) + strings.Repeat("w", 99) + "\n\n[Showing lines 1-512 of 1001 (50.0KB limit). Use offset=513 to continue.]", details: true},
		{name: "first line over the limit", args: map[string]any{"path": "huge.txt"},
			want: "[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' huge.txt | head -c 51200]", details: true},
		{name: "after a long first line", args: map[string]any{"path": "huge.txt", "offset": 2}, want: "short\n"},
		{name: "missing file", args: map[string]any{"path": "missing.txt"},
			want: "File not found: " + filepath.Join(dir, "missing.txt"), isError: true},
		{name: "directory", args: map[string]any{"path": "sub"},
			want: "Path is a directory: " + filepath.Join(dir, "sub") + ". Use ls to list its entries.", isError: true},
	}
	read := NewRead(dir)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, read, c.args)
			if got := text(res); got != c.want {
				t.Errorf("text = %q\nwant   %q", clip(got), clip(c.want))
			}
			if res.IsError != c.isError {
				t.Errorf("IsError = %v, want %v", res.IsError, c.isError)
			}
			if hasDetails := len(res.Details) > 0 && string(res.Details) != "{}"; hasDetails != c.details {
				t.Errorf("details = %s, want details: %v", res.Details, c.details)
			}
		})
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:150] + " ... " + s[len(s)-150:]
	}
	return s
}

func TestReadTruncationDetails(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"big.txt": numberedLines(2500)})
	res := run(t, NewRead(dir), map[string]any{"path": "big.txt"})
	d := details[ReadDetails](t, res)
	if d.Truncation == nil || !d.Truncation.Truncated || d.Truncation.TruncatedBy != TruncatedByLines ||
		d.Truncation.TotalLines != 2501 || d.Truncation.OutputLines != 2000 || d.Truncation.MaxLines != 2000 || d.Truncation.MaxBytes != 51200 {
		t.Errorf("truncation = %+v", d.Truncation)
	}
}

func TestReadExpandsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	writeFiles(t, home, map[string]string{"h.txt": "home file"})
	if got := text(run(t, NewRead(t.TempDir()), map[string]any{"path": "~/h.txt"})); got != "home file" {
		t.Errorf("~/h.txt = %q", got)
	}
}

func pngImage(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadImages(t *testing.T) {
	dir := t.TempDir()
	small := pngImage(t, 4, 3)
	big := pngImage(t, 2400, 60)
	gif := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	webp := append([]byte("RIFF\x1a\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00"), 0x09, 0x00, 0x00, 0x04, 0x00, 0x00)
	for name, data := range map[string][]byte{"small.png": small, "big.png": big, "pic.jpg.txt": small, "anim.gif": gif, "p.webp": webp} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := NewRead(dir)

	res := run(t, read, map[string]any{"path": "small.png"})
	if len(res.Content) != 2 || res.Content[0].Text != "Read image file [image/png]" ||
		res.Content[1].MimeType != "image/png" || res.Content[1].Data != base64.StdEncoding.EncodeToString(small) {
		t.Errorf("small png = %+v", res.Content)
	}
	// The type comes from the bytes, not the name.
	if res := run(t, read, map[string]any{"path": "pic.jpg.txt"}); len(res.Content) != 2 || res.Content[1].MimeType != "image/png" {
		t.Errorf("png named .txt = %+v", res.Content[0])
	}
	if res := run(t, read, map[string]any{"path": "anim.gif"}); len(res.Content) != 2 || res.Content[1].MimeType != "image/gif" {
		t.Errorf("gif = %+v", res.Content[0])
	}
	if res := run(t, read, map[string]any{"path": "p.webp"}); len(res.Content) != 2 || res.Content[1].MimeType != "image/webp" {
		t.Errorf("webp = %+v", res.Content[0])
	}

	res = run(t, read, map[string]any{"path": "big.png"})
	if len(res.Content) != 2 {
		t.Fatalf("big png = %q", text(res))
	}
	wantNote := "Read image file [image/png]\n[Image: original 2400x60, displayed at 2000x50. Multiply coordinates by 1.20 to map to original image.]"
	if res.Content[0].Text != wantNote {
		t.Errorf("big png note = %q", res.Content[0].Text)
	}
	data, _ := base64.StdEncoding.DecodeString(res.Content[1].Data)
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 2000 || cfg.Height != 50 {
		t.Errorf("scaled image = %+v, %v", cfg, err)
	}
}

func TestReadStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "a"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := runCtx(t, ctx, NewRead(dir), map[string]any{"path": "a.txt"}, nil)
	if !res.IsError || text(res) != "Operation aborted" {
		t.Errorf("cancelled read = %q", text(res))
	}
}

func TestReadRefusesDevices(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	res := run(t, NewRead(t.TempDir()), map[string]any{"path": "/dev/zero"})
	if !res.IsError || text(res) != "Not a regular file: /dev/zero" {
		t.Errorf("read /dev/zero = %q", text(res))
	}
}
