package approval

import (
	"strings"
	"sync"
)

// This file reads the options of shells and of the set and shopt builtins.
// Some change how the rest of a line is read: under -k (`bash -k -c 'git
// status GIT_DIR=x'`, `set -k`) words after a command are assignments, under
// -a every variable is exported. So a shell is looked through, and set needs
// no rule, only with options modelled here; any other makes the line ask.

// shellScript reads the options of `sh [options] -c script`. isScript is
// false for a shell running a script file; ok is false for options it does
// not model or a script that is not a literal.
func shellScript(args []word) (src string, isScript, ok bool) {
	i, c, ok := shellOptions(args, true)
	if !ok {
		return "", false, false
	}
	if !c {
		return "", false, true
	}
	if i >= len(args) || !args[i].plain {
		return "", false, false
	}
	return args[i].text, true, true
}

// zshOptions are zsh's builtins that change how it reads the rest of a
// script (setopt autocd makes a directory name a cd).
var zshOptions = sync.OnceValue(func() map[string]bool {
	return set("setopt", "unsetopt", "emulate")
})

// changesOptions reports whether a shopt command sets or unsets options
// rather than printing them.
func changesOptions(args []word) bool {
	for _, w := range args[1:] {
		if !w.plain || strings.HasPrefix(w.text, "-") && strings.ContainsAny(w.text, "su") {
			return true
		}
	}
	return false
}

// modelledLetters are the single-letter options of sh, bash, dash, zsh and
// set whose effect this package understands, all the same in every shell:
// they stop on errors (-e, -u), print (-x, -v), run nothing (-n), skip
// globbing or startup files (-f) or refuse to overwrite files (-C). Others
// change how the line is read: under -k (`bash -k -c 'git status
// GIT_DIR=x'`) words after the command are assignments, under -a every
// variable is exported, -i reads startup files. shells also take -c and -l.
const modelledLetters = "euxvnfC"

// modelledNames are the `-o name` options modelled, the same as the letters
// and pipefail.
var modelledNames = sync.OnceValue(func() map[string]bool {
	return set("errexit", "nounset", "xtrace", "verbose", "noexec", "noglob", "noclobber", "pipefail")
})

// longShellOptions are the long options of bash modelled: startup files,
// which the person's own and not the project's.
var longShellOptions = sync.OnceValue(func() map[string]bool {
	return set("--login", "--noprofile", "--norc", "--noediting")
})

// shellOptions reads the options of a shell or of set, args[0]. It returns
// the index of the first word after them (a shell's script, when c says
// -c is among them). ok is false for an option not modelled.
func shellOptions(args []word, forShell bool) (next int, c, ok bool) {
	letters := modelledLetters
	if forShell {
		letters += "cl"
	}
	i := 1
	for ; i < len(args); i++ {
		w := args[i]
		if !w.plain {
			return 0, false, false
		}
		t := w.text
		if t == "--" || t == "-" {
			i++
			break
		}
		if !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			break
		}
		if strings.HasPrefix(t, "--") {
			if !forShell || !longShellOptions()[t] {
				return 0, false, false
			}
			continue
		}
		for _, r := range t[1:] {
			switch {
			case r == 'o':
				// -o name; without a name it lists the options.
				i++
				if i < len(args) && (!args[i].plain || !modelledNames()[args[i].text]) {
					return 0, false, false
				}
			case r == 'c' && forShell && t[0] == '-':
				c = true
			case r == 'c' || !strings.ContainsRune(letters, r):
				return 0, false, false
			}
		}
	}
	return i, c, true
}
