package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/regfile"
	"github.com/cairn-dev/cairn/core/tools"
)

// initialPrompts are what a run without the interface sends, as pi 0.87.1
// builds them (its cli/initial-message.js, checked against pi itself):
// the first prompt is piped stdin (trimmed), the @files' text and the
// first message, joined with nothing between them, with the @files'
// images; each further message on the command line is a prompt of its
// own, sent once the one before has been answered.
type initialPrompts struct {
	first  string
	images []core.Content
	rest   []string
}

// readPrompts reads stdin (unless it is a terminal) and the @files and
// splits the messages as pi does. A prompt template's /name is expanded
// when a prompt is sent, at the start of each prompt as in pi.
func readPrompts(streams IOStreams, opts *Options) (initialPrompts, error) {
	var p initialPrompts
	var b strings.Builder
	if !streams.InIsTerminal && streams.In != nil {
		data, err := io.ReadAll(io.LimitReader(streams.In, maxStdinPrompt+1))
		if err != nil {
			return p, fmt.Errorf("read stdin: %w", err)
		}
		if len(data) > maxStdinPrompt {
			return p, fmt.Errorf("stdin is larger than %d MiB; pass a smaller input", maxStdinPrompt>>20)
		}
		b.WriteString(strings.TrimSpace(string(data)))
	}
	files, images, err := fileArguments(opts.Files)
	if err != nil {
		return p, err
	}
	b.WriteString(files)
	if len(opts.Messages) > 0 {
		b.WriteString(opts.Messages[0])
		p.rest = opts.Messages[1:]
	}
	p.first, p.images = b.String(), images
	if strings.TrimSpace(p.first) == "" && len(p.images) == 0 {
		return p, errors.New(`no prompt: pass one as an argument (cairn -p "...") or on stdin`)
	}
	return p, nil
}

// fileArguments is what pi puts before the first message for its @file
// arguments: a text file as <file name="ABSOLUTE PATH">\n...\n</file> and
// a newline; an image (PNG, JPEG, GIF, WebP) as <file name="PATH"></file>
// and a newline, the image itself attached, as it is; an empty file is
// skipped, as pi skips it. A file that cannot be read, or that is neither
// text nor such an image, is an error that says so.
func fileArguments(paths []string) (string, []core.Content, error) {
	var b strings.Builder
	var images []core.Content
	for _, p := range paths {
		abs, err := filepath.Abs(pihome.ExpandTilde(p, os.Getenv("HOME")))
		if err != nil {
			return "", nil, fmt.Errorf("@%s: %w", p, err)
		}
		data, err := regfile.Read(abs, regfile.MaxText)
		if err != nil {
			return "", nil, fmt.Errorf("@%s: %w", p, err)
		}
		if len(data) == 0 {
			continue
		}
		if mime := tools.SniffImage(data); mime != "" {
			images = append(images, core.ImageBlock(base64.StdEncoding.EncodeToString(data), mime))
			fmt.Fprintf(&b, "<file name=\"%s\"></file>\n", abs)
			continue
		}
		if !utf8.Valid(data) {
			return "", nil, fmt.Errorf("@%s is not a text file or an image a model can take (PNG, JPEG, GIF, WebP)", p)
		}
		fmt.Fprintf(&b, "<file name=\"%s\">\n%s\n</file>\n", abs, strings.TrimPrefix(string(data), "\ufeff"))
	}
	return b.String(), images, nil
}
