package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// Options says how the page looks. Colours are "#rrggbb" strings; an empty
// colour takes the value of DefaultOptions, so the zero Options is a
// complete dark page.
type Options struct {
	// Title is the page's title; empty means the session's name, or its id.
	Title string

	PageBg      string // the page behind the cards
	CardBg      string // message cards
	Text        string // body text
	Accent      string // links, headings, tool names
	Muted       string // timestamps, usage lines, labels
	Success     string // finished tool calls
	Error       string // failed tool calls and errors
	UserBg      string // the person's messages
	ToolBg      string // tool calls and bash executions
	DiffAdded   string // added lines of an edit
	DiffRemoved string // removed lines of an edit

	// CodeStyle colours highlighted code; nil means chroma's "github-dark".
	CodeStyle *chroma.Style
}

// DefaultOptions returns the dark colours the page uses unless told
// otherwise; they follow pi's dark theme.
func DefaultOptions() Options {
	return Options{
		PageBg:      "#18181e",
		CardBg:      "#1e1e24",
		Text:        "#d4d4d8",
		Accent:      "#8abeb7",
		Muted:       "#808080",
		Success:     "#b5bd68",
		Error:       "#cc6666",
		UserBg:      "#343541",
		ToolBg:      "#282832",
		DiffAdded:   "#b5bd68",
		DiffRemoved: "#cc6666",
	}
}

// colour is one themable colour: its CSS variable and where it is held.
type colour struct {
	name string
	css  string
	val  func(*Options) *string
}

var colours = []colour{
	{"PageBg", "--page-bg", func(o *Options) *string { return &o.PageBg }},
	{"CardBg", "--card-bg", func(o *Options) *string { return &o.CardBg }},
	{"Text", "--text", func(o *Options) *string { return &o.Text }},
	{"Accent", "--accent", func(o *Options) *string { return &o.Accent }},
	{"Muted", "--muted", func(o *Options) *string { return &o.Muted }},
	{"Success", "--success", func(o *Options) *string { return &o.Success }},
	{"Error", "--error", func(o *Options) *string { return &o.Error }},
	{"UserBg", "--user-bg", func(o *Options) *string { return &o.UserBg }},
	{"ToolBg", "--tool-bg", func(o *Options) *string { return &o.ToolBg }},
	{"DiffAdded", "--diff-added", func(o *Options) *string { return &o.DiffAdded }},
	{"DiffRemoved", "--diff-removed", func(o *Options) *string { return &o.DiffRemoved }},
}

// resolved returns o with defaults filled in, or an error naming the first
// colour that is not "#rrggbb" (a colour goes into the page's CSS as it is,
// so nothing else may pass).
func (o Options) resolved() (Options, error) {
	def := DefaultOptions()
	for _, c := range colours {
		v := c.val(&o)
		if *v == "" {
			*v = *c.val(&def)
			continue
		}
		if !isHexColour(*v) {
			return o, fmt.Errorf("export: colour %s is %q; want \"#rrggbb\"", c.name, *v)
		}
	}
	if o.CodeStyle == nil {
		o.CodeStyle = styles.Get("github-dark")
	}
	return o, nil
}

func isHexColour(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, c := range []byte(s[1:]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// DefaultFileName is the name an export gets when none is given:
// cairn-session-<session file name without .jsonl>.html (the file name
// holds the session's start time and id), as pi names its exports
// pi-session-<file name>.html.
func DefaultFileName(sessionPath string) string {
	base := strings.TrimSuffix(filepath.Base(sessionPath), ".jsonl")
	if base == "" || base == "." || base == string(filepath.Separator) {
		base = "export"
	}
	return "cairn-session-" + base + ".html"
}

// WriteFile exports doc to the file at path. It writes a temporary file
// next to it and renames it into place, so an export that fails half-way
// leaves no partial page behind (nor replaces an older one).
func WriteFile(path string, doc Document, opts Options) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		// The temporary name would only confuse: say what failed for path.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("export to %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = HTML(tmp, doc, opts); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	if err = tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	return nil
}
