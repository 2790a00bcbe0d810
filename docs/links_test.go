// Package docs holds cairn's documentation pages; its test checks that the
// README and the pages link only to what a clone of the repository has.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink matches a markdown link or image: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// pages are the README and every page under docs/, as paths from here.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../README.md"}, docs...)
}

// TestLinksStayInTheRepository: every relative link of the README and of
// the docs/ pages names a file of the repository (and a heading of it,
// when it has an #anchor); none leads outside it, where a clone has
// nothing (the README pointed at ../shared/DESIGN.md).
func TestLinksStayInTheRepository(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages(t) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			abs, err := filepath.Abs(path)
			if err != nil || !strings.HasPrefix(abs, root+string(filepath.Separator)) {
				t.Errorf("%s links outside the repository: %s", page, target)
				continue
			}
			body, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s links to %s, which the repository does not have", page, target)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !hasHeading(string(body), anchor) {
				t.Errorf("%s links to %s, but %s has no heading #%s", page, target, file, anchor)
			}
		}
	}
}

// TestReadmeIsANewcomersPage: the README says what cairn is, how to
// install it, the two commands (start it, test it), shows each main
// feature, says where everything else is, and names nothing outside the
// repository.
func TestReadmeIsANewcomersPage(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, want := range []string{"## Install", "## The two commands", "    make run", "    make test", "cairn --demo",
		"docs/screenshots/tool-approval.png", "docs/screenshots/edit-diff.png", "docs/screenshots/streamed-answer.png",
		"(docs/hosts.md)", "(docs/configuration.md)", "(docs/benchmarks.md)", "## More"} {
		if !strings.Contains(readme, want) {
			t.Errorf("the README lacks %q", want)
		}
	}
	for _, bad := range []string{"../shared", "come next"} {
		if strings.Contains(readme, bad) {
			t.Errorf("the README says %q", bad)
		}
	}
}

// hasHeading reports whether markdown has a heading whose GitHub anchor is
// anchor.
func hasHeading(markdown, anchor string) bool {
	for _, line := range strings.Split(markdown, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		if slug(strings.TrimLeft(line, "#")) == anchor {
			return true
		}
	}
	return false
}

// slug is GitHub's anchor for a heading: lower case, punctuation other
// than '-' and '_' dropped, spaces made '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
