package approval

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file tells which files a shell line names, for the callers that
// must know what a configured command (a hook, an MCP server) would run:
// core/trust fingerprints those files and the gate protects them.

// MaxNamedLine bounds the command lines FilesNamed reads; a longer one is
// reported as not understood.
const MaxNamedLine = 64 << 10

// LineFile is a file a shell line names, as FilesNamed finds it.
type LineFile struct {
	// Path is the word as the shell would see it, joined to the directory
	// its command runs in: relative to where the line starts, absolute, or
	// starting with "~/" for the person's home directory.
	Path string
	// Runs says the line runs the file: it is the program of a command and
	// named with a slash, or the script a shell or an interpreter (python,
	// node, source, ...) is given.
	Runs bool
}

// FilesNamed returns the files line names as words of the commands it runs,
// with the commands of `sh -c` scripts and substitutions, looking through
// wrappers (env, timeout, sudo, ...) and following cd: every word that is
// not an option (see LineFile). Files the line only writes (redirections,
// tee, cp's target, ...) are left out. vars are the values of variables set
// before the line runs, such as $CLAUDE_PROJECT_DIR; a word holding any
// other expansion is left out, as is a relative one in a directory the line
// does not show. ok is false when the line cannot be parsed or is longer
// than cairn reads; what was found is still returned.
func FilesNamed(line string, vars map[string]string) (files []LineFile, ok bool) {
	if len(line) > MaxNamedLine {
		return nil, false
	}
	line, ok = substitute(line, vars)
	a := survey(line)
	writes := map[string]bool{}
	for _, w := range a.writes {
		for _, p := range writtenPaths(w) {
			writes[path.Clean(p)] = true
		}
	}
	seen := map[LineFile]bool{}
	for _, c := range a.cmds {
		for _, f := range commandFiles(c) {
			// A file the line runs counts even when it writes it too
			// (`chmod +x x.sh && ./x.sh`).
			if (f.Runs || !writes[path.Clean(f.Path)]) && !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	return files, ok
}

// commandFiles returns the words of c that may name files.
func commandFiles(c command) []LineFile {
	args := c.args
	for len(args) > 1 && privileged[args[0].text] {
		args = args[1:]
	}
	var out []LineFile
	script := false // the next operand is an interpreter's script
	for i, w := range args {
		t := w.text
		if !w.fixed() && !w.home || t == "" || t == "-" || t == "--" {
			continue
		}
		runs := false
		switch {
		case i == 0:
			script = RunsScript(t)
			runs = strings.Contains(t, "/")
		case strings.HasPrefix(t, "-"):
			continue
		case script:
			runs, script = true, false
		}
		p := t
		switch {
		case w.home:
			if p != "~" && !strings.HasPrefix(p, "~/") {
				continue // ~user: another person's home
			}
			p = "~" + path.Clean("/"+strings.TrimPrefix(p, "~"))
		case path.IsAbs(p):
			p = path.Clean(p)
		case c.dir == dirUnknown:
			continue
		default:
			p = path.Join(c.dir, p)
		}
		out = append(out, LineFile{Path: p, Runs: runs})
	}
	return out
}

// substitute replaces the plain references to the variables of vars in
// line ($NAME, ${NAME}, with or without double quotes) by their values,
// quoted. ok is false when line does not parse; it is then returned as it
// was.
func substitute(line string, vars map[string]string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return line, false
	}
	if len(vars) == 0 {
		return line, true
	}
	changed := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			for i, part := range n.Parts {
				if v, ok := plainReference(part, vars); ok && !strings.Contains(v, "'") {
					n.Parts[i] = &syntax.SglQuoted{Value: v}
					changed = true
				}
			}
		case *syntax.DblQuoted:
			for i, part := range n.Parts {
				if v, ok := plainReference(part, vars); ok {
					n.Parts[i] = &syntax.Lit{Value: quoteDouble(v)}
					changed = true
				}
			}
		}
		return true
	})
	if !changed {
		return line, true
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, f); err != nil {
		return line, false
	}
	return b.String(), true
}

// plainReference returns the value of part when it is $NAME or ${NAME}
// for a NAME of vars, with no operator.
func plainReference(part syntax.WordPart, vars map[string]string) (string, bool) {
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 || p.Exp != nil || p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	v, ok := vars[p.Param.Value]
	return v, ok
}

// quoteDouble escapes s for the inside of double quotes.
func quoteDouble(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("$`\"\\", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// RunsScript reports whether program, run with arguments, runs the first
// of them that is not an option as a script: a shell or an interpreter
// (bash, node, python3, source, ...), by its base name.
func RunsScript(program string) bool {
	name, _ := programName(program)
	return interpreters[name] || shells[name]
}
