package bashmode

import (
	"path"
	"strings"
)

// fullScreen are programs that take over the terminal: editors, pagers,
// monitors, remote shells and multiplexers, and terminal UIs.
var fullScreen = setOf(
	"vi", "vim", "nvim", "view", "vimdiff", "nano", "pico", "emacs", "micro", "hx", "helix", "kak", "joe", "mcedit",
	"less", "more", "most", "man", "info",
	"top", "htop", "btop", "atop", "iotop", "nvtop", "glances", "watch", "nmon",
	"ssh", "mosh", "telnet", "tmux", "screen", "su",
	"fzf", "lazygit", "lazydocker", "tig", "ranger", "nnn", "vifm", "mc", "k9s", "ncdu",
)

// bareInteractive are shells and REPLs: interactive when run without
// arguments.
var bareInteractive = setOf(
	"bash", "sh", "zsh", "fish", "dash", "ksh",
	"python", "python3", "ipython", "node", "irb", "ghci", "lua", "R",
	"psql", "mysql", "sqlite3", "redis-cli",
)

// wrappers run the command that follows them.
var wrappers = setOf("sudo", "doas", "env", "exec", "nohup", "time", "nice")

// rootShellOptions make sudo start a shell when no command follows.
var rootShellOptions = setOf("-i", "-s", "--login", "--shell")

// wrapperArgs are options of the wrappers that take a separate argument.
var wrapperArgs = setOf("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-n", "-S")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Interactive reports whether command looks like a full-screen program
// that should get the real terminal rather than run in the transcript. It
// looks at the first word of each command in a list or pipeline, past
// variable assignments and wrappers (sudo, env, exec, nohup, time, nice):
//   - editors, pagers, monitors, ssh, mosh, tmux, screen, su and terminal
//     UIs (fzf, lazygit, tig, ...) always;
//   - sudo -i and sudo -s with no command;
//   - shells and REPLs (bash, python, node, psql, ...) without arguments;
//   - git commands that open an editor: commit without -m, -F, -C or
//     --no-edit; rebase -i; add, checkout, reset, restore and stash with
//     -p or -i.
//
// Pagers started by other programs are not a concern: Start sets PAGER
// and GIT_PAGER to cat.
func Interactive(command string) bool {
	for _, words := range splitCommands(command) {
		if interactiveWords(words) {
			return true
		}
	}
	return false
}

func interactiveWords(words []string) bool {
	rootShell := false
	i := 0
	for i < len(words) {
		w := words[i]
		switch {
		case isAssignment(w):
			i++
		case wrappers[path.Base(w)]:
			i++
			for i < len(words) && strings.HasPrefix(words[i], "-") {
				rootShell = rootShell || rootShellOptions[words[i]]
				if wrapperArgs[words[i]] {
					i++
				}
				i++
			}
		default:
			name := path.Base(w)
			args := words[i+1:]
			switch {
			case fullScreen[name]:
				return true
			case bareInteractive[name]:
				return len(args) == 0
			case name == "git":
				return gitInteractive(args)
			}
			return false
		}
	}
	return rootShell
}

// isAssignment reports whether w is NAME=value.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, c := range w[:eq] {
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// gitInteractive reports whether a git command opens an editor or asks
// questions hunk by hunk.
func gitInteractive(args []string) bool {
	// Global options before the subcommand; -C and -c take an argument.
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "-C" || args[0] == "-c" {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return false
	}
	sub, opts := args[0], args[1:]
	switch sub {
	case "commit":
		return !hasOption(opts, "mFC", "--message", "--file", "--reuse-message", "--no-edit", "--fixup")
	case "rebase":
		return hasOption(opts, "i", "--interactive")
	case "add":
		return hasOption(opts, "pie", "--patch", "--interactive", "--edit")
	case "checkout", "reset", "restore", "stash":
		return hasOption(opts, "p", "--patch")
	}
	return false
}

// hasOption reports whether opts has one of the short options (letters,
// possibly bundled as in -am) or long options (alone or as --opt=value),
// before a `--`.
func hasOption(opts []string, short string, long ...string) bool {
	for _, o := range opts {
		switch {
		case o == "--":
			return false
		case strings.HasPrefix(o, "--"):
			name, _, _ := strings.Cut(o, "=")
			for _, l := range long {
				if name == l {
					return true
				}
			}
		case strings.HasPrefix(o, "-") && len(o) > 1:
			// In a bundle, a letter that takes a value ends the bundle
			// (-mfix); looking at every letter is close enough here.
			if strings.ContainsAny(o[1:], short) {
				return true
			}
		}
	}
	return false
}

// splitCommands splits a command line into the words of its simple
// commands, cutting at ;, &, |, newlines and parentheses outside quotes.
// Quotes are removed; expansions are left as written.
func splitCommands(s string) [][]string {
	var cmds [][]string
	var words []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCommand := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
			words = nil
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			word.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				end = len(s) - i - 1
			}
			word.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == ' ' || c == '\t':
			endWord()
		case strings.IndexByte(";&|\n()", c) >= 0:
			endCommand()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endCommand()
	return cmds
}
