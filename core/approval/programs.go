package approval

import (
	"path"
	"strings"
	"sync"
)

// This file holds what the package knows about particular programs: which
// ones wrap another command, which ones are never covered, and how long a
// rule for each one is (see commandPattern).

// neverCovered are builtins that run code built at run time or change what
// a later command name means. A line using one always asks.
var neverCovered = sync.OnceValue(func() map[string]bool {
	return set("eval", "trap", "alias", "enable", "bind", "fc", "complete", "compgen", "builtin", "hash", "coproc")
})

// noOps run nothing and need no rule; their arguments are still checked
// for substitutions.
var noOps = sync.OnceValue(func() map[string]bool {
	return set("true", "false", ":")
})

// privileged wrappers run their command as another user. They stay part of
// the command a rule must name: a rule for `apt-get install` does not cover
// `sudo apt-get install`, a rule for `sudo apt-get install` does.
var privileged = sync.OnceValue(func() map[string]bool {
	return set("sudo", "doas")
})

// shells run `-c script`, which is parsed and checked like the outer line.
var shells = sync.OnceValue(func() map[string]bool {
	return set("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash")
})

// interpreters run code from their arguments; rules for them are exact, and
// reading code from standard input is never covered.
var interpreters = sync.OnceValue(func() map[string]bool {
	return set("python", "python2", "python3", "node", "nodejs", "ruby", "perl", "php", "lua",
		"luajit", "Rscript", "julia", "tclsh", "pwsh", "osascript", "tsx", "ts-node", "source", ".")
})

// exactPrograms are programs whose arguments decide what they do to the
// machine: deleting, moving, overwriting, changing permissions, talking to
// the network, running commands they are given. A rule for one of them is
// the whole command, never a prefix: allowing `rm -rf build` does not allow
// `rm -rf ~`.
var exactPrograms = sync.OnceValue(func() map[string]bool {
	return set(
		"rm", "rmdir", "unlink", "mv", "cp", "ln", "install", "dd", "shred", "truncate", "mkfs",
		"chmod", "chown", "chgrp", "chattr", "setfacl", "tee", "patch",
		"tar", "zip", "unzip", "gzip", "gunzip", "bzip2", "xz", "7z",
		"find", "sed", "awk", "gawk", "mawk", "nawk",
		"kill", "pkill", "killall", "mount", "umount", "fdisk", "parted", "mkswap", "swapon", "swapoff",
		"reboot", "shutdown", "halt", "poweroff", "crontab", "at", "batch", "systemd-run", "launchctl",
		"curl", "wget", "ssh", "scp", "sftp", "rsync", "ftp", "telnet", "nc", "ncat", "netcat", "socat",
		"watch", "parallel", "su", "runuser", "pkexec", "chroot", "nsenter", "unshare", "flock", "script",
		"xdg-open", "open", "iptables", "nft", "ufw", "useradd", "userdel", "usermod", "passwd", "visudo",
	)
})

// variableBuiltins take variable names, and bash evaluates a subscript in a
// name (`printf -v 'a[$(cmd)]' x` runs cmd). They are covered only when
// every argument is a literal, and their rules are exact.
var variableBuiltins = sync.OnceValue(func() map[string]bool {
	return set("read", "printf", "unset", "getopts", "mapfile", "readarray", "wait", "test", "[")
})

// subcommandPrograms are tools whose first argument names what they do (`git
// status`, `go test`, `make lint`): a rule for them is the program and its
// subcommand. The listed subcommands take one more word (`npm run build`,
// `docker compose up`, `go mod tidy`); "*" means every subcommand does.
var subcommandPrograms = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"git":    {"stash", "remote", "submodule", "worktree", "lfs", "notes", "bisect", "sparse-checkout"},
		"go":     {"mod", "work", "tool"},
		"npm":    {"run", "run-script", "exec", "x"},
		"pnpm":   {"run", "exec", "dlx"},
		"yarn":   {"run", "exec", "dlx"},
		"bun":    {"run", "x"},
		"uv":     {"run", "tool", "pip"},
		"poetry": {"run"}, "pdm": {"run"}, "hatch": {"run"}, "pipenv": {"run"}, "bundle": {"exec"},
		"turbo": {"run"}, "nx": {"run"}, "lerna": {"run"},
		"rustup":  {"toolchain", "target", "component"},
		"docker":  {"compose", "container", "image", "network", "volume", "system", "buildx", "builder", "context", "plugin"},
		"podman":  {"compose", "container", "image", "network", "volume", "system", "pod", "machine"},
		"kubectl": {"config", "rollout", "auth"},
		"helm":    {"repo", "plugin"},
		"jj":      {"git"},
		"gh":      {"*"}, "aws": {"*"}, "gcloud": {"*"}, "az": {"*"},
		"npx": nil, "bunx": nil, "pnpx": nil, "cargo": nil, "make": nil, "just": nil, "task": nil,
		"ninja": nil, "bazel": nil, "cmake": nil, "mvn": nil, "mvnw": nil, "gradle": nil, "gradlew": nil,
		"terraform": nil, "tofu": nil, "pulumi": nil, "dotnet": nil, "swift": nil, "zig": nil,
		"deno": nil, "flutter": nil, "dart": nil, "nix": nil, "mix": nil, "rake": nil, "rails": nil,
		"composer": nil, "gem": nil, "pip": nil, "pip3": nil, "conda": nil, "brew": nil, "apt": nil,
		"apt-get": nil, "dnf": nil, "yum": nil, "apk": nil, "snap": nil, "systemctl": nil, "hg": nil,
		"svn": nil, "wrangler": nil, "vercel": nil, "fly": nil, "flyctl": nil, "heroku": nil,
	}
})

// exactSubcommands change configuration that later commands obey (a pager,
// an alias, build flags), so rules for them are exact too.
// Subcommands that run a command or program they are given (`go run x.go`,
// `docker run img sh`, `git bisect run make`) are exact for the same reason
// as exactPrograms.
var exactSubcommands = sync.OnceValue(func() map[string]bool {
	return set("git config", "npm config", "pnpm config", "yarn config", "go env", "gh api", "gh alias",
		"go run", "go generate", "go tool", "git filter-branch", "git bisect run", "git submodule foreach", "git archive",
		"docker run", "docker exec", "podman run", "podman exec", "kubectl exec", "kubectl run", "kubectl debug",
		"docker compose run", "docker compose exec", "docker container run", "docker container exec",
		"podman compose run", "podman compose exec", "cargo run", "dotnet run", "deno run", "npm exec", "npm x",
		"pnpm exec", "pnpm dlx", "yarn exec", "yarn dlx", "bun x", "gh extension",
		"deno eval", "swift run", "zig run", "dart run", "mix run", "rails runner", "composer run-script", "composer exec",
		"conda run", "nix run", "nix shell", "nix develop")
})

// commandPattern returns the words of the rule that "Allow for this session"
// creates for c, and whether the rule must match the whole command (exact)
// or is a prefix. ok is false when no rule can be made: a word the rule
// needs is not a literal, or an exact rule would meet arguments appended by
// xargs.
func commandPattern(c command) (words []string, exact, ok bool) {
	args := c.args
	var lead []string
	for len(args) > 1 && privileged()[args[0].text] {
		lead = append(lead, args[0].text)
		args = args[1:]
	}
	n, exact := patternLength(args)
	if exact && c.openEnded {
		return nil, false, false
	}
	words = lead
	for _, w := range args[:n] {
		if !w.fixed() {
			return nil, false, false
		}
		words = append(words, w.text)
	}
	return words, exact, true
}

// patternLength says how many leading words of args a rule keeps, and
// whether it is exact (then n is len(args)).
func patternLength(args []word) (n int, exact bool) {
	name := path.Base(args[0].text)
	if strings.HasPrefix(name, "python") && len(args) >= 3 && args[1].text == "-m" && option(args[2]) == "" {
		return 3, false // python -m pytest
	}
	if exactPrograms()[name] || runners()[name] || variableBuiltins()[name] || interpreters()[name] || shells()[name] || strings.HasPrefix(name, "python") || strings.HasPrefix(name, "mkfs.") {
		return len(args), true
	}
	subs, isTool := subcommandPrograms()[name]
	if !isTool {
		if operandsRead[name] {
			return 1, false
		}
		// Nothing says what its operands do: remember it exactly.
		return len(args), true
	}
	if len(args) < 2 || option(args[1]) != "" || exactSubcommands()[name+" "+args[1].text] ||
		len(args) > 2 && exactSubcommands()[name+" "+args[1].text+" "+args[2].text] {
		return len(args), true
	}
	for _, s := range subs {
		if s == "*" || s == args[1].text {
			if len(args) < 3 || option(args[2]) != "" {
				return len(args), true
			}
			return 3, false
		}
	}
	return 2, false
}

// option returns w's text if w may be an option (starts with - or is not a
// literal), else "".
func option(w word) string {
	if !w.fixed() {
		return "?"
	}
	if strings.HasPrefix(w.text, "-") {
		return w.text
	}
	return ""
}

// wrapper looks through a command that runs another one (`timeout 5 make`).
// ok is false for options it does not know.
type wrapper func(args []word) (u unwrapped, ok bool)

// unwrapped is what a wrapper runs and how.
type unwrapped struct {
	// rest is the wrapped command, empty when the wrapper runs alone.
	rest []word
	// openEnded says the wrapper appends arguments to it (xargs).
	openEnded bool
	// env are the NAME=value words it sets (env).
	env []assign
	// chdir is the directory it runs the command in (env -C), if any.
	chdir *word
}

// wrappers are the programs looked through, by name.
var wrappers = sync.OnceValue(func() map[string]wrapper {
	return map[string]wrapper{
		"env": wrapperSpec{flags: set("-i", "--ignore-environment", "-0", "--null", "-"),
			valued: set("-u", "--unset"), chdir: set("-C", "--chdir"), assigns: true}.strip,
		"nice":    wrapperSpec{valued: set("-n", "--adjustment"), numeric: true}.strip,
		"nohup":   wrapperSpec{}.strip,
		"time":    wrapperSpec{flags: set("-p", "--portability", "-v", "--verbose"), valued: set("-f", "--format")}.strip,
		"timeout": wrapperSpec{flags: set("--preserve-status", "--foreground", "-v", "--verbose"), valued: set("-s", "--signal", "-k", "--kill-after"), operands: 1}.strip,
		"command": wrapperSpec{flags: set("-p"), queries: set("-v", "-V")}.strip,
		"exec":    wrapperSpec{flags: set("-c", "-l"), valued: set("-a")}.strip,
		"stdbuf":  wrapperSpec{valued: set("-i", "-o", "-e", "--input", "--output", "--error")}.strip,
		"ionice":  wrapperSpec{flags: set("-t", "--ignore"), valued: set("-c", "--class", "-n", "--classdata")}.strip,
		"setsid":  wrapperSpec{flags: set("-f", "--fork", "-w", "--wait", "-c", "--ctty")}.strip,
		"xargs": wrapperSpec{
			flags: set("-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit", "-p", "--interactive", "-o", "--open-tty"),
			// -I and -i are missing on purpose: they substitute input into the
			// command, program name included.
			valued:    set("-a", "--arg-file", "-d", "--delimiter", "-E", "-L", "--max-lines", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars"),
			openEnded: true,
		}.strip,
	}
})

// wrapperSpec describes a wrapper's command line: options, then operands,
// then (for env) NAME=value words, then the command.
type wrapperSpec struct {
	flags     map[string]bool // options without a value
	valued    map[string]bool // options that take a value: -n 5, -n5, --max-args=5
	chdir     map[string]bool // options whose value is the directory to run in (env -C)
	queries   map[string]bool // options that make it run nothing (command -v)
	numeric   bool            // -N is an option (nice -10)
	operands  int             // words before the command (timeout's duration)
	assigns   bool            // NAME=value words before the command (env)
	openEnded bool            // arguments are appended to the command (xargs)
}

func (s wrapperSpec) strip(args []word) (unwrapped, bool) {
	var u unwrapped
	i := 1
	for ; i < len(args); i++ {
		w := args[i]
		t := w.text
		if !w.plain {
			return u, false
		}
		if t == "--" {
			i++
			break
		}
		if !strings.HasPrefix(t, "-") || (t == "-" && !s.flags[t]) {
			break
		}
		name, value, hasValue := strings.Cut(t, "=")
		switch {
		case s.queries[t]:
			return u, true
		case s.flags[t]:
		case s.chdir[t] && i+1 < len(args):
			i++
			u.chdir = &args[i]
		case strings.HasPrefix(t, "--") && hasValue && s.chdir[name]:
			u.chdir = &word{text: value, plain: true, literalLen: len(value)}
		case !strings.HasPrefix(t, "--") && len(t) > 2 && s.chdir[t[:2]]:
			u.chdir = &word{text: t[2:], plain: true, literalLen: len(t) - 2}
		case s.valued[t]:
			i++
		case strings.HasPrefix(t, "--") && hasValue && s.valued[name]:
		case !strings.HasPrefix(t, "--") && len(t) > 2 && s.valued[t[:2]]:
		case s.numeric && isDigits(t[1:]):
		default:
			return u, false
		}
	}
	i += s.operands
	for s.assigns && i < len(args) && strings.Contains(args[i].text, "=") {
		// env takes every word with = before the command as an
		// assignment, even one no shell would (`BASH_FUNC_x%%=() {...}`).
		name, ok := assignment(args[i])
		if !ok {
			return u, false
		}
		value := args[i]
		value.text = value.text[len(name)+1:]
		value.literalLen -= len(name) + 1
		if dangerousVariable(name) && !harmless(assign{name, value}) {
			return u, false
		}
		u.env = append(u.env, assign{name, value})
		i++
	}
	if i >= len(args) {
		return u, true
	}
	u.rest, u.openEnded = args[i:], s.openEnded
	return u, true
}

// assignment returns the variable a NAME=value word assigns. The name must
// be literal: `$X=1` is not an assignment, and `L$X=1` is refused.
func assignment(w word) (string, bool) {
	eq := strings.IndexByte(w.text, '=')
	if eq <= 0 || eq >= w.literalLen {
		return "", false
	}
	name := w.text[:eq]
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "", false
		}
	}
	return name, true
}

// dangerousVariable reports whether setting the variable changes which
// program runs, what it loads, or which configuration it obeys (PATH,
// LD_PRELOAD, HOME, GIT_*, PAGER, GOFLAGS, NODE_OPTIONS, ...). A command
// line setting one is never covered by a rule.
func dangerousVariable(name string) bool {
	u := strings.ToUpper(name)
	if safeVariables()[u] {
		return false
	}
	if dangerousVariables()[u] {
		return true
	}
	for _, p := range dangerousPrefixes {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

var dangerousVariables = sync.OnceValue(func() map[string]bool {
	return set(
		"PATH", "HOME", "ENV", "IFS", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "CDPATH", "SHELL",
		"PAGER", "MANPAGER", "EDITOR", "VISUAL", "BROWSER", "CC", "CXX", "CPP", "LD", "AR",
		"MAKEFLAGS", "MFLAGS", "MAKEFILES", "GOFLAGS", "GOTOOLCHAIN", "GOROOT", "GOPATH", "GOBIN", "GOENV",
		"NODE_OPTIONS", "NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE",
		"PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB",
		"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "MAVEN_OPTS", "GRADLE_OPTS",
		"KUBECONFIG", "DOCKER_HOST", "DOCKER_CONFIG", "SSH_ASKPASS", "SUDO_ASKPASS", "GCONV_PATH",
		"TMPDIR", "LESSOPEN", "LESSCLOSE", "LESSKEY", "TERMINFO", "INPUTRC", "ZDOTDIR",
	)
})

var dangerousPrefixes = []string{"LD_", "DYLD_", "GIT_", "BASH_", "XDG_", "CGO_", "RUSTC", "RUSTFLAGS",
	"RUSTDOCFLAGS", "CARGO_", "NPM_CONFIG_", "YARN_", "PIP_", "PNPM_", "BUNDLE_", "GEM_"}

var safeVariables = sync.OnceValue(func() map[string]bool {
	return set("CGO_ENABLED", "RUST_BACKTRACE", "RUST_LOG")
})

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
