package editor

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// ImageRefMsg asks the parent to attach the image file Path (relative to
// Options.Cwd), chosen by `@` completion when Options.AttachImages is set.
// The editor has taken the `@word` out of the draft; the parent reads the
// file and calls AttachImage, or inserts Text (the word as completed)
// when it cannot.
type ImageRefMsg struct {
	Path string
	Text string
}

// imageExts are the file extensions of the images models take.
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp"}

// IsImagePath reports whether path names a PNG, JPEG, GIF or WebP image by
// its extension.
func IsImagePath(path string) bool {
	return slices.Contains(imageExts, strings.ToLower(filepath.Ext(path)))
}

// acceptImage takes a completed `@image` word out of the draft and asks the
// parent to attach the file.
func (s *state) acceptImage(text string) tea.Cmd {
	c := &s.comp
	s.buf.replace(c.trig.from, c.trig.to, nil)
	c.trig = trigger{}
	msg := ImageRefMsg{Path: strings.TrimPrefix(text, "@"), Text: text + " "}
	return tea.Batch(s.changed(), func() tea.Msg { return msg })
}

// Image is a picture attached to the draft. The editor shows it as a marker
// such as "[image #1 shot.png]" that moves and deletes as one character;
// Value and SubmitMsg.Text carry the marker's Label where it stands, and
// SubmitMsg.Images carries the image itself.
type Image struct {
	// Name is the file name the marker shows.
	Name string
	// MimeType is the image's type, such as "image/png".
	MimeType string
	// Data is the image file's bytes.
	Data []byte
	// Label is the marker's text; AttachImage sets it.
	Label string

	number int // the n of "#n", unique within a draft
}

// AttachImage inserts a marker for img at the cursor, as if typed, and
// returns the label it shows.
func (m Model) AttachImage(img Image) string {
	s := m.s
	s.viewOK = false
	s.pastes.images++
	img.number = s.pastes.images
	img.Label = imageLabel(img.number, img.Name)
	s.buf.insert([]rune{s.pastes.put(paste{text: img.Label, label: img.Label, image: &img})})
	s.changed()
	return img.Label
}

// Images returns the images whose markers are in the draft, in the order
// they stand.
func (m Model) Images() []Image { return m.s.images() }

func (s *state) images() []Image {
	var out []Image
	for _, l := range s.buf.lines {
		for _, r := range l.runes {
			if q, ok := s.pastes.byMarker[r]; ok && q.image != nil {
				out = append(out, *q.image)
			}
		}
	}
	return out
}

// SetDraft replaces the input with text, as SetValue does, and turns the
// first occurrence of each image's Label in it back into that image's
// marker: the way to give back a draft taken from Value and Images (after
// an external editor, or a prompt that could not be sent). Images whose
// label is no longer in text are dropped.
func (m Model) SetDraft(text string, images []Image) {
	m.SetValue(text)
	if len(images) == 0 {
		return
	}
	s := m.s
	rs := sanitize(text)
	for _, img := range images {
		label := sanitize(img.Label)
		i := index(rs, label)
		if i < 0 || len(label) == 0 {
			continue
		}
		img := img
		r := s.pastes.put(paste{text: img.Label, label: img.Label, image: &img})
		rs = slices.Concat(rs[:i], []rune{r}, rs[i+len(label):])
		s.pastes.images = max(s.pastes.images, img.number)
	}
	s.buf.setText(rs)
	s.changed()
}

// index returns where sub first starts in rs, or -1.
func index(rs, sub []rune) int {
	for i := 0; i+len(sub) <= len(rs); i++ {
		if slices.Equal(rs[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// imageLabel is the marker text of image n: "[image #1 shot.png]".
func imageLabel(n int, name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == ']' {
			return ' '
		}
		return r
	}, name)
	return "[image #" + strconv.Itoa(n) + " " + name + "]"
}
