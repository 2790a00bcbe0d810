package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core/regfile"
)

// lineMatcher finds lines matching a pattern in a file's bytes. A pattern
// without special characters, matched with case, is a plain substring
// search. Anything else is a regular expression in multi-line mode, so '^'
// and '$' match at line boundaries; when every match must contain some
// literal text, lines without it are skipped before the expression runs.
type lineMatcher struct {
	literal  []byte // the whole pattern, for a plain substring search
	re       *regexp.Regexp
	required []byte // text every match contains, when the expression has some
	fold     bool   // required is lower-case ASCII, to be found in any case
}

func newLineMatcher(pattern string, ignoreCase, literal bool) (*lineMatcher, error) {
	if !ignoreCase && (literal || regexp.QuoteMeta(pattern) == pattern) && !strings.Contains(pattern, "\n") {
		return &lineMatcher{literal: []byte(pattern)}, nil
	}
	expr := pattern
	if literal {
		expr = regexp.QuoteMeta(pattern)
	}
	flags := "(?m)"
	if ignoreCase {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + expr)
	if err != nil {
		return nil, fmt.Errorf("Invalid regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	m := &lineMatcher{re: re}
	if tree, err := syntax.Parse(flags+expr, syntax.Perl); err == nil {
		tree = tree.Simplify()
		if lit := requiredLiteral(tree, false); lit != "" {
			m.required = []byte(lit)
		} else if lit := strings.ToLower(requiredLiteral(tree, true)); lit != "" && isASCII(lit) {
			m.required, m.fold = []byte(lit), true
		}
	}
	return m, nil
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// requiredLiteral returns the longest piece of literal text that every
// match of re contains, or "". Unless fold is set, only text matched with
// case counts; with fold, text matched in any case counts too.
func requiredLiteral(re *syntax.Regexp, fold bool) string {
	isLiteral := func(re *syntax.Regexp) bool {
		return re.Op == syntax.OpLiteral && (fold || re.Flags&syntax.FoldCase == 0)
	}
	switch re.Op {
	case syntax.OpLiteral:
		if !isLiteral(re) {
			return ""
		}
		return string(re.Rune)
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0], fold)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0], fold)
		}
	case syntax.OpConcat:
		best, run := "", ""
		for _, sub := range re.Sub {
			if isLiteral(sub) {
				run += string(sub.Rune)
			} else {
				run = ""
				if lit := requiredLiteral(sub, fold); len(lit) > len(best) {
					best = lit
				}
			}
			if len(run) > len(best) {
				best = run
			}
		}
		return best
	}
	return ""
}

// nextLine returns the bounds of the next line at or after pos that
// matches, or -1.
func (m *lineMatcher) nextLine(data []byte, pos int) (int, int) {
	for pos < len(data) {
		var at int
		switch {
		case m.re == nil:
			at = bytes.Index(data[pos:], m.literal)
		case m.fold:
			at = indexFold(data[pos:], m.required)
		case m.required != nil:
			at = bytes.Index(data[pos:], m.required)
		default:
			loc := m.re.FindIndex(data[pos:])
			at = -1
			if loc != nil {
				at = loc[0]
			}
		}
		if at < 0 {
			return -1, -1
		}
		at += pos
		ls := bytes.LastIndexByte(data[:at], '\n') + 1
		le := len(data)
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			le = at + i
		}
		// A literal hit is a match; otherwise the line on its own must
		// match (a candidate found by its required text may not, and a
		// match in the whole buffer may run past the line's end).
		if m.re == nil || m.re.Match(data[ls:le]) {
			return ls, le
		}
		pos = le + 1
	}
	return -1, -1
}

// indexFold returns the index of the first occurrence of lit, lower-case
// ASCII, in s in any case, or -1.
func indexFold(s, lit []byte) int {
	lower := lit[0]
	upper := lower
	if 'a' <= lower && lower <= 'z' {
		upper -= 'a' - 'A'
	}
	// Next known positions of each case of the first byte, -2 when unknown.
	nextLower, nextUpper := -2, -2
	for i := 0; i+len(lit) <= len(s); {
		if nextLower != -1 && nextLower < i {
			if nextLower = bytes.IndexByte(s[i:], lower); nextLower >= 0 {
				nextLower += i
			}
		}
		if upper == lower {
			nextUpper = nextLower
		} else if nextUpper != -1 && nextUpper < i {
			if nextUpper = bytes.IndexByte(s[i:], upper); nextUpper >= 0 {
				nextUpper += i
			}
		}
		j := nextLower
		if j < 0 || (nextUpper >= 0 && nextUpper < j) {
			j = nextUpper
		}
		if j < 0 || j+len(lit) > len(s) {
			return -1
		}
		if bytes.EqualFold(s[j:j+len(lit)], lit) {
			return j
		}
		i = j + 1
	}
	return -1
}

// grepSearch is one search over a list of files, run in parallel and
// reported in the order of the list, stopping once the limit is reached.
type grepSearch struct {
	matcher *lineMatcher
	limit   int
	context int
	files   []walkEntry
}

// grepFound is what a search found: the output lines, how many matching
// lines they show, and whether any line was shortened.
type grepFound struct {
	lines          []string
	matches        int
	linesTruncated bool
}

// fileMatches is what one file contributed.
type fileMatches struct {
	blocks    [][]string // one block of output lines per matching line
	truncated []bool     // whether a block has a shortened line
}

// run searches the files, returning ctx.Err() if ctx ends first.
func (s *grepSearch) run(ctx context.Context) (grepFound, error) {
	n := len(s.files)
	results := make([]fileMatches, n)
	ready := make([]atomic.Bool, n)
	progress := make(chan struct{}, 1)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			var buf []byte
			for !stop.Load() && ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				results[i], buf = s.searchFile(s.files[i], buf)
				ready[i].Store(true)
				select {
				case progress <- struct{}{}:
				default:
				}
			}
		})
	}
	defer wg.Wait()
	defer stop.Store(true)

	var found grepFound
	for i := 0; i < n && found.matches < s.limit; i++ {
		for !ready[i].Load() {
			select {
			case <-progress:
			case <-ctx.Done():
				return grepFound{}, ctx.Err()
			}
		}
		r := results[i]
		for j, block := range r.blocks {
			if found.matches == s.limit {
				break
			}
			found.lines = append(found.lines, block...)
			found.linesTruncated = found.linesTruncated || r.truncated[j]
			found.matches++
		}
	}
	return found, ctx.Err()
}

// grepMaxFileSize is the largest file grep reads; a search of a tree should
// not load a multi-gigabyte log into memory.
const grepMaxFileSize = 256 << 20

// searchFile finds the matching lines of one file, at most the limit,
// reusing buf to read it. Binary files (holding a NUL byte), files larger
// than grepMaxFileSize and unreadable ones have none.
func (s *grepSearch) searchFile(f walkEntry, buf []byte) (fileMatches, []byte) {
	data, err := readInto(buf, f.abs)
	if err != nil {
		return fileMatches{}, data
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fileMatches{}, data
	}
	var r fileMatches
	var starts []int // line starts, computed when context lines are wanted
	lineNo, counted := 1, 0
	for pos := 0; pos < len(data) && len(r.blocks) < s.limit; {
		ls, le := s.matcher.nextLine(data, pos)
		if ls < 0 {
			break
		}
		pos = le + 1
		lineNo += bytes.Count(data[counted:ls], []byte{'\n'})
		counted = ls
		if s.context == 0 {
			text, cut := displayLine(data[ls:le])
			r.blocks = append(r.blocks, []string{f.rel + ":" + strconv.Itoa(lineNo) + ": " + text})
			r.truncated = append(r.truncated, cut)
			continue
		}
		if starts == nil {
			starts = lineStarts(data)
		}
		block, cut := s.contextBlock(f.rel, data, starts, lineNo)
		r.blocks = append(r.blocks, block)
		r.truncated = append(r.truncated, cut)
	}
	return r, data
}

// contextBlock formats the matching line lineNo with the lines around it:
// "path:N: text" for the match, "path-N- text" for its neighbours.
func (s *grepSearch) contextBlock(rel string, data []byte, starts []int, lineNo int) ([]string, bool) {
	first, last := max(1, lineNo-s.context), min(len(starts), lineNo+s.context)
	block := make([]string, 0, last-first+1)
	anyCut := false
	for n := first; n <= last; n++ {
		end := len(data)
		if n < len(starts) {
			end = starts[n] - 1
		} else if end > starts[n-1] && data[end-1] == '\n' {
			end--
		}
		text, cut := displayLine(data[starts[n-1]:end])
		anyCut = anyCut || cut
		sep := "-"
		if n == lineNo {
			sep = ":"
		}
		block = append(block, rel+sep+strconv.Itoa(n)+sep+" "+text)
	}
	return block, anyCut
}

// lineStarts returns the offset of every line of data; a final newline does
// not start another line.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// displayLine prepares a line for output: carriage returns dropped,
// invalid UTF-8 replaced, and shortened to GrepMaxLineLength characters.
func displayLine(b []byte) (string, bool) {
	if bytes.IndexByte(b, '\r') >= 0 {
		b = bytes.ReplaceAll(b, []byte{'\r'}, nil)
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return truncateLine(s, GrepMaxLineLength)
}

var errFileTooLarge = errors.New("file too large to search")

// readInto reads the whole file at path into buf's storage, growing it as
// needed, and returns the filled slice. Only a regular file is read (see
// regfile): an entry the walk saw as a file may have become a named pipe,
// and a path searched by itself may be one.
func readInto(buf []byte, path string) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil {
		if info.Size() > grepMaxFileSize {
			return buf[:0], errFileTooLarge
		}
		if int(info.Size())+1 > cap(buf) {
			buf = make([]byte, 0, int(info.Size())+512)
		}
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
