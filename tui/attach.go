package tui

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// MaxImageBytes is the largest image file that can be attached to a prompt.
// Providers refuse bigger ones (Anthropic and OpenAI take about 20 MB per
// request), and a base64 copy of it lives in the session file.
const MaxImageBytes = 20 << 20

// imageTypes are the MIME types of the images every provider that takes
// images accepts.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// imageAttachedMsg carries an image read for the draft (a pasted path, the
// clipboard), or why it could not be read. fallback, when set, is inserted
// as text instead of a missing file: a pasted path that names nothing.
type imageAttachedMsg struct {
	img      editor.Image
	err      error
	fallback string
}

// imageRefsMsg carries the images named by `@path` in a submitted prompt,
// and the MCP resources it names as `@server:uri` (see loadRefs).
type imageRefsMsg struct {
	sub editor.SubmitMsg
	// text is what to send instead of sub.Text ("": sub.Text itself): the
	// prompt with its resources attached.
	text   string
	images []editor.Image
	err    error
}

// readImage reads an image file for attaching, refusing one over
// MaxImageBytes or whose content is not an image a model takes.
func readImage(path string) (editor.Image, error) {
	name := filepath.Base(path)
	info, err := os.Stat(path)
	if err != nil {
		return editor.Image{}, fmt.Errorf("attach %s: %w", path, err)
	}
	if info.Size() > MaxImageBytes {
		return editor.Image{}, fmt.Errorf("%s is %s; images larger than %s cannot be attached", name, megabytes(info.Size()), megabytes(MaxImageBytes))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return editor.Image{}, fmt.Errorf("attach %s: %w", path, err)
	}
	return imageFromBytes(name, data)
}

// imageFromBytes checks data is a PNG, JPEG, GIF or WebP image of at most
// MaxImageBytes, and names it.
func imageFromBytes(name string, data []byte) (editor.Image, error) {
	if len(data) > MaxImageBytes {
		return editor.Image{}, fmt.Errorf("%s is %s; images larger than %s cannot be attached", name, megabytes(int64(len(data))), megabytes(MaxImageBytes))
	}
	if mime := http.DetectContentType(data); slices.Contains(imageTypes, mime) {
		return editor.Image{Name: name, MimeType: mime, Data: data}, nil
	}
	return editor.Image{}, fmt.Errorf("%s is not a PNG, JPEG, GIF or WebP image", name)
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// attachFile returns a command that reads an image file for the draft.
// fallback is the text to insert instead when there is no such file.
func attachFile(path, fallback string) tea.Cmd {
	return func() tea.Msg {
		img, err := readImage(path)
		return imageAttachedMsg{img: img, err: err, fallback: fallback}
	}
}

// onImageAttached puts a read image in the draft, or says why not.
func (m *Model) onImageAttached(msg imageAttachedMsg) tea.Cmd {
	switch {
	case msg.err == nil:
		label := m.ed.AttachImage(msg.img)
		m.status.set(core.NotifyInfo, "Attached "+label+".", m.now())
	case msg.fallback != "" && errors.Is(msg.err, fs.ErrNotExist):
		m.ed.InsertText(msg.fallback)
	default:
		if msg.fallback != "" {
			m.ed.InsertText(msg.fallback)
		}
		m.status.set(core.NotifyError, msg.err.Error(), m.now())
	}
	return nil
}

// onImageRef attaches the image `@` completion chose.
func (m *Model) onImageRef(msg editor.ImageRefMsg) tea.Cmd {
	return attachFile(resolvePath(msg.Path, m.opts.Cwd), msg.Text)
}

// pastedImagePath reports the image file a paste names, when the paste is
// a single path ending in an image extension: typed, quoted, escaped the
// way terminals write a dropped file ("/a/my\ shot.png"), or a file:// URL.
func pastedImagePath(content, cwd string) (string, bool) {
	p := strings.TrimSpace(content)
	if p == "" || strings.ContainsAny(p, "\n\r") {
		return "", false
	}
	if len(p) >= 2 && (p[0] == '\'' || p[0] == '"') && p[len(p)-1] == p[0] {
		p = p[1 : len(p)-1]
	} else {
		p = strings.ReplaceAll(p, `\ `, " ")
	}
	if u, err := url.Parse(p); err == nil && u.Scheme == "file" {
		p = u.Path
	}
	if !editor.IsImagePath(p) {
		return "", false
	}
	return resolvePath(p, cwd), true
}

// resolvePath makes p absolute: ~ is the home directory, and a relative
// path is taken from cwd.
func resolvePath(p, cwd string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) && cwd != "" {
		return filepath.Join(cwd, p)
	}
	return p
}

// imageRefs returns the image files a prompt names as `@path`, resolved
// against cwd, each once.
func imageRefs(text, cwd string) []string {
	var out []string
	seen := map[string]bool{}
	for _, word := range strings.Fields(text) {
		ref, ok := strings.CutPrefix(word, "@")
		ref = strings.TrimRight(ref, ".,;:!?)")
		if !ok || !editor.IsImagePath(ref) {
			continue
		}
		if p := resolvePath(ref, cwd); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// loadImageRefs returns a command that reads the images a prompt names.
// A name that is no file stays plain text; any other problem stops the
// prompt.
func loadImageRefs(sub editor.SubmitMsg, paths []string) tea.Cmd {
	return func() tea.Msg {
		msg := imageRefsMsg{sub: sub}
		for _, p := range paths {
			img, err := readImage(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				msg.err = err
				return msg
			}
			msg.images = append(msg.images, img)
		}
		return msg
	}
}

// onImageRefs sends a prompt once the images and resources it names are
// read.
func (m *Model) onImageRefs(msg imageRefsMsg) tea.Cmd {
	m.status.setKeyed("mcp", "")
	if msg.err != nil {
		m.restoreDraft(msg.sub)
		m.status.set(core.NotifyError, msg.err.Error()+"; the message was not sent.", m.now())
		return nil
	}
	text := msg.text
	if text == "" {
		text = msg.sub.Text
	}
	return m.sendPromptText(msg.sub, text, append(msg.sub.Images, msg.images...))
}

// sendPrompt sends a prompt with its images to the session (a steering or
// follow-up message while the agent works). A model that takes no images
// refuses them, and the draft comes back to the editor.
func (m *Model) sendPrompt(sub editor.SubmitMsg, images []editor.Image) tea.Cmd {
	return m.sendPromptText(sub, sub.Text, images)
}

// sendPromptText is sendPrompt sending text instead of what was typed (an
// expanded prompt, attached resources); a refused prompt still gives the
// person back what they typed.
func (m *Model) sendPromptText(sub editor.SubmitMsg, text string, images []editor.Image) tea.Cmd {
	var blocks []core.Content
	if len(images) > 0 {
		model := m.sess.State().Model
		if !model.SupportsImages() {
			m.restoreDraft(sub)
			m.status.set(core.NotifyError, fmt.Sprintf("%s does not take images: remove the image or pick another model (%s).", modelName(model), firstKey(m.keys, keymap.SelectModel)), m.now())
			return nil
		}
		for _, img := range images {
			blocks = append(blocks, core.ImageBlock(base64.StdEncoding.EncodeToString(img.Data), img.MimeType))
		}
	}
	if m.aborting && m.sess.State().IsStreaming {
		// The interrupted run is still stopping: this is the next prompt.
		m.afterAbort = append(m.afterAbort, heldPrompt{sub, text, images})
		m.status.set(core.NotifyInfo, "Sends once the interrupted answer has stopped.", m.now())
		return nil
	}
	// The behaviour matters only when the agent is already working, which
	// it may be before its agent_start reaches the screen.
	behavior := agent.BehaviorSteer
	if sub.FollowUp {
		behavior = agent.BehaviorFollowUp
	}
	err := m.sess.Prompt(text, blocks, behavior)
	if err == nil && !m.busy {
		m.busy, m.busySince = true, m.now()
	}
	if err != nil {
		m.restoreDraft(sub) // nothing typed is lost
		m.status.set(core.NotifyError, err.Error(), m.now())
	}
	m.tr.end()
	return nil
}

// heldPrompt is a message sent while an interrupted run was stopping.
type heldPrompt struct {
	sub    editor.SubmitMsg
	text   string
	images []editor.Image
}

// sendHeld sends the messages held while a run was stopping: the first
// starts the next prompt, the rest steer it.
func (m *Model) sendHeld() {
	held := m.afterAbort
	m.aborting, m.afterAbort = false, nil
	for _, h := range held {
		m.sendPromptText(h.sub, h.text, h.images)
	}
}

func modelName(model core.Model) string {
	if model.Name != "" {
		return model.Name
	}
	return model.ID
}

// restoreDraft puts a submitted message, images included, back in the
// editor, ahead of anything typed since.
func (m *Model) restoreDraft(sub editor.SubmitMsg) {
	text, images := sub.Text, sub.Images
	if !m.ed.Empty() {
		text += "\n\n" + m.ed.Value()
		images = append(append([]editor.Image(nil), images...), m.ed.Images()...)
	}
	m.ed.SetDraft(text, images)
}

// clipboardTools are the programs that print the clipboard's image, with
// their arguments; the first one installed that succeeds wins.
func clipboardTools(wayland bool) [][]string {
	wl := []string{"wl-paste", "--no-newline", "--type", "image/png"}
	x := []string{"xclip", "-selection", "clipboard", "-t", "image/png", "-o"}
	mac := []string{"pngpaste", "-"}
	if wayland {
		return [][]string{wl, x, mac}
	}
	return [][]string{x, wl, mac}
}

// clipboardTimeout bounds how long a clipboard tool may take.
const clipboardTimeout = 5 * time.Second

// pasteClipboardImage returns a command that reads the clipboard's image.
func pasteClipboardImage() tea.Cmd {
	wayland := os.Getenv("WAYLAND_DISPLAY") != ""
	return func() tea.Msg {
		img, err := readClipboardImage(clipboardTools(wayland))
		return imageAttachedMsg{img: img, err: err}
	}
}

func readClipboardImage(tools [][]string) (editor.Image, error) {
	var failures []string
	for _, argv := range tools {
		path, err := exec.LookPath(argv[0])
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
		var stdout, stderr bytes.Buffer
		c := exec.CommandContext(ctx, path, argv[1:]...)
		c.Stdout, c.Stderr = &stdout, &stderr
		err = c.Run()
		cancel()
		if err == nil && stdout.Len() > 0 {
			return imageFromBytes("clipboard.png", stdout.Bytes())
		}
		why := strings.TrimSpace(stderr.String())
		if why == "" && err != nil {
			why = err.Error()
		}
		if why == "" {
			why = "no output"
		}
		failures = append(failures, argv[0]+": "+firstLine(why))
	}
	if len(failures) == 0 {
		return editor.Image{}, errors.New("no clipboard tool found: install wl-clipboard (Wayland) or xclip (X11)")
	}
	return editor.Image{}, fmt.Errorf("the clipboard holds no PNG image (%s)", strings.Join(failures, "; "))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
