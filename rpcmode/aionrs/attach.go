package aionrs

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// maxImageBytes bounds an attached image read into a prompt.
const maxImageBytes = 20 << 20

var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
}

// attach turns a message's files into prompt content: images go with the
// prompt when the model accepts them; every other file (and an image that
// cannot go) is named in the text, for the model to read with its tools.
// notes say what could not be attached and why.
func attach(input string, files []string, model core.Model) (text string, images []core.Content, notes []string) {
	var named []string
	for _, path := range files {
		mime, isImage := imageTypes[strings.ToLower(filepath.Ext(path))]
		if !isImage || !model.SupportsImages() {
			named = append(named, path)
			continue
		}
		data, err := readLimited(path, maxImageBytes)
		if err != nil {
			notes = append(notes, fmt.Sprintf("attach %s: %v; it is named in the prompt instead", path, err))
			named = append(named, path)
			continue
		}
		images = append(images, core.ImageBlock(base64.StdEncoding.EncodeToString(data), mime))
	}
	text = input
	if len(named) > 0 {
		text += "\n\nAttached files:\n- " + strings.Join(named, "\n- ")
	}
	return text, images, notes
}

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}
