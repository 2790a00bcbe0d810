package sysprompt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core/regfile"
)

// ContextFile is one file of instructions for the model, such as a
// project's AGENTS.md.
type ContextFile struct {
	// Path is the file's absolute path; the prompt shows it as a heading.
	Path string
	// Content is the file's text, cut to MaxContextFileBytes with a note
	// saying so when the file is larger.
	Content string
}

// MaxContextFileBytes is the most of one context file the prompt carries.
// A larger file is cut at the last line break before the limit and ends
// with a note, so a stray huge file cannot fill the model's context.
const MaxContextFileBytes = 256 << 10

// contextFileNames are the names looked for in each directory, in order of
// preference; the first that exists is used. The upper-case spellings are
// pi's, for file systems that tell case apart.
var contextFileNames = []string{"AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"}

// LoadContextFiles finds the context files that apply in cwd: the one in
// cairnDir (the user's own instructions, for every project), then one per
// directory from the repository root down to cwd, so the most specific file
// comes last. The repository root is the nearest directory, cwd included,
// holding a .git directory or file; outside a repository only cwd is
// searched. In each directory AGENTS.md is used if present, else CLAUDE.md.
// A file reached twice (cwd inside cairnDir, a symbolic link) is included
// once.
//
// The returned error, when not nil, lists the files that could not be read
// (they are skipped) and those cut to MaxContextFileBytes; the files that
// were read are returned all the same.
func LoadContextFiles(cairnDir, cwd string) ([]ContextFile, error) {
	var dirs []string
	if cairnDir != "" {
		if abs, err := filepath.Abs(cairnDir); err == nil {
			dirs = append(dirs, abs)
		}
	}
	absCwd, err := filepath.Abs(cwd)
	if err != nil {
		return nil, fmt.Errorf("find context files: %w", err)
	}
	dirs = append(dirs, dirsFromRoot(absCwd)...)

	var (
		files []ContextFile
		errs  []error
		seen  = map[string]bool{}
	)
	for _, dir := range dirs {
		f, ferrs := loadContextFileFromDir(dir)
		errs = append(errs, ferrs...)
		if f == nil {
			continue
		}
		key := f.Path
		if real, err := filepath.EvalSymlinks(f.Path); err == nil {
			key = real
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		files = append(files, *f)
	}
	return files, errors.Join(errs...)
}

// dirsFromRoot lists the directories from cwd's repository root (or cwd
// itself outside a repository) down to cwd.
func dirsFromRoot(cwd string) []string {
	var up []string
	for dir := cwd; ; {
		up = append(up, dir)
		if exists(filepath.Join(dir, ".git")) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return []string{cwd} // not in a repository
		}
		dir = parent
	}
	down := make([]string, len(up))
	for i, dir := range up {
		down[len(up)-1-i] = dir
	}
	return down
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// loadContextFileFromDir returns the preferred context file in dir, if any.
// A candidate that cannot be read is reported and the next one tried; one
// that was cut is used and reported.
func loadContextFileFromDir(dir string) (*ContextFile, []error) {
	var errs []error
	for _, name := range contextFileNames {
		path := filepath.Join(dir, name)
		content, err := readCapped(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, regfile.ErrTooLarge):
			errs = append(errs, err)
		case err != nil:
			errs = append(errs, fmt.Errorf("context file %s skipped: %w", path, err))
			continue
		}
		return &ContextFile{Path: path, Content: content}, errs
	}
	return nil, errs
}

// readCapped reads at most MaxContextFileBytes of the regular file at path
// (see regfile), without a leading byte order mark. A longer file is cut at
// its last line break before the limit (or at a character boundary when
// the first line alone is too long) and a note tells the model how much was
// left out; the error, wrapping regfile.ErrTooLarge, tells the person.
func readCapped(path string) (string, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	bom := []byte("\xef\xbb\xbf")
	data, err := io.ReadAll(io.LimitReader(f, int64(len(bom))+MaxContextFileBytes+1))
	if err != nil {
		return "", err
	}
	data = bytes.TrimPrefix(data, bom)
	if len(data) <= MaxContextFileBytes {
		return string(data), nil
	}
	cut := data[:MaxContextFileBytes]
	if i := bytes.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i+1]
	} else {
		// Drop the start of a character the limit split.
		for range utf8.UTFMax - 1 {
			if r, n := utf8.DecodeLastRune(cut); r != utf8.RuneError || n != 1 {
				break
			}
			cut = cut[:len(cut)-1]
		}
	}
	size := int64(len(data))
	if info, err := f.Stat(); err == nil {
		size = max(size, info.Size())
	}
	kb, limit := (size+1023)/1024, MaxContextFileBytes>>10
	return fmt.Sprintf("%s\n[cairn: this file is %d KB; only its first %d KB are included here. Read the file for the rest.]", cut, kb, limit),
		fmt.Errorf("%s is %d KB, so the model sees only its first %d KB (%w); shorten it to give the model all of it", path, kb, limit, regfile.ErrTooLarge)
}

// LoadOverrides reads the files that change the base prompt: SYSTEM.md,
// whose text replaces cairn's default prompt (see Options.Custom), and
// APPEND_SYSTEM.md, whose text is added after it (Options.Append). Each is
// looked for in <cwd>/.cairn/ first, then in cairnDir; the first found is
// used. An empty cwd skips the project (one that is not trusted). A
// missing file gives ""; the error, when not nil, names files that could
// not be read (the next candidate is used) or were cut, as context files
// are, to MaxContextFileBytes.
func LoadOverrides(cairnDir, cwd string) (custom, appendText string, err error) {
	var errs []error
	custom = readFirst(cairnDir, cwd, "SYSTEM.md", &errs)
	appendText = readFirst(cairnDir, cwd, "APPEND_SYSTEM.md", &errs)
	return custom, appendText, errors.Join(errs...)
}

func readFirst(cairnDir, cwd, name string, errs *[]error) string {
	var candidates []string
	if cwd != "" {
		candidates = append(candidates, filepath.Join(cwd, ".cairn", name))
	}
	if cairnDir != "" {
		candidates = append(candidates, filepath.Join(cairnDir, name))
	}
	for _, path := range candidates {
		text, err := readCapped(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, regfile.ErrTooLarge):
			*errs = append(*errs, err)
		case err != nil:
			*errs = append(*errs, fmt.Errorf("%s skipped: %w", path, err))
			continue
		}
		return text
	}
	return ""
}
