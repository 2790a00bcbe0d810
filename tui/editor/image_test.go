package editor

import (
	"strings"
	"testing"
)

func TestImageMarker(t *testing.T) {
	d := newDriver(t, Options{})
	d.typ("see ")
	if label := d.m.AttachImage(Image{Name: "shot.png", MimeType: "image/png", Data: []byte("png")}); label != "[image #1 shot.png]" {
		t.Errorf("label = %q", label)
	}
	d.typ(" and ")
	d.m.AttachImage(Image{Name: "b.gif", MimeType: "image/gif", Data: []byte("gif")})
	d.paste(strings.Repeat("x\n", 12)) // a paste keeps its own numbering
	if got, want := d.m.Value(), "see [image #1 shot.png] and [image #2 b.gif]"+strings.Repeat("x\n", 12); got != want {
		t.Errorf("Value = %q, want %q", got, want)
	}
	if !strings.Contains(d.m.View(), "[paste #1 +12 lines]") {
		t.Errorf("view lacks the paste marker:\n%s", d.m.View())
	}
	// The marker deletes as one character: remove the paste, then b.gif.
	d.keys("backspace", "backspace")
	subs := d.keys("enter").submitted()
	if len(subs) != 1 {
		t.Fatalf("%d submits", len(subs))
	}
	if subs[0].Text != "see [image #1 shot.png] and " {
		t.Errorf("text = %q", subs[0].Text)
	}
	if len(subs[0].Images) != 1 || subs[0].Images[0].Name != "shot.png" || string(subs[0].Images[0].Data) != "png" {
		t.Errorf("images = %+v, want shot.png alone", subs[0].Images)
	}
	if len(d.m.Images()) != 0 {
		t.Error("images outlived the submit")
	}
}

// TestSetDraftRelinksImages: a draft given back as text and images (after
// an external editor) has its markers again where the labels stand.
func TestSetDraftRelinksImages(t *testing.T) {
	d := newDriver(t, Options{})
	d.m.AttachImage(Image{Name: "a.png"})
	d.m.AttachImage(Image{Name: "b.png"})
	images := d.m.Images()
	d.m.SetDraft("first [image #2 b.png] then text, [image #1 a.png] gone? no; [image #9 c.png]", images[1:])
	got := d.m.Images()
	if len(got) != 1 || got[0].Name != "b.png" {
		t.Fatalf("images = %+v, want b.png alone (a.png was not passed)", got)
	}
	// The marker is one character: step past it and one backspace deletes it.
	d.m.s.buf.inputStart()
	for range len("first ") {
		d.keys("right")
	}
	d.keys("right", "backspace")
	if v := d.m.Value(); !strings.HasPrefix(v, "first  then text") {
		t.Errorf("Value = %q, want the marker gone as one", v)
	}
	// Numbers go on after the highest kept, so labels never repeat.
	if label := d.m.AttachImage(Image{Name: "d.png"}); label != "[image #3 d.png]" {
		t.Errorf("next label = %q", label)
	}
}

// TestCompletedImageAsksToAttach: accepting an image file after `@` takes
// the word out and asks the parent to attach the file; other files are
// inserted as before.
func TestCompletedImageAsksToAttach(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, "shots/ui.png", "main.go")
	d := newDriver(t, Options{Cwd: dir, AttachImages: true})
	d.typ("see @ui.p").keys("tab")
	if v := d.m.Value(); v != "see " {
		t.Errorf("value = %q, want the word taken out", v)
	}
	var refs []ImageRefMsg
	for _, msg := range d.take() {
		if r, ok := msg.(ImageRefMsg); ok {
			refs = append(refs, r)
		}
	}
	if len(refs) != 1 || refs[0] != (ImageRefMsg{Path: "shots/ui.png", Text: "@shots/ui.png "}) {
		t.Errorf("sent %+v", refs)
	}
	d.typ("@main").keys("tab")
	if v := d.m.Value(); v != "see @main.go " {
		t.Errorf("value = %q after a Go file", v)
	}
}
