// Package toolpath reads the paths tool calls name, once, for the approval
// gate and the tools alike. A path that reads one way for the gate and
// another for the tool would let a call write where nobody agreed to (a
// leading '@' only one side drops, a link in the project that points at
// ~/.bashrc or .git/hooks), so both call Resolve and act on what it returns:
// the file that will really be read or written.
package toolpath

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

// Expand reads a path as a model writes it: a leading '@' (a mention) is
// dropped, odd spaces become plain ones, and '~' means the home directory.
func Expand(p string) string {
	p = unicodeSpaces.Replace(strings.TrimPrefix(p, "@"))
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + p[1:]
		}
	}
	return p
}

// Abs is Expand made absolute against dir (the process's working
// directory when dir is "") and cleaned, without looking at the file
// system.
func Abs(p, dir string) string {
	p = Expand(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if dir == "" {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	return filepath.Join(dir, p)
}

// Resolve returns the file a call's path argument p names, relative paths
// being taken from dir: Abs, with every symbolic link in the part of the
// path that exists followed, the last component included (a dangling link
// is followed to where a write would create its target). What is resolved
// to a place inside dir is given under dir as dir is spelled, so paths in
// the project keep the name its host knows them by; anything else is the
// real path. Links that loop, or more than maxLinks of them, are left
// unresolved from there on, and the operating system will refuse them.
func Resolve(p, dir string) string { return resolveAbs(Abs(p, dir), dir) }

// resolveAbs is Resolve for a path Abs has read.
func resolveAbs(abs, dir string) string {
	real := followLinks(abs)
	if dir == "" {
		return real
	}
	cleanDir := filepath.Clean(dir)
	realDir := followLinks(cleanDir)
	if realDir != cleanDir && Within(real, realDir) {
		rel, err := filepath.Rel(realDir, real)
		if err == nil {
			return filepath.Join(cleanDir, rel)
		}
	}
	return real
}

// ResolveExisting is Resolve for a file that should exist. When it does
// not, it tries the spellings macOS uses in screenshot names (a narrow
// no-break space before AM/PM, a curly apostrophe), resolved in turn,
// before giving up.
func ResolveExisting(p, dir string) string {
	resolved := Resolve(p, dir)
	if exists(resolved) {
		return resolved
	}
	abs := Abs(p, dir)
	for _, v := range []string{
		strings.NewReplacer(" AM.", "\u202FAM.", " PM.", "\u202FPM.", " am.", "\u202Fam.", " pm.", "\u202Fpm.").Replace(abs),
		strings.ReplaceAll(abs, "'", "\u2019"),
	} {
		if v != abs && exists(v) {
			return resolveAbs(v, dir)
		}
	}
	return resolved
}

// Within reports whether p is dir or inside it. Both must be absolute and
// clean, as Resolve returns them.
func Within(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// maxLinks bounds how many links one path may pass through, as the
// kernel's own limit (40 on Linux) does.
const maxLinks = 40

// followLinks resolves the links along abs, an absolute clean path, one
// component at a time; the first component that does not exist (or cannot
// be looked at) ends the walk and the rest is taken as written.
func followLinks(abs string) string {
	vol := filepath.VolumeName(abs)
	root := vol + string(filepath.Separator)
	parts := split(abs[len(vol):])
	cur := root
	links := 0
	for i := 0; i < len(parts); i++ {
		part := parts[i]
		switch part {
		case ".":
			continue
		case "..":
			// cur holds no links, so its parent is what ".." reaches.
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		info, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...)
		}
		if info.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		links++
		if err != nil || links > maxLinks {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...)
		}
		if filepath.IsAbs(target) {
			vol = filepath.VolumeName(target)
			cur = vol + string(filepath.Separator)
			target = target[len(vol):]
		}
		// The link's own components come next, then the rest of the path.
		parts = append(split(target), parts[i+1:]...)
		i = -1
	}
	return cur
}

// split returns p's components, without empty ones.
func split(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == filepath.Separator || r == '/' })
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
