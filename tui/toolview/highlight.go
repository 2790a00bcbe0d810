package toolview

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// highlight colours lines of the file at path with the lexer its name
// selects. It returns one ANSI line per input line, or nil when there is no
// formatter or style, no lexer knows the file, or lexing fails; callers then
// draw the lines plainly. Only the lines given are lexed, so the cost
// follows what is shown, not the size of the file.
func highlight(path string, lines []string, st Styles) []string {
	if st.Formatter == nil || st.Chroma == nil || len(lines) == 0 || path == "" {
		return nil
	}
	lexer := lexerFor(filepath.Base(path))
	if lexer == nil {
		return nil
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, strings.Join(lines, "\n")+"\n")
	if err != nil {
		return nil
	}
	var b strings.Builder
	if err := st.Formatter.Format(&b, st.Chroma, it); err != nil {
		return nil
	}
	// Both terminal formatters end their colours at each line break and
	// start them again on the next line, so every line stands alone.
	out := strings.Split(b.String(), "\n")
	if len(out) < len(lines) {
		return nil
	}
	return out[:len(lines)]
}

// Highlight colours lines as the file name (or path) selects, as a read
// or a written file is coloured: one ANSI line per input line, or nil when
// nothing can colour them (the caller then draws them plainly). The lines
// are lexed together, so a token may run on from one to the next.
func Highlight(name string, lines []string, st Styles) []string {
	return highlight(name, lines, st)
}

// lexerNames remembers which lexer each file name selects: chroma finds it
// by trying every file pattern of every lexer, which takes milliseconds.
// Only the lookup is remembered, never rendered text; the table stops
// growing at maxLexerNames names.
var lexerNames = struct {
	sync.Mutex
	byName map[string]chroma.Lexer
}{byName: map[string]chroma.Lexer{}}

const maxLexerNames = 4096

// lexerFor returns the lexer for a file's base name, or nil.
func lexerFor(name string) chroma.Lexer {
	lexerNames.Lock()
	lexer, ok := lexerNames.byName[name]
	lexerNames.Unlock()
	if ok {
		return lexer
	}
	lexer = lexers.Match(name)
	lexerNames.Lock()
	if len(lexerNames.byName) < maxLexerNames {
		lexerNames.byName[name] = lexer
	}
	lexerNames.Unlock()
	return lexer
}
