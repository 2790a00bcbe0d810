package tools

import (
	"os"
	"path/filepath"
	"strings"
)

// unicodeSpaces are the space characters models sometimes put in paths
// copied from rendered text; they are read as plain spaces.
var unicodeSpaces = strings.NewReplacer(
	"\u00A0", " ", "\u2000", " ", "\u2001", " ", "\u2002", " ", "\u2003", " ",
	"\u2004", " ", "\u2005", " ", "\u2006", " ", "\u2007", " ", "\u2008", " ",
	"\u2009", " ", "\u200A", " ", "\u202F", " ", "\u205F", " ", "\u3000", " ",
)

// expandPath reads a path as a model writes it: a leading '@' (a mention) is
// dropped, odd spaces become plain ones, and '~' means the home directory.
func expandPath(p string) string {
	p = unicodeSpaces.Replace(strings.TrimPrefix(p, "@"))
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + p[1:]
		}
	}
	return p
}

// resolvePath returns the absolute, cleaned form of p, relative paths being
// taken from cwd.
func resolvePath(p, cwd string) string {
	p = expandPath(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// resolveReadPath is resolvePath for a file that should exist. When it does
// not, it tries the spellings macOS uses in screenshot names (a narrow
// no-break space before AM/PM, a curly apostrophe) before giving up.
func resolveReadPath(p, cwd string) string {
	abs := resolvePath(p, cwd)
	if exists(abs) {
		return abs
	}
	for _, v := range []string{
		strings.NewReplacer(" AM.", "\u202FAM.", " PM.", "\u202FPM.", " am.", "\u202Fam.", " pm.", "\u202Fpm.").Replace(abs),
		strings.ReplaceAll(abs, "'", "\u2019"),
	} {
		if v != abs && exists(v) {
			return v
		}
	}
	return abs
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
