package approval

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// This file holds what the package knows about the operands of particular
// programs: which programs only read theirs, and for which tools an
// operand can run code or write a file a prefix rule never vouched for.

// operandsRead are the programs whose operands are only read, as input
// files, patterns or text, so a rule naming the program alone takes any
// (see operandChecks for the exceptions, such as uniq's output file).
// Every other program without subcommands gets exact rules.
var operandsRead = plus(allOptionsSafe(), "sort", "uniq", "tree", "du", "df", "date", "rg", "file", "printf")

// operandChecks check the operands a prefix rule lets a command add, by
// the program or subcommand they are for. A check returns false when an
// operand does more than the rule's program is known to do with it.
var operandChecks = sync.OnceValue(func() map[string]func([]word) bool {
	return map[string]func([]word) bool{
		// `git push origin +main` forces and `git push origin :main` deletes.
		"git push": func(ops []word) bool {
			return !anyOperand(ops, func(t string) bool { return strings.HasPrefix(t, "+") || strings.HasPrefix(t, ":") })
		},
		// uniq's second operand is the file it writes.
		"uniq": func(ops []word) bool { return len(ops) <= 1 },
		// date sets the clock from an operand that is not a +FORMAT.
		"date": func(ops []word) bool {
			return !anyOperand(ops, func(t string) bool { return !strings.HasPrefix(t, "+") })
		},
		"go test": goPackages,
	}
})

func init() {
	// Installing a package by name from a registry is what a rule such as
	// `npm install` grants; a path, tarball, git URL or alias installs code
	// from somewhere else (and runs its install scripts).
	for _, k := range []string{"npm install", "npm i", "npm add", "npm update", "pnpm add", "pnpm install", "pnpm i", "pnpm update",
		"yarn add", "yarn install", "bun add", "bun install", "bun i"} {
		operandChecks()[k] = names(npmName)
	}
	for _, k := range []string{"pip install", "pip3 install", "uv pip install", "uv add", "poetry add", "pdm add", "gem install"} {
		operandChecks()[k] = names(pythonName)
	}
	for _, k := range []string{"apt-get install", "apt install", "dnf install", "yum install", "apk add", "brew install", "snap install"} {
		operandChecks()[k] = names(distroName)
	}
}

// anyOperand reports whether some operand's text satisfies f; an operand
// the line does not show counts as satisfying it.
func anyOperand(ops []word, f func(string) bool) bool {
	for _, w := range ops {
		if !w.fixed() || f(w.text) {
			return true
		}
	}
	return false
}

// Package name patterns, compiled on first use (not at start: every
// start of cairn would pay for them).
var (
	npmName    = lazyRegexp(`^(@[a-z0-9~][a-z0-9._~-]*/)?[a-z0-9~][a-z0-9._~-]*(@[A-Za-z0-9._^~<>=*|-]+)?$`)
	pythonName = lazyRegexp(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?(\[[A-Za-z0-9._,-]+\])?((==|>=|<=|~=|!=|>|<)[A-Za-z0-9.*+!-]+)?$`)
	distroName = lazyRegexp(`^[A-Za-z0-9][A-Za-z0-9+._@-]*(=[A-Za-z0-9.+:~_-]+)?$`)
	// archives are the suffixes that make a package manager take a name
	// for a file.
	archives = []string{".tgz", ".tar", ".gz", ".bz2", ".xz", ".zip", ".whl", ".egg", ".deb", ".rpm", ".apk", ".rb", ".gem", ".snap", ".pkg"}
)

// lazyRegexp compiles pattern when first asked for.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// names returns a check that every operand is a package name matching re
// and not an archive's file name.
func names(re func() *regexp.Regexp) func([]word) bool {
	return func(ops []word) bool {
		return !anyOperand(ops, func(t string) bool {
			if !re().MatchString(t) {
				return true
			}
			for _, a := range archives {
				if strings.HasSuffix(strings.ToLower(t), a) {
					return true
				}
			}
			return false
		})
	}
}

// goPackages accepts package patterns inside the module: ".", "./x",
// "./x/...". Test files named as operands, import paths (a dependency's
// tests), and directories the go tool leaves out of ./... (testdata,
// vendor, names starting with . or _) run code the rule `go test` never
// ran.
func goPackages(ops []word) bool {
	return !anyOperand(ops, func(t string) bool {
		if t != "." && !strings.HasPrefix(t, "./") || strings.HasSuffix(t, ".go") {
			return true
		}
		parts := strings.Split(path.Clean(t), "/")
		for i, p := range parts {
			switch {
			case p == "." && len(parts) == 1, p == "..." && i == len(parts)-1:
			case p == "testdata", p == "vendor", strings.HasPrefix(p, "."), strings.HasPrefix(p, "_"):
				return true
			}
		}
		return false
	})
}
