package piext

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Bounds of Mentions' reading: it looks at so many source files of an
// extension, each only so far.
const (
	maxMentionFiles = 400
	maxMentionBytes = 1 << 20
)

// Mentions reports whether the source of any of the extensions whose
// entry modules are files names word: the entry itself, and for an entry
// named index.* (a directory extension or a package), every .ts, .js,
// .mjs, .cjs, .mts and .cts file under its directory, node_modules left
// out. cairn uses it to learn, without starting Node, whether an
// extension may handle an event that must be asked before the session
// starts (resources_discover): a start waits for the extensions only then.
func Mentions(files []string, word string) bool {
	w := []byte(word)
	seen := 0
	has := func(path string) bool {
		seen++
		f, err := os.Open(path)
		if err != nil {
			return false
		}
		defer f.Close()
		data, _ := io.ReadAll(io.LimitReader(f, maxMentionBytes))
		return bytes.Contains(data, w)
	}
	for _, file := range files {
		if has(file) {
			return true
		}
		if !strings.HasPrefix(filepath.Base(file), "index.") {
			continue
		}
		found := false
		_ = filepath.WalkDir(filepath.Dir(file), func(p string, d fs.DirEntry, err error) error {
			switch {
			case found || seen >= maxMentionFiles:
				return fs.SkipAll
			case err != nil:
				return nil
			case d.IsDir() && d.Name() == "node_modules":
				return filepath.SkipDir
			case d.IsDir() || p == file:
				return nil
			}
			switch filepath.Ext(p) {
			case ".ts", ".js", ".mjs", ".cjs", ".mts", ".cts":
				found = has(p)
			}
			return nil
		})
		if found {
			return true
		}
	}
	return false
}
