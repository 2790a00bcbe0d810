package tui

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/tui/editor"
)

// sendSync runs msg through Update and every command that follows to its
// end, however long it takes: for commands that read files or run a
// program, which the rig's send would give up on when the machine is slow.
// Only commands that end by themselves may follow msg.
func (r *rig) sendSync(msg tea.Msg) {
	r.t.Helper()
	_, cmd := r.m.Update(msg)
	r.runSync(cmd, 0)
}

func (r *rig) runSync(cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 8 {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			r.runSync(c, depth+1)
		}
	case nil, tickMsg:
	default:
		if isProgramMsg(msg) {
			return
		}
		_, next := r.m.Update(msg)
		r.runSync(next, depth+1)
	}
}

// runPrograms makes the model run the programs it would hand the terminal
// to (the external editor) at once, without a terminal.
func (r *rig) runPrograms() {
	r.m.execProcess = func(c *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		err := c.Run()
		return func() tea.Msg { return done(err) }
	}
}

// pngBytes is a small PNG image.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeScript writes an executable shell script to dir/name.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// sentImages returns the image blocks of the session's first user message.
func sentImages(t *testing.T, r *rig) (string, []core.Content) {
	t.Helper()
	msgs := r.sess.Messages()
	if len(msgs) == 0 {
		t.Fatal("nothing was sent")
	}
	u, ok := msgs[0].(*core.UserMessage)
	if !ok {
		t.Fatalf("first message is %T", msgs[0])
	}
	var imgs []core.Content
	for _, c := range u.Content {
		if c.Type == core.ContentImage {
			imgs = append(imgs, c)
		}
	}
	return u.Text(), imgs
}

func TestExternalEditorReplacesDraft(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.runPrograms()
	bin := t.TempDir()
	seen := filepath.Join(bin, "seen")
	t.Setenv("VISUAL", writeScript(t, bin, "fake-editor", `cp "$1" "`+seen+`"; printf 'rewritten\nby the editor\n' > "$1"`))
	r.typeText("draft text")
	r.sendSync(key("ctrl+g"))
	if got := r.m.ed.Value(); got != "rewritten\nby the editor" {
		t.Errorf("draft = %q, want the editor's text without its final line break", got)
	}
	if b, err := os.ReadFile(seen); err != nil || string(b) != "draft text" {
		t.Errorf("the editor was given %q (%v), want the draft", b, err)
	}
}

func TestExternalEditorFailureKeepsDraft(t *testing.T) {
	for _, tc := range []struct {
		name, visual, editor, status string
	}{
		{"non-zero exit", "fail", "", "exited with status 3; the message is unchanged"},
		{"not installed", "no-such-editor-cairn", "", "was not found"},
		{"unset", "", "", "set $VISUAL or $EDITOR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			r.runPrograms()
			visual := tc.visual
			if visual == "fail" {
				visual = writeScript(t, t.TempDir(), "fake-editor", `echo ruined > "$1"; exit 3`)
			}
			t.Setenv("VISUAL", visual)
			t.Setenv("EDITOR", tc.editor)
			r.typeText("keep me")
			r.sendSync(key("ctrl+g"))
			if got := r.m.ed.Value(); got != "keep me" {
				t.Errorf("draft = %q, want it unchanged", got)
			}
			if !strings.Contains(r.m.status.text, tc.status) {
				t.Errorf("status = %q, want it to say %q", r.m.status.text, tc.status)
			}
		})
	}
}

// TestExternalEditorKeepsImages: an image marker goes to the editor as its
// label and comes back as the image while the label stays.
func TestExternalEditorKeepsImages(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.runPrograms()
	if err := os.WriteFile(filepath.Join(r.dir, "shot.png"), pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	r.sendSync(tea.PasteMsg{Content: filepath.Join(r.dir, "shot.png")})
	t.Setenv("VISUAL", writeScript(t, t.TempDir(), "fake-editor", `printf 'look: ' > "$1.new"; cat "$1" >> "$1.new"; mv "$1.new" "$1"`))
	r.sendSync(key("ctrl+g"))
	if got := r.m.ed.Value(); got != "look: [image #1 shot.png]" {
		t.Errorf("draft = %q", got)
	}
	if n := len(r.m.ed.Images()); n != 1 {
		t.Errorf("%d images after editing, want 1", n)
	}
}

func TestAtImageIsSent(t *testing.T) {
	r := newRig(t, rigOptions{responses: []faux.Response{{Text: "A grey square."}}})
	data := pngBytes(t)
	if err := os.WriteFile(filepath.Join(r.dir, "img.png"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r.typeText("what is @img.png?")
	r.sendSync(key("enter"))
	r.waitSettled()
	text, imgs := sentImages(t, r)
	if text != "what is @img.png?" {
		t.Errorf("text = %q", text)
	}
	if len(imgs) != 1 || imgs[0].MimeType != "image/png" || imgs[0].Data != base64.StdEncoding.EncodeToString(data) {
		t.Fatalf("images = %+v, want the PNG", imgs)
	}
}

func TestPastedImagePathAttaches(t *testing.T) {
	r := newRig(t, rigOptions{responses: []faux.Response{{Text: "ok"}}})
	dir := filepath.Join(r.dir, "my shots")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.png"), pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	// As a terminal writes a dropped file: spaces escaped.
	r.sendSync(tea.PasteMsg{Content: strings.ReplaceAll(filepath.Join(dir, "a.png"), " ", `\ `)})
	r.typeText(" explain")
	if got := r.m.ed.Value(); got != "[image #1 a.png] explain" {
		t.Fatalf("draft = %q", got)
	}
	r.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	if !strings.Contains(ansi.Strip(r.m.View().Content), "[image #1 a.png] explain") {
		t.Error("the marker is not on screen")
	}
	r.sendSync(key("enter"))
	r.waitSettled()
	if _, imgs := sentImages(t, r); len(imgs) != 1 {
		t.Errorf("%d images sent, want 1", len(imgs))
	}

	// A pasted path to no file stays text.
	r.sendSync(tea.PasteMsg{Content: "/no/such/file.png"})
	if got := r.m.ed.Value(); got != "/no/such/file.png" {
		t.Errorf("draft = %q, want the pasted text", got)
	}
}

func TestTextOnlyModelRefusesImages(t *testing.T) {
	textOnly := faux.Model
	textOnly.Name, textOnly.Input = "Plain Text 1", []string{"text"}
	r := newRig(t, rigOptions{model: &textOnly, responses: []faux.Response{{Text: "never"}}})
	if err := os.WriteFile(filepath.Join(r.dir, "img.png"), pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	r.sendSync(tea.PasteMsg{Content: "img.png"})
	r.typeText(" and @img.png")
	r.sendSync(key("enter"))
	if !strings.Contains(r.m.status.text, "Plain Text 1 does not take images") {
		t.Errorf("status = %q", r.m.status.text)
	}
	if got := r.m.ed.Value(); got != "[image #1 img.png] and @img.png" || len(r.m.ed.Images()) != 1 {
		t.Errorf("draft = %q with %d images, want it back intact", got, len(r.m.ed.Images()))
	}
	if n := len(r.sess.Messages()); n != 0 || r.fp.Calls() != 0 {
		t.Errorf("%d messages, %d calls: the prompt went out", n, r.fp.Calls())
	}
}

func TestOversizedImageRefused(t *testing.T) {
	r := newRig(t, rigOptions{})
	path := filepath.Join(r.dir, "huge.png")
	if err := os.WriteFile(path, pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, MaxImageBytes+1); err != nil {
		t.Fatal(err)
	}
	r.typeText("see @huge.png")
	r.sendSync(key("enter"))
	if !strings.Contains(r.m.status.text, "images larger than 20.0 MB cannot be attached") {
		t.Errorf("status = %q", r.m.status.text)
	}
	if got := r.m.ed.Value(); got != "see @huge.png" {
		t.Errorf("draft = %q, want it back", got)
	}
}

func TestClipboardImage(t *testing.T) {
	bin := t.TempDir()
	img := filepath.Join(bin, "clip.png")
	if err := os.WriteFile(img, pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	writeScript(t, bin, "wl-paste", `[ "$*" = "--no-newline --type image/png" ] || exit 2; exec /bin/cat "`+img+`"`)
	t.Setenv("PATH", bin)
	t.Setenv("WAYLAND_DISPLAY", "wayland-0")
	r := newRig(t, rigOptions{})
	r.sendSync(key("ctrl+v"))
	imgs := r.m.ed.Images()
	if len(imgs) != 1 || imgs[0].Name != "clipboard.png" || imgs[0].MimeType != "image/png" {
		t.Fatalf("images = %+v, status %q", imgs, r.m.status.text)
	}
	if got := r.m.ed.Value(); got != "[image #1 clipboard.png]" {
		t.Errorf("draft = %q", got)
	}

	t.Setenv("PATH", t.TempDir())
	r.sendSync(key("ctrl+v"))
	if !strings.Contains(r.m.status.text, "install wl-clipboard (Wayland) or xclip (X11)") {
		t.Errorf("status with no tool = %q", r.m.status.text)
	}
}

// TestCompletedImageAttaches: the image `@` completion chose becomes a
// marker; one that cannot be read goes back in as the completed text.
func TestCompletedImageAttaches(t *testing.T) {
	r := newRig(t, rigOptions{})
	if err := os.WriteFile(filepath.Join(r.dir, "ui.png"), pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "fake.png"), []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.sendSync(editor.ImageRefMsg{Path: "ui.png", Text: "@ui.png "})
	if got := r.m.ed.Value(); got != "[image #1 ui.png]" {
		t.Errorf("draft = %q", got)
	}
	r.sendSync(editor.ImageRefMsg{Path: "fake.png", Text: "@fake.png "})
	if got := r.m.ed.Value(); got != "[image #1 ui.png]@fake.png " {
		t.Errorf("draft = %q", got)
	}
	if !strings.Contains(r.m.status.text, "fake.png is not a PNG, JPEG, GIF or WebP image") {
		t.Errorf("status = %q", r.m.status.text)
	}
}
