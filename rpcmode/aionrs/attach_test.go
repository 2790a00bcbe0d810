package aionrs

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// A message's files: an image goes to the model as an image; other files
// are named in the text for the model's tools.
func TestMessageFiles(t *testing.T) {
	var mu sync.Mutex
	var got *core.UserMessage
	fp := faux.New(faux.Options{})
	fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		got, _ = req.Messages[len(req.Messages)-1].(*core.UserMessage)
		return faux.Response{Text: "seen"}, nil
	})
	r := newRig(t, rigConfig{faux: fp})
	png := filepath.Join(t.TempDir(), "shot.png")
	pixel := []byte("\x89PNG\r\n\x1a\nfake")
	if err := os.WriteFile(png, pixel, 0o644); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"look","files":["` + png + `","/tmp/report.pdf"]}`)
	r.until("stream_end")
	mu.Lock()
	defer mu.Unlock()
	if got == nil || len(got.Content) != 2 {
		t.Fatalf("user message = %+v", got)
	}
	if !strings.HasPrefix(got.Content[0].Text, "look") || !strings.Contains(got.Content[0].Text, "/tmp/report.pdf") || strings.Contains(got.Content[0].Text, png) {
		t.Fatalf("text = %q", got.Content[0].Text)
	}
	if img := got.Content[1]; img.Type != core.ContentImage || img.MimeType != "image/png" || img.Data != base64.StdEncoding.EncodeToString(pixel) {
		t.Fatalf("image = %+v", img)
	}
	r.noMore()
}

// A model without image input gets the image's path instead.
func TestAttachWithoutImageInput(t *testing.T) {
	text, images, _ := attach("hi", []string{"/x/a.PNG"}, core.Model{Input: []string{"text"}})
	if len(images) != 0 || !strings.Contains(text, "/x/a.PNG") {
		t.Fatalf("text %q, images %d", text, len(images))
	}
	_, images, notes := attach("hi", []string{"/does/not/exist.png"}, faux.Model)
	if len(images) != 0 || len(notes) != 1 {
		t.Fatalf("missing image: images %d, notes %v", len(images), notes)
	}
}

// attach bounds what it reads: a file named twice is read once, images
// stop at maxImages, and a pipe is named, not opened (it would block).
func TestAttachBounds(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "a.png")
	if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\nfake"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := core.Model{ID: "m", Input: []string{"text", "image"}}
	files := make([]string, 1000)
	for i := range files {
		files[i] = png
	}
	_, images, _ := attach("x", files, model)
	if len(images) != 1 {
		t.Errorf("one file named 1000 times gave %d images", len(images))
	}
	var many []string
	for i := range maxImages + 5 {
		p := filepath.Join(dir, strings.Repeat("i", i+1)+".png")
		if err := os.WriteFile(p, []byte("img"), 0o644); err != nil {
			t.Fatal(err)
		}
		many = append(many, p)
	}
	text, images, notes := attach("x", many, model)
	if len(images) != maxImages || len(notes) != 5 || !strings.Contains(text, many[maxImages]) {
		t.Errorf("%d images, %d notes for %d files", len(images), len(notes), len(many))
	}
	fifo := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no fifo here: %v", err)
	}
	text, images, notes = attach("x", []string{fifo}, model)
	if len(images) != 0 || len(notes) != 1 || !strings.Contains(text, fifo) {
		t.Errorf("pipe: %d images, notes %q", len(images), notes)
	}
}
