package aionrs

import (
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// Attached images are bounded one by one, in number and in total, so a
// message naming one file many times cannot exhaust memory.
const (
	maxImageBytes = 20 << 20
	maxImages     = 20
	maxTotalBytes = 50 << 20
)

var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
}

// attach turns a message's files into prompt content: images go with the
// prompt when the model accepts them; every other file (and an image that
// cannot go) is named in the text, for the model to read with its tools.
// notes say what could not be attached and why.
func attach(input string, files []string, model core.Model) (text string, images []core.Content, notes []string) {
	var named []string
	seen := map[string]bool{}
	total := int64(0)
	for _, path := range files {
		if seen[path] {
			continue
		}
		seen[path] = true
		mime, isImage := imageTypes[strings.ToLower(filepath.Ext(path))]
		if !isImage || !model.SupportsImages() {
			named = append(named, path)
			continue
		}
		var data []byte
		err := fmt.Errorf("more than %d images, or more than %d bytes of them, in one message", maxImages, maxTotalBytes)
		if len(images) < maxImages && total < maxTotalBytes {
			data, err = tools.ReadRegular(path, min(maxImageBytes, maxTotalBytes-total))
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("attach %s: %v; it is named in the prompt instead", path, err))
			named = append(named, path)
			continue
		}
		total += int64(len(data))
		images = append(images, core.ImageBlock(base64.StdEncoding.EncodeToString(data), mime))
	}
	text = input
	if len(named) > 0 {
		text += "\n\nAttached files:\n- " + strings.Join(named, "\n- ")
	}
	return text, images, notes
}
