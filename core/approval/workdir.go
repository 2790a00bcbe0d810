package approval

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file follows the working directory through a command line. The
// directory decides what a command does as much as its words: `make lint`
// reads the Makefile it finds there, `git status` the repository (and its
// configuration, which can name programs git runs), `npm test` the
// package.json. So a rule holds only in the directory it was granted for,
// and every command is judged in the directory it will run in: after `cd
// x &&`, inside `(cd x; ...)`, under `env -C x`. A directory the analysis
// cannot tell (`cd "$D"`, a cd in a loop, `cd x; make` when the cd may have
// failed) is dirUnknown, where no rule holds.

// dirUnknown is a working directory the analysis cannot tell.
const dirUnknown = ""

// dirOutcome is the working directory after a statement: when it
// succeeded, and when it failed (`cd x` fails without moving).
type dirOutcome struct{ ok, failed string }

// sameDir joins two directories a statement may leave: one directory if
// both are it, else dirUnknown.
func sameDir(a, b string) string {
	if a == b {
		return a
	}
	return dirUnknown
}

// either is the directory after a statement whatever its status.
func (o dirOutcome) either() string { return sameDir(o.ok, o.failed) }

// chdir returns the directory `cd target` moves to from dir: target
// itself when absolute, else target under dir; dirUnknown when either is
// unknown.
func chdir(dir string, target word) string {
	t := target.text
	switch {
	case !target.fixed() || t == "" || t == "-" || strings.HasPrefix(t, "+"):
		return dirUnknown
	case path.IsAbs(t):
		return path.Clean(t)
	case dir == dirUnknown:
		return dirUnknown
	}
	return path.Join(dir, t)
}

// dirPass records the directory each simple command and statement of a
// script runs in. It interprets the script's control flow abstractly: a
// directory known on every path that reaches a command is kept, anything
// else is dirUnknown. Commands it never reaches (in a function body) are
// not recorded, and so run in dirUnknown.
type dirPass struct {
	at map[syntax.Node]string
}

// workdirs returns the directory each *syntax.CallExpr and *syntax.Stmt of
// f runs in, when f starts in dir.
func workdirs(f *syntax.File, dir string) map[syntax.Node]string {
	p := dirPass{at: map[syntax.Node]string{}}
	p.stmts(f.Stmts, dir)
	return p.at
}

// mark records that n runs in dir; a node reached twice in different
// directories (a loop body) runs in dirUnknown.
func (p *dirPass) mark(n syntax.Node, dir string) {
	if prev, seen := p.at[n]; seen {
		dir = sameDir(prev, dir)
	}
	p.at[n] = dir
}

func (p *dirPass) stmts(list []*syntax.Stmt, dir string) dirOutcome {
	out := dirOutcome{dir, dir}
	for i, s := range list {
		if i > 0 {
			dir = out.either()
		}
		out = p.stmt(s, dir)
	}
	return out
}

func (p *dirPass) stmt(s *syntax.Stmt, dir string) dirOutcome {
	p.mark(s, dir)
	for _, r := range s.Redirs {
		p.substitutions(r, dir)
	}
	out := p.command(s.Cmd, dir)
	switch {
	case s.Background || s.Coprocess || s.Disown:
		// A background job runs in a subshell of its own.
		return dirOutcome{dir, dir}
	case s.Negated:
		return dirOutcome{out.failed, out.ok}
	}
	return out
}

func (p *dirPass) command(c syntax.Command, dir string) dirOutcome {
	same := dirOutcome{dir, dir}
	switch c := c.(type) {
	case *syntax.CallExpr:
		p.mark(c, dir)
		p.substitutions(c, dir)
		return p.call(c, dir)
	case *syntax.Block:
		return p.stmts(c.Stmts, dir)
	case *syntax.Subshell:
		p.stmts(c.Stmts, dir)
	case *syntax.BinaryCmd:
		x := p.stmt(c.X, dir)
		switch c.Op {
		case syntax.AndStmt:
			y := p.stmt(c.Y, x.ok)
			return dirOutcome{y.ok, sameDir(x.failed, y.failed)}
		case syntax.OrStmt:
			y := p.stmt(c.Y, x.failed)
			return dirOutcome{sameDir(x.ok, y.ok), y.failed}
		}
		// Each side of a pipe runs in a subshell of its own, except the
		// last under bash's lastpipe or in zsh: a cd there may move the
		// shell.
		y := p.stmt(c.Y, dir)
		after := sameDir(dir, y.either())
		return dirOutcome{after, after}
	case *syntax.IfClause:
		return p.ifClause(c, dir)
	case *syntax.WhileClause:
		return p.loop(dir, func(entry string) string {
			cond := p.stmts(c.Cond, entry)
			body := cond.ok
			if c.Until {
				body = cond.failed
			}
			return sameDir(cond.either(), p.stmts(c.Do, body).either())
		})
	case *syntax.ForClause:
		p.substitutions(c.Loop, dir)
		return p.loop(dir, func(entry string) string { return p.stmts(c.Do, entry).either() })
	case *syntax.CaseClause:
		p.substitutions(c.Word, dir)
		// An item may fall through into the next (;&), so if any item
		// moves, every item runs in dirUnknown.
		after := dir
		for pass := 0; pass < 2; pass++ {
			for _, item := range c.Items {
				for _, w := range item.Patterns {
					p.substitutions(w, dir)
				}
				after = sameDir(after, p.stmts(item.Stmts, dir).either())
			}
			if after == dir {
				break
			}
			dir = dirUnknown
		}
		return dirOutcome{after, after}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return p.stmt(c.Stmt, dir)
		}
	case *syntax.CoprocClause:
		p.stmt(c.Stmt, dir)
	case *syntax.DeclClause, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		p.substitutions(c, dir)
	}
	return same
}

// loop runs body (which returns the directory after one round, given the
// one before) until the directory at the start of a round settles: known
// only when no round moves.
func (p *dirPass) loop(dir string, body func(entry string) string) dirOutcome {
	entry := dir
	for range 3 {
		next := sameDir(entry, body(entry))
		if next == entry {
			break
		}
		entry = next
	}
	return dirOutcome{entry, entry}
}

func (p *dirPass) ifClause(c *syntax.IfClause, dir string) dirOutcome {
	cond := p.stmts(c.Cond, dir)
	if len(c.Cond) == 0 {
		// A plain else.
		return p.stmts(c.Then, dir)
	}
	then := p.stmts(c.Then, cond.ok)
	other := dirOutcome{cond.failed, cond.failed}
	if c.Else != nil {
		other = p.ifClause(c.Else, cond.failed)
	}
	return dirOutcome{sameDir(then.ok, other.ok), sameDir(then.failed, other.failed)}
}

// substitutions follows the command and process substitutions inside n,
// which run in subshells started from dir.
func (p *dirPass) substitutions(n syntax.Node, dir string) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(x syntax.Node) bool {
		switch x := x.(type) {
		case *syntax.CmdSubst:
			p.stmts(x.Stmts, dir)
			return false
		case *syntax.ProcSubst:
			p.stmts(x.Stmts, dir)
			return false
		}
		return true
	})
}

// call returns where a simple command leaves the shell: cd, pushd (and
// zsh's chdir) move it when they succeed, popd to a directory the line may not show.
func (p *dirPass) call(c *syntax.CallExpr, dir string) dirOutcome {
	args := make([]word, len(c.Args))
	for i, w := range c.Args {
		args[i] = resolve(w)
	}
	for len(args) > 1 && args[0].fixed() && args[0].text == "command" {
		args = args[1:]
		for len(args) > 1 && args[0].text == "-p" {
			args = args[1:]
		}
	}
	if len(args) == 0 || !args[0].fixed() {
		return dirOutcome{dir, dir}
	}
	switch args[0].text {
	case "cd", "pushd", "chdir":
		rest := args[1:]
		for len(rest) > 0 && rest[0].fixed() && (rest[0].text == "-L" || rest[0].text == "-P") {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0].fixed() && rest[0].text == "--" {
			rest = rest[1:]
		}
		if len(rest) == 0 || strings.HasPrefix(rest[0].text, "-") && rest[0].text != "-" {
			// $HOME, or an option not modelled here.
			return dirOutcome{dirUnknown, dir}
		}
		return dirOutcome{chdir(dir, rest[0]), dir}
	case "popd":
		return dirOutcome{dirUnknown, dir}
	case "source", ".":
		// The file may change directory, and cairn does not read it.
		return dirOutcome{dirUnknown, dirUnknown}
	}
	return dirOutcome{dir, dir}
}
