package approval

import (
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// maxShellDepth bounds how many `sh -c '...'` levels are looked into; a
// deeper line is never covered.
const maxShellDepth = 4

// command is one simple command a shell line runs, after the wrappers around
// it (env, timeout, xargs, ...) are looked through.
type command struct {
	args []word
	// env are the assignments in force for the command that a rule must
	// name to cover it (see env.go): harmless ones are left out.
	env []assign
	// dir is the working directory it runs in, relative to the gate's
	// directory (".") unless absolute, or dirUnknown (see workdir.go).
	dir string
	// openEnded says more arguments are appended at run time (xargs), so only
	// prefix rules can cover it.
	openEnded bool
}

// written is a file a line writes: a redirection's target or an operand
// the program writes (see operandWrites), in the directory dir.
type written struct {
	path word
	dir  string
}

// parseCommands returns every simple command line would run, including those
// in substitutions and in `sh -c` scripts. ok is false when line cannot be
// understood well enough for a rule to cover it: it does not parse, declares
// a function, evaluates code built at run time, runs a command whose name is
// not a literal, writes to a file through a redirection, sets a variable
// that changes which program runs (see dangerousVariable), or uses a shell
// option that changes how the line is read (`bash -k`, `set -k`).
func parseCommands(line string) (cmds []command, ok bool) {
	a := survey(line)
	return a.cmds, !a.refused
}

// survey analyses line as far as it can. Even when it refuses the line,
// the commands and writes it found are there for questions to name.
func survey(line string) *analyzer {
	a := &analyzer{}
	if !a.script(line, 0, ".") {
		a.refused = true
	}
	return a
}

// analyzer collects the simple commands of a script and its nested scripts.
type analyzer struct {
	cmds   []command
	writes []written
	// env are the script's own assignments that may reach the programs it
	// runs: exports, and plain assignments to names that are not
	// shellLocal. They apply to every command of the script.
	env []assign
	// dirs is where each statement and simple command runs.
	dirs map[syntax.Node]string
	// refused says some part of the script can never be covered.
	refused bool
}

// callContext is what a simple command inherits from what runs it: the
// privilege wrappers in front (sudo), assignments, working directory.
type callContext struct {
	prefix []word
	env    []assign
	dir    string
}

// script parses src, which starts in dir, and walks all of it.
func (a *analyzer) script(src string, depth int, dir string) bool {
	if depth > maxShellDepth {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return false
	}
	a.dirs = workdirs(f, dir)
	// The walk goes on past a refused part, so that every write the line
	// makes is known to the question.
	syntax.Walk(f, func(n syntax.Node) bool {
		if n != nil && !a.node(n, depth) {
			a.refused = true
		}
		return true
	})
	for i := range a.cmds {
		a.cmds[i].env = append(slices.Clip(a.cmds[i].env), a.env...)
	}
	return !a.refused
}

// dirOf returns where n runs; nodes the directory pass never reached (a
// function body) run in dirUnknown.
func (a *analyzer) dirOf(n syntax.Node) string {
	if d, ok := a.dirs[n]; ok {
		return d
	}
	return dirUnknown
}

// node checks one syntax node and records the command it runs, if any. The
// walk goes on into the node's children, so substitutions inside arguments,
// assignments and redirections are checked too.
func (a *analyzer) node(n syntax.Node, depth int) bool {
	switch n := n.(type) {
	case *syntax.FuncDecl, *syntax.TestDecl:
		return false
	case *syntax.Stmt:
		ok := true
		for _, r := range n.Redirs {
			ok = a.redirect(r, a.dirOf(n)) && ok
		}
		return ok
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			// Assignments only; each Assign is checked on its own.
			for _, as := range n.Assigns {
				if as.Name != nil {
					a.scriptAssign(as.Name.Value, assignValue(as), false)
				}
			}
			return true
		}
		args := make([]word, len(n.Args))
		for i, w := range n.Args {
			args[i] = resolve(w)
		}
		var env []assign
		for _, as := range n.Assigns {
			if as.Name != nil {
				env = addEnv(env, assign{as.Name.Value, assignValue(as)})
				if specialBuiltins()[args[0].text] {
					// In front of a special builtin the assignment
					// stays for the rest of the script (sh, bash --posix).
					a.scriptAssign(as.Name.Value, assignValue(as), false)
				}
			}
		}
		return a.simple(args, callContext{env: env, dir: a.dirOf(n)}, false, depth)
	case *syntax.Assign:
		return assignOK(n)
	case *syntax.DeclClause:
		if !declOK(n) {
			return false
		}
		for _, as := range n.Args {
			if as.Name != nil {
				a.scriptAssign(as.Name.Value, assignValue(as), n.Variant.Value == "export")
			}
		}
	case *syntax.WordIter:
		// `for NAME in ...` assigns NAME on each round.
		if dangerousVariable(n.Name.Value) {
			return false
		}
		a.scriptAssign(n.Name.Value, word{}, false)
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

// specialBuiltins are POSIX's special builtins: assignments in front of
// them last beyond the command in sh.
var specialBuiltins = sync.OnceValue(func() map[string]bool {
	return set(":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset")
})

// scriptAssign records an assignment the script makes outside a command's
// own prefix, if it may reach the programs the script runs: exported, or
// to a name that is not shellLocal (the person's shell may have exported
// it already).
func (a *analyzer) scriptAssign(name string, value word, exported bool) {
	if !exported && shellLocal(name) {
		return
	}
	a.env = addEnv(a.env, assign{name, value})
}

// addEnv returns env with as added, unless as is harmless. It never
// writes into env's array, which other commands may share.
func addEnv(env []assign, as assign) []assign {
	if harmless(as) {
		return env
	}
	return append(slices.Clip(env), as)
}

// simple records the command args runs, looking through wrappers. ctx
// holds privilege wrappers already seen (sudo), which stay part of the
// command a rule must name, the assignments in force and the directory.
func (a *analyzer) simple(args []word, ctx callContext, openEnded bool, depth int) bool {
	for len(args) > 0 {
		prog := args[0]
		if !prog.fixed() || prog.text == "" {
			return false
		}
		name, system := programName(prog.text)
		switch {
		case neverCovered()[name]:
			return false
		case !system:
			// ./env or ~/bin/sudo is a program of its own, not the wrapper.
		case noOps()[name]:
			return true
		case name == "set":
			// set only changes the shell; its options must be ones whose
			// effect on the rest of the line is understood.
			_, _, ok := shellOptions(args, false)
			return ok
		case name == "shopt" && changesOptions(args), zshOptions()[name]:
			// shopt -s sets options set cannot (lastpipe, expand_aliases)
			// and, with -o, set's own (keyword); zsh's builtins set its
			// own.
			return false
		case privileged()[name]:
			rest, ok := sudoCommand(args)
			if !ok {
				return false
			}
			ctx.prefix = append(slices.Clip(ctx.prefix), word{text: name, plain: true})
			args = rest
			continue
		case wrappers()[name] != nil:
			u, ok := wrappers()[name](args)
			if !ok {
				return false
			}
			if len(u.rest) == 0 {
				break // the wrapper alone, such as `env` printing the environment
			}
			for _, as := range u.env {
				ctx.env = addEnv(ctx.env, as)
			}
			if u.chdir != nil {
				ctx.dir = chdir(ctx.dir, *u.chdir)
			}
			args, openEnded = u.rest, openEnded || u.openEnded
			continue
		case shells()[name]:
			src, isScript, ok := shellScript(args)
			if !ok {
				return false
			}
			if isScript {
				return a.nested(src, ctx, depth)
			}
		}
		if readsCode(name, args) || variableBuiltins()[name] && !allFixed(args) {
			return false
		}
		a.setsVariables(name, args)
		full := make([]word, 0, len(ctx.prefix)+len(args))
		a.cmds = append(a.cmds, command{args: append(append(full, ctx.prefix...), args...), env: ctx.env, dir: ctx.dir, openEnded: openEnded})
		for _, p := range operandWrites(args) {
			a.writes = append(a.writes, written{p, ctx.dir})
		}
		return true
	}
	return false
}

// setsVariables records the variables builtins such as read assign, whose
// values the line does not show, and the unknown ones a sourced file may
// set.
func (a *analyzer) setsVariables(name string, args []word) {
	switch name {
	case "source", ".":
		a.env = append(a.env, assign{name: "(variables set by " + name + ")"})
	case "read", "getopts":
		for _, w := range args[1:] {
			if _, ok := assignment(word{text: w.text + "=", plain: true, literalLen: len(w.text) + 1}); ok {
				a.scriptAssign(w.text, word{}, false)
			}
		}
	case "printf":
		for i := 1; i+1 < len(args); i++ {
			if args[i].text == "-v" {
				a.scriptAssign(args[i+1].text, word{}, false)
			}
		}
	}
}

// systemDirs are where the wrappers and shells this package looks through
// are found when a command names them by path.
var systemDirs = sync.OnceValue(func() map[string]bool {
	return set("/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/opt/homebrew/bin")
})

// programName returns the base name of a command's program, and whether it
// is the system's program of that name: a bare name or one in systemDirs.
func programName(prog string) (name string, system bool) {
	name = path.Base(prog)
	return name, !strings.Contains(prog, "/") || systemDirs()[path.Dir(prog)]
}

// nested analyses the script of `sh -c script` and records its commands
// with ctx's prefix and assignments, starting in ctx's directory.
func (a *analyzer) nested(src string, ctx callContext, depth int) bool {
	var inner analyzer
	ok := inner.script(src, depth+1, ctx.dir)
	for _, c := range inner.cmds {
		args := make([]word, 0, len(ctx.prefix)+len(c.args))
		c.args = append(append(args, ctx.prefix...), c.args...)
		c.env = append(slices.Clip(ctx.env), c.env...)
		a.cmds = append(a.cmds, c)
	}
	a.writes = append(a.writes, inner.writes...)
	return ok
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
	if !interpreters()[name] && !shells()[name] {
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
	if i >= len(args) || strings.Contains(args[i].text, "=") {
		// sudo takes NAME=value words before the command as its
		// environment.
		return nil, false
	}
	return args[i:], true
}

// assignOK refuses assignments to variables that change which program runs
// or what it loads (but for harmless values, GIT_PAGER=cat), assignments whose name is computed at run time, and
// array subscripts that are not numbers.
func assignOK(a *syntax.Assign) bool {
	if a.Name == nil {
		return false // `export "$x"` or `declare -f`: decided at run time
	}
	return (!dangerousVariable(a.Name.Value) || harmless(assign{a.Name.Value, assignValue(a)})) && numericOrNil(a.Index)
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
var safeTargets = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}
})

// redirect accepts input redirections, here-documents, duplicated
// descriptors and output to /dev/null, and records the files written by
// the others: writing to a file is an edit the rule for a command does not
// grant. Bash opens a network connection for /dev/tcp/host/port and
// /dev/udp/..., in either direction, so those are refused too, as is input
// from a name the line does not show, which could be one.
func (a *analyzer) redirect(r *syntax.Redirect, dir string) bool {
	if r.Word == nil {
		return false
	}
	target := resolve(r.Word)
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.DplIn, syntax.DplOut:
		if target.plain && (target.text == "-" || isDigits(target.text)) {
			return true
		}
	}
	if mayBeSocket(target) {
		return false
	}
	if r.Op == syntax.RdrIn {
		return true
	}
	if target.plain && safeTargets()[target.text] {
		return true
	}
	if r.Op != syntax.DplIn {
		a.writes = append(a.writes, written{target, dir})
	}
	return false
}

// mayBeSocket reports whether a redirection's target is, or may expand to,
// one of bash's network names: /dev/tcp/host/port or /dev/udp/host/port.
func mayBeSocket(w word) bool {
	for _, dev := range []string{"/dev/tcp/", "/dev/udp/"} {
		if strings.HasPrefix(w.text, dev) || strings.HasPrefix(path.Clean(w.text)+"/", dev) {
			return true
		}
	}
	if w.fixed() {
		return false
	}
	// An expansion may supply the rest of the name: only a literal start
	// that is neither empty nor absolute rules that out.
	lit := w.text[:w.literalLen]
	return lit == "" || strings.HasPrefix(lit, "/")
}

// paramOK refuses parameter expansions whose value bash evaluates again:
// indirection (${!x}), prompt expansion (${x@P}), subscripts and slices
// that are not numbers, and assigning defaults to variables that are not
// the line's own (shellLocal).
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
			// ${NAME:=value} assigns NAME, which may be exported.
			if p.Param == nil || dangerousVariable(p.Param.Value) || !shellLocal(p.Param.Value) {
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
