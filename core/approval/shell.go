package approval

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxShellDepth bounds how many `sh -c '...'` levels are looked into; a
// deeper line is never covered.
const maxShellDepth = 4

// word is one shell word after quote removal.
type word struct {
	text string
	// plain says the word expands to exactly text: no parameter, command,
	// arithmetic, glob, brace or tilde expansion.
	plain bool
	// literalLen is how many bytes of text come before the first expansion.
	literalLen int
}

// fixed reports whether the word can be compared with a rule's word: it is
// plain, and does not look like an array subscript holding an expansion,
// which bash evaluates when it is used as a variable name (`printf -v
// 'a[$(cmd)]'`, `[[ -v ... ]]`, `read`).
func (w word) fixed() bool {
	return w.plain && !(strings.Contains(w.text, "[") && strings.ContainsAny(w.text, "$`"))
}

// command is one simple command a shell line runs, after the wrappers around
// it (env, timeout, xargs, ...) are looked through.
type command struct {
	args []word
	// openEnded says more arguments are appended at run time (xargs), so only
	// prefix rules can cover it.
	openEnded bool
}

// parseCommands returns every simple command line would run, including those
// in substitutions and in `sh -c` scripts. ok is false when line cannot be
// understood well enough for a rule to cover it: it does not parse, declares
// a function, evaluates code built at run time, runs a command whose name is
// not a literal, writes to a file through a redirection, or sets a variable
// that changes which program runs (see dangerousVariable).
func parseCommands(line string) (cmds []command, ok bool) {
	var a analyzer
	if !a.script(line, 0) {
		return nil, false
	}
	return a.cmds, true
}

// analyzer collects the simple commands of a script and its nested scripts.
type analyzer struct {
	cmds []command
}

// script parses src and walks all of it.
func (a *analyzer) script(src string, depth int) bool {
	if depth > maxShellDepth {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok || n == nil {
			return ok
		}
		ok = a.node(n, depth)
		return ok
	})
	return ok
}

// node checks one syntax node and records the command it runs, if any. The
// walk goes on into the node's children, so substitutions inside arguments,
// assignments and redirections are checked too.
func (a *analyzer) node(n syntax.Node, depth int) bool {
	switch n := n.(type) {
	case *syntax.FuncDecl, *syntax.TestDecl:
		return false
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			return true // assignments only; each Assign is checked on its own
		}
		args := make([]word, len(n.Args))
		for i, w := range n.Args {
			args[i] = resolve(w)
		}
		return a.simple(args, nil, false, depth)
	case *syntax.Assign:
		return assignOK(n)
	case *syntax.DeclClause:
		return declOK(n)
	case *syntax.Redirect:
		return redirectOK(n)
	case *syntax.ParamExp:
		return paramOK(n)
	case *syntax.ArithmExp:
		return numeric(n.X)
	case *syntax.ArithmCmd:
		return numeric(n.X)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			if !numeric(x) {
				return false
			}
		}
	case *syntax.CStyleLoop:
		return numericOrNil(n.Init) && numericOrNil(n.Cond) && numericOrNil(n.Post)
	case *syntax.ArrayElem:
		return numericOrNil(n.Index)
	case *syntax.TestClause:
		return testOK(n.X)
	}
	return true
}

// simple records the command args runs, looking through wrappers. prefix
// holds privilege wrappers (sudo) already seen, which stay part of the
// command a rule must name.
func (a *analyzer) simple(args []word, prefix []word, openEnded bool, depth int) bool {
	for len(args) > 0 {
		prog := args[0]
		if !prog.fixed() || prog.text == "" {
			return false
		}
		name, system := programName(prog.text)
		switch {
		case neverCovered[name]:
			return false
		case !system:
			// ./env or ~/bin/sudo is a program of its own, not the wrapper.
		case noOps[name]:
			return true
		case privileged[name]:
			rest, ok := sudoCommand(args)
			if !ok {
				return false
			}
			prefix = append(prefix[:len(prefix):len(prefix)], word{text: name, plain: true})
			args = rest
			continue
		case wrappers[name] != nil:
			rest, more, ok := wrappers[name](args)
			if !ok {
				return false
			}
			if len(rest) == 0 {
				break // the wrapper alone, such as `env` printing the environment
			}
			args, openEnded = rest, openEnded || more
			continue
		case shells[name]:
			src, isScript, ok := shellScript(args)
			if !ok {
				return false
			}
			if isScript {
				return a.nested(src, prefix, depth)
			}
		}
		if readsCode(name, args) || variableBuiltins[name] && !allFixed(args) {
			return false
		}
		full := make([]word, 0, len(prefix)+len(args))
		a.cmds = append(a.cmds, command{args: append(append(full, prefix...), args...), openEnded: openEnded})
		return true
	}
	return false
}

// systemDirs are where the wrappers and shells this package looks through
// are found when a command names them by path.
var systemDirs = set("/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/opt/homebrew/bin")

// programName returns the base name of a command's program, and whether it
// is the system's program of that name: a bare name or one in systemDirs.
func programName(prog string) (name string, system bool) {
	name = path.Base(prog)
	return name, !strings.Contains(prog, "/") || systemDirs[path.Dir(prog)]
}

// nested analyses the script of `sh -c script` and records its commands
// behind prefix.
func (a *analyzer) nested(src string, prefix []word, depth int) bool {
	var inner analyzer
	if !inner.script(src, depth+1) {
		return false
	}
	for _, c := range inner.cmds {
		args := make([]word, 0, len(prefix)+len(c.args))
		c.args = append(append(args, prefix...), c.args...)
		a.cmds = append(a.cmds, c)
	}
	return true
}

func allFixed(args []word) bool {
	for _, w := range args {
		if !w.fixed() {
			return false
		}
	}
	return true
}

// readsCode reports whether an interpreter reads its program from standard
// input (no script argument, or `-`), which no rule can vouch for: `curl x |
// python` must always ask.
func readsCode(name string, args []word) bool {
	if !interpreters[name] && !shells[name] {
		return false
	}
	for _, w := range args[1:] {
		if w.text == "-" || w.text == "-s" {
			return true
		}
		if !strings.HasPrefix(w.text, "-") {
			return false
		}
	}
	return true
}

// shellScript reads the options of `sh [options] -c script`. isScript is
// false for a shell running a script file; ok is false for options it does
// not know or a script that is not a literal.
func shellScript(args []word) (src string, isScript, ok bool) {
	c := false
	i := 1
	for ; i < len(args); i++ {
		w := args[i]
		if !w.plain {
			return "", false, false
		}
		t := w.text
		if t == "--" || t == "-" {
			break
		}
		if !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			break
		}
		switch {
		case t == "-o" || t == "+o":
			i++
		case strings.HasPrefix(t, "--"):
			if !longShellOptions[t] {
				return "", false, false
			}
		default:
			for _, r := range t[1:] {
				switch {
				case r == 'c':
					c = true
				case r == 'o':
					i++ // -eo pipefail
				case !strings.ContainsRune("aefhklmnpuvxBCEHPT", r):
					return "", false, false
				}
			}
		}
	}
	if !c {
		return "", false, true
	}
	if i >= len(args) || !args[i].plain {
		return "", false, false
	}
	return args[i].text, true, true
}

var longShellOptions = map[string]bool{
	"--login": true, "--noprofile": true, "--norc": true, "--posix": true, "--noediting": true,
}

// sudoCommand returns the command sudo runs. Options other than -n are
// refused: -u, -E and the like change who runs the command or with what
// environment, so such a line always asks.
func sudoCommand(args []word) ([]word, bool) {
	i := 1
	for ; i < len(args); i++ {
		t := args[i].text
		if !args[i].plain {
			return nil, false
		}
		if t == "--" {
			i++
			break
		}
		if !strings.HasPrefix(t, "-") {
			break
		}
		if t != "-n" && t != "--non-interactive" {
			return nil, false
		}
	}
	if i >= len(args) {
		return nil, false
	}
	return args[i:], true
}

// resolve removes quotes from w, as the shell would, and says whether the
// result is plain.
func resolve(w *syntax.Word) word {
	var b strings.Builder
	plain := true
	literalLen := -1
	expansion := func() {
		plain = false
		if literalLen < 0 {
			literalLen = b.Len()
		}
	}
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				expansion()
			}
			if !unquoteLit(&b, p.Value) {
				plain = false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				expansion()
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				expansion()
			}
			for _, inner := range p.Parts {
				if lit, ok := inner.(*syntax.Lit); ok {
					unquoteDouble(&b, lit.Value)
				} else {
					expansion()
				}
			}
		default:
			expansion()
		}
	}
	if literalLen < 0 {
		literalLen = b.Len()
	}
	return word{text: b.String(), plain: plain, literalLen: literalLen}
}

// unquoteLit writes an unquoted literal with its backslashes removed. It
// returns false if the literal holds an unescaped glob or brace expansion.
func unquoteLit(b *strings.Builder, s string) bool {
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		case c == '*' || c == '?' || c == '[':
			plain = false
		case c == '{' && strings.ContainsAny(s[i:], ",.") && strings.Contains(s[i:], "}"):
			plain = false
		}
		b.WriteByte(c)
	}
	return plain
}

// unquoteDouble writes a literal from inside double quotes, where a backslash
// only escapes $, `, ", \ and newline.
func unquoteDouble(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(c)
	}
}

// assignOK refuses assignments to variables that change which program runs
// or what it loads, assignments whose name is computed at run time, and
// array subscripts that are not numbers.
func assignOK(a *syntax.Assign) bool {
	if a.Name == nil {
		return false // `export "$x"` or `declare -f`: decided at run time
	}
	return !dangerousVariable(a.Name.Value) && numericOrNil(a.Index)
}

// declOK accepts export, local, readonly, declare and typeset without
// options: options such as -i (arithmetic) or -n (name reference) make bash
// evaluate values.
func declOK(d *syntax.DeclClause) bool {
	for _, a := range d.Args {
		if a.Naked && a.Name == nil {
			return false
		}
	}
	return true
}

// safeTargets are the files a command may redirect its output to and stay
// covered by a rule.
var safeTargets = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

// redirectOK accepts input redirections, here-documents, duplicated
// descriptors and output to /dev/null; writing to a file is an edit the
// rule for a command does not grant.
func redirectOK(r *syntax.Redirect) bool {
	if r.Word == nil {
		return false
	}
	target := resolve(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.DplIn, syntax.DplOut:
		if target.plain && (target.text == "-" || isDigits(target.text)) {
			return true
		}
	}
	return target.plain && safeTargets[target.text]
}

// paramOK refuses parameter expansions whose value bash evaluates again:
// indirection (${!x}), prompt expansion (${x@P}), subscripts and slices
// that are not numbers, and assigning defaults to dangerous variables.
func paramOK(p *syntax.ParamExp) bool {
	if p.Excl || p.NestedParam != nil {
		return false
	}
	if p.Index != nil {
		if w, ok := p.Index.(*syntax.Word); ok && (w.Lit() == "@" || w.Lit() == "*") {
			// ${a[@]} lists the array.
		} else if !numeric(p.Index) {
			return false
		}
	}
	if p.Slice != nil && (!numericOrNil(p.Slice.Offset) || !numericOrNil(p.Slice.Length)) {
		return false
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.OtherParamOps:
			if p.Exp.Word == nil {
				return false
			}
			if op := p.Exp.Word.Lit(); len(op) != 1 || !strings.Contains("QEULuaKkA", op) {
				return false
			}
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if p.Param == nil || dangerousVariable(p.Param.Value) {
				return false
			}
		}
	}
	return true
}

// numeric reports whether an arithmetic expression uses only number
// literals. Bash evaluates variables in arithmetic recursively, and a value
// such as `a[$(cmd)]` runs cmd, so any variable makes the line ask.
func numeric(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		return isNumber(x.Lit())
	case *syntax.BinaryArithm:
		return numeric(x.X) && numeric(x.Y)
	case *syntax.UnaryArithm:
		return x.Op != syntax.Inc && x.Op != syntax.Dec && numeric(x.X)
	case *syntax.ParenArithm:
		return numeric(x.X)
	}
	return false
}

func numericOrNil(x syntax.ArithmExpr) bool {
	return x == nil || numeric(x)
}

// testOK refuses the parts of [[ ]] that evaluate variables: -v and -R,
// and arithmetic comparisons of anything but number literals.
func testOK(x syntax.TestExpr) bool {
	switch x := x.(type) {
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			return false
		}
		return testOK(x.X)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			return testNumber(x.X) && testNumber(x.Y)
		}
		return testOK(x.X) && testOK(x.Y)
	case *syntax.ParenTest:
		return testOK(x.X)
	}
	return true
}

func testNumber(x syntax.TestExpr) bool {
	w, ok := x.(*syntax.Word)
	return ok && isNumber(w.Lit())
}

// isNumber reports whether s is an arithmetic number literal: decimal,
// 0x hex, 0 octal or base#digits.
func isNumber(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '#' || r == '_' || r == '@') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
