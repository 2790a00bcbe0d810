package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// LoadTemplates reads the prompt templates in dir (~/.cairn/prompts): each
// NAME.md becomes the command /NAME. An optional front matter line
// `description: …` between `---` lines describes it; otherwise its first
// line does. A missing dir holds no templates; a file that cannot be read
// is reported and skipped.
func LoadTemplates(dir string) ([]Template, []error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("prompt templates: %w", err)}
	}
	var out []Template
	var errs []error
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || e.IsDir() || name == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, fmt.Errorf("prompt template %s: %w", e.Name(), err))
			continue
		}
		out = append(out, parseTemplate(name, string(b)))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

func parseTemplate(name, text string) Template {
	t := Template{Name: name}
	body := strings.ReplaceAll(text, "\r\n", "\n")
	if rest, ok := strings.CutPrefix(body, "---\n"); ok {
		if front, after, ok := strings.Cut(rest, "\n---\n"); ok {
			for _, l := range strings.Split(front, "\n") {
				if d, ok := strings.CutPrefix(l, "description:"); ok {
					t.Description = strings.Trim(strings.TrimSpace(d), `"'`)
				}
			}
			body = after
		}
	}
	t.Body = strings.TrimSpace(body)
	if t.Description == "" {
		first, _, _ := strings.Cut(t.Body, "\n")
		t.Description = strings.TrimSpace(strings.TrimLeft(first, "# "))
		if len(t.Description) > 60 {
			t.Description = t.Description[:57] + "…"
		}
	}
	return t
}
