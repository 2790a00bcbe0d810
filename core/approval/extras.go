package approval

import (
	"path"
	"strings"
	"sync"
)

// This file decides which words a command may add to a prefix rule. A rule
// such as `git diff` once covered every command starting with those words,
// so `git diff --output=f`, `make lint --eval=...` or `go test -exec x` rode
// on it and wrote files or ran code. Now each word beyond the rule's must be
// harmless for the program:
//
//   - an operand (a word not starting with -), for programs known to just
//     read theirs (operandsRead) and tools with subcommands, unless the
//     operands pick what runs (operandsRun: make targets, `go run` files,
//     `npm run` arguments, `git bisect run` commands, test files), and
//     only operands the program's check accepts (operandChecks: uniq's
//     output file, `npm install ./pkg`, `go test ./testdata/x`);
//   - an option on the program's list of safe options (safeOptions), with
//     its value, which must be a literal that is not an option (and a
//     number where operands are not allowed, as for make -j): programs
//     without a list take no extra options at all;
//   - anything after `--` when operands are allowed and the program is
//     known to read every word after it as an operand (endsOptions).
//
// Words that expand at run time (`$X`, globs, `~`, braces) may turn into
// options, so they are refused unless their literal start is neither `-`
// nor an expansion, or every option of the program is harmless
// (allOptionsSafe). Words appended at run time (xargs) are never covered.

// optionSpec lists the safe options of one program or subcommand.
type optionSpec struct {
	flags   map[string]bool // options without a value: --stat, -s
	valued  map[string]bool // options whose value is harmless: -n 5, -n5, --max-count=5
	numeric bool            // -N is an option (git log -5)
}

// safeOptions are the options known not to run code, write files or change
// where the program reads its configuration, keyed by program or by program
// and subcommand. An option not listed never rides on a prefix rule.
var safeOptions = sync.OnceValue(func() map[string]optionSpec {
	return map[string]optionSpec{
		"git diff":   gitDiffOptions,
		"git show":   gitLogOptions,
		"git log":    gitLogOptions,
		"git status": {flags: set("-s", "--short", "-b", "--branch", "--porcelain", "--long", "-u", "--ignored", "-z", "-v", "--verbose", "--ahead-behind", "--no-ahead-behind", "--show-stash"), valued: set("--untracked-files", "--porcelain", "--ignore-submodules")},
		"git blame":  {flags: set("-w", "-M", "-C", "-e", "-s", "-l", "-t", "-p", "--porcelain", "--line-porcelain", "--show-email", "-f", "--show-name", "-n", "--show-number", "--root"), valued: set("-L", "--since", "--date")},
		"git grep": {flags: set("-n", "--line-number", "-i", "--ignore-case", "-w", "--word-regexp", "-l", "--files-with-matches", "-L", "--files-without-match",
			"-c", "--count", "-E", "--extended-regexp", "-F", "--fixed-strings", "-G", "-P", "--perl-regexp", "-v", "--invert-match", "--cached", "-h", "-H",
			"--heading", "--break", "-p", "--show-function", "-W", "--function-context", "-I", "--untracked", "-q", "--quiet", "-o", "--only-matching", "--all-match",
			"--column", "-z", "--null", "--no-color", "--full-name", "-r", "--recursive"),
			valued: set("-e", "-A", "-B", "-C", "--after-context", "--before-context", "--context", "--max-depth", "--color", "-m", "--max-count", "--threads", "-f")},
		"git branch":    {flags: set("-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--list", "-l", "--show-current", "--no-color"), valued: set("--contains", "--no-contains", "--merged", "--no-merged", "--sort", "--points-at", "--color", "--format")},
		"git fetch":     {flags: set("--all", "-p", "--prune", "-t", "--tags", "--dry-run", "-v", "--verbose", "-q", "--quiet", "--no-tags", "-P", "--prune-tags", "--unshallow"), valued: set("--depth", "--jobs", "-j")},
		"git pull":      {flags: set("--rebase", "--ff-only", "--no-rebase", "-v", "-q", "--prune", "-p", "--tags")},
		"git push":      {flags: set("-u", "--set-upstream", "--tags", "--dry-run", "-n", "-v", "--verbose", "-q", "--quiet", "--follow-tags")},
		"git add":       {flags: set("-A", "--all", "-u", "--update", "-v", "--verbose", "-n", "--dry-run", "-N", "--intent-to-add", "-p", "--patch")},
		"git commit":    {flags: set("-a", "--all", "-v", "--verbose", "-s", "--signoff", "-q", "--quiet", "--no-edit"), valued: set("-m", "--message")},
		"git checkout":  {flags: set("-b", "-q", "--quiet")},
		"git switch":    {flags: set("-c", "--create", "-q", "--quiet", "--detach")},
		"git restore":   {flags: set("-S", "--staged", "-W", "--worktree", "-q", "--quiet"), valued: set("-s", "--source")},
		"git stash":     {flags: set("-q", "--quiet")},
		"git rebase":    {flags: set("--continue", "--abort", "--skip", "-q", "--quiet", "-v", "--autostash", "--no-autostash")},
		"git tag":       {flags: set("-l", "--list", "-n"), valued: set("--sort", "--contains", "--points-at")},
		"git remote":    {flags: set("-v", "--verbose")},
		"git ls-files":  {flags: set("-c", "--cached", "-m", "--modified", "-o", "--others", "-d", "--deleted", "-s", "--stage", "-u", "--unmerged", "-z", "--exclude-standard", "--full-name", "-t", "-i", "--ignored", "--directory")},
		"git rev-parse": {flags: set("--short", "--abbrev-ref", "--show-toplevel", "--git-dir", "--is-inside-work-tree", "--verify", "-q", "--quiet", "--symbolic-full-name", "--show-prefix", "--show-cdup", "--absolute-git-dir")},
		"git shortlog":  {flags: set("-s", "--summary", "-n", "--numbered", "-e", "--email", "--all"), valued: set("--since", "--until")},
		"git describe":  {flags: set("--tags", "--always", "--dirty", "--long", "--all", "--exact-match"), valued: set("--abbrev", "--match", "--exclude")},

		"go test":    {flags: plus(goBuildFlags, "-v", "-short", "-failfast", "-json", "-benchmem", "-cover", "-fullpath"), valued: plus(goBuildValued, "-run", "-count", "-timeout", "-bench", "-benchtime", "-cpu", "-parallel", "-skip", "-shuffle", "-list", "-covermode", "-coverpkg", "-vet")},
		"go build":   {flags: goBuildFlags, valued: goBuildValued},
		"go vet":     {flags: plus(goBuildFlags, "-json"), valued: goBuildValued},
		"go list":    {flags: plus(goBuildFlags, "-m", "-json", "-deps", "-test", "-e", "-find", "-u", "-versions", "-compiled", "-export"), valued: plus(goBuildValued, "-f")},
		"go fmt":     {flags: set("-n", "-x")},
		"go doc":     {flags: set("-all", "-src", "-short", "-u", "-c", "-cmd")},
		"go version": {flags: set("-m", "-v")},

		"make": makeOptions,

		"cargo test":   {flags: set("--release", "--all-features", "--no-default-features", "--workspace", "--all", "--lib", "--bins", "--tests", "--doc", "--no-fail-fast", "-q", "--quiet", "-v", "--verbose", "--locked", "--offline", "--frozen"), valued: set("-p", "--package", "--features", "-F", "-j", "--jobs", "--test", "--bin")},
		"cargo build":  {flags: set("--release", "--all-features", "--no-default-features", "--workspace", "--all", "--lib", "--bins", "--tests", "-q", "--quiet", "-v", "--verbose", "--locked", "--offline", "--frozen"), valued: set("-p", "--package", "--features", "-F", "-j", "--jobs", "--bin")},
		"cargo check":  {flags: set("--release", "--all-features", "--no-default-features", "--workspace", "--all", "--all-targets", "--tests", "-q", "--quiet", "-v", "--locked", "--offline"), valued: set("-p", "--package", "--features", "-F", "-j")},
		"cargo clippy": {flags: set("--all-features", "--workspace", "--all-targets", "--tests", "-q", "--quiet", "--locked", "--offline"), valued: set("-p", "--package", "--features", "-F")},

		"apt-get install": {flags: set("-y", "--yes", "-q", "--quiet", "--no-install-recommends")},
		"apt install":     {flags: set("-y", "--yes", "-q", "--quiet", "--no-install-recommends")},

		"sort": {flags: set("-b", "-d", "-f", "-g", "-h", "-i", "-M", "-n", "-R", "-r", "-s", "-u", "-V", "-c", "-C", "-z",
			"--ignore-leading-blanks", "--dictionary-order", "--ignore-case", "--general-numeric-sort", "--human-numeric-sort", "--month-sort",
			"--numeric-sort", "--random-sort", "--reverse", "--stable", "--unique", "--version-sort", "--check", "--zero-terminated"),
			valued: set("-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "--parallel")},
		"uniq": {flags: set("-c", "--count", "-d", "--repeated", "-u", "--unique", "-i", "--ignore-case", "-z"), valued: set("-f", "--skip-fields", "-s", "--skip-chars", "-w", "--check-chars")},
		"tree": {flags: set("-a", "-d", "-f", "-i", "-l", "-p", "-s", "-h", "-u", "-g", "-D", "-F", "-C", "-n", "--dirsfirst", "--gitignore", "--noreport"), valued: set("-L", "-I", "-P", "--charset")},
		"du":   {flags: set("-a", "-c", "-h", "-s", "-k", "-m", "-b", "-x", "--human-readable", "--summarize", "--total", "--apparent-size"), valued: set("-d", "--max-depth", "--exclude")},
		"df":   {flags: set("-h", "-H", "-k", "-T", "-i", "-l", "-a", "--human-readable", "--total")},
		"date": {flags: set("-u", "--utc", "-R", "--rfc-email", "-I", "--iso-8601"), valued: set("-d", "--date", "-r", "--reference")},

		"rg": {flags: set("-n", "--line-number", "-N", "--no-line-number", "-i", "--ignore-case", "-s", "--case-sensitive", "-S", "--smart-case",
			"-w", "--word-regexp", "-x", "--line-regexp", "-F", "--fixed-strings", "-l", "--files-with-matches", "--files-without-match", "-c", "--count",
			"-v", "--invert-match", "-o", "--only-matching", "-u", "-uu", "--hidden", "--no-ignore", "--files", "--json", "--vimgrep", "--no-heading",
			"--heading", "-H", "--with-filename", "--no-filename", "-U", "--multiline", "-P", "--pcre2", "--sort-files", "-L", "--follow", "-q", "--quiet"),
			valued: set("-e", "--regexp", "-g", "--glob", "-t", "--type", "-T", "--type-not", "-A", "--after-context", "-B", "--before-context",
				"-C", "--context", "-m", "--max-count", "-d", "--max-depth", "--sort", "--color", "-M", "--max-columns", "-j", "--threads")},

		"python -m pytest": {flags: set("-q", "--quiet", "-v", "--verbose", "-vv", "-x", "--exitfirst", "-s", "-l", "--lf", "--last-failed",
			"--ff", "--failed-first", "-ra", "-rA", "--no-header", "--co", "--collect-only", "--sw", "--stepwise"),
			valued: set("-k", "-m", "--tb", "--maxfail", "--durations", "-W")},
	}
})

// allOptionsSafe are programs no option of which runs code or writes a file,
// so any option, even one expanded at run time, may ride on a rule naming
// them.
var allOptionsSafe = sync.OnceValue(func() map[string]bool {
	return set("ls", "echo", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "pwd", "which",
		"whoami", "id", "stat", "uname", "basename", "dirname", "realpath", "readlink", "cut", "tr", "nl",
		"diff", "cmp", "comm", "column", "seq", "printenv", "cd", "jq", "md5sum", "sha1sum", "sha256sum", "command", "type")
})

// operandsRun are programs and subcommands (by one, two or three leading
// words) whose operands choose what runs: make targets and variables,
// `go run` files, script arguments. A prefix rule for them takes no extra
// operands: `make lint` does not cover `make lint install` or `make lint
// SHELL=/tmp/x`.
var operandsRun = sync.OnceValue(func() map[string]bool {
	return set(
		"make", "gmake", "just", "task", "ninja", "bazel", "mage", "rake",
		"go run", "go generate", "go tool", "go install", "go get", "cargo run", "cargo install", "dotnet run", "deno run", "deno task",
		"npm run", "npm run-script", "npm exec", "npm x", "npm test", "npm start", "pnpm run", "pnpm exec", "pnpm dlx",
		"yarn run", "yarn exec", "yarn dlx", "bun run", "bun x", "uv run", "uv tool", "poetry run", "pdm run", "hatch run",
		"pipenv run", "bundle exec", "turbo run", "nx run", "lerna run", "npx", "bunx", "pnpx",
		"git bisect", "git submodule", "git filter-branch", "git filter-repo", "git worktree", "git config", "git alias",
		"docker run", "docker exec", "podman run", "podman exec", "kubectl exec", "kubectl run", "kubectl debug",
		"docker compose run", "docker compose exec", "podman compose run", "podman compose exec",
		"gh alias", "gh extension", "gh api",
		"strace", "ltrace", "gdb", "lldb", "valgrind", "taskset", "chrt", "perf", "vim", "vi", "nvim", "emacs",
		"tmux", "screen", "ssh", "watch", "xargs", "parallel",
		// Test runners run the files their operands name.
		"yarn test", "pnpm test", "bun test", "deno test", "python -m", "pytest", "py.test", "dotnet test",
		// Build tools whose operands are goals or tasks, each running code.
		"mvn", "mvnw", "gradle", "gradlew",
		// Subcommands that run the code or package their operands name.
		"deno eval", "swift run", "zig run", "dart run", "mix run", "rails runner", "composer run-script", "composer exec",
		"conda run", "nix run", "nix shell", "nix develop",
		// Subcommands whose operands say where to write.
		"git clone", "git bundle",
	)
})

// runners are programs that run a command or script given to them, or open
// an editor or terminal that can: debuggers, tracers, schedulers, editors,
// multiplexers. Rules for them are exact, so that allowing `strace ls`
// allows nothing else.
var runners = sync.OnceValue(func() map[string]bool {
	return set("strace", "ltrace", "gdb", "lldb", "valgrind", "taskset", "chrt", "perf", "vim", "vi", "nvim",
		"emacs", "nano", "ed", "ex", "tmux", "screen", "byobu", "firejail", "bwrap", "proot", "busybox", "toybox",
		"less", "more", "man", "git-shell")
})

var (
	gitDiffFlags = set("--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "--cached", "--staged",
		"--no-color", "-w", "--ignore-all-space", "-b", "--ignore-space-change", "--ignore-blank-lines", "-p", "--patch", "-u",
		"--summary", "--check", "--no-ext-diff", "--no-textconv", "-M", "-R", "--raw", "--minimal", "--patience", "--histogram",
		"-z", "--exit-code", "--quiet", "--relative", "--merge-base", "--compact-summary", "--full-index", "--binary",
		"--no-prefix", "-W", "--function-context", "-a", "--text", "--no-renames", "--patch-with-stat", "-s", "--no-patch")
	gitDiffValued = set("-U", "--unified", "--diff-filter", "--color", "--word-diff", "--abbrev", "--stat-width",
		"--dirstat", "--find-renames", "--diff-algorithm", "--inter-hunk-context")
	gitDiffOptions = optionSpec{flags: gitDiffFlags, valued: gitDiffValued}
	gitLogOptions  = optionSpec{
		flags: plus(gitDiffFlags, "--oneline", "--graph", "--decorate", "--all", "--follow", "--reverse", "--no-merges",
			"--merges", "--first-parent", "--abbrev-commit", "--no-decorate", "--topo-order", "--date-order", "--left-right",
			"--boundary", "--source", "--show-signature", "-i", "--regexp-ignore-case", "--all-match", "--full-history", "--cherry-pick"),
		valued: plus(gitDiffValued, "-n", "--max-count", "--skip", "--author", "--committer", "--since", "--until", "--after",
			"--before", "--grep", "--format", "--pretty", "--date", "-S", "-G", "-L", "--branches", "--tags", "--remotes"),
		numeric: true,
	}
	goBuildFlags  = set("-race", "-x", "-n", "-a", "-trimpath", "-buildvcs", "-cover", "-msan", "-asan", "-work")
	goBuildValued = set("-tags", "-p", "-buildvcs", "-covermode", "-coverpkg")
	makeOptions   = optionSpec{flags: set("-k", "--keep-going", "-s", "--silent", "--quiet", "--no-print-directory", "-w", "--print-directory"), valued: set("-j", "--jobs")}
)

// plus returns a copy of s with names added.
func plus(s map[string]bool, names ...string) map[string]bool {
	m := make(map[string]bool, len(s)+len(names))
	for n := range s {
		m[n] = true
	}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// extrasSafe reports whether extra, the words a command has beyond a prefix
// rule's words ruleWords, are harmless for the program: see the comment at
// the top of this file.
func extrasSafe(ruleWords []string, extra []word) bool {
	if len(extra) == 0 {
		return true
	}
	keys := programKeys(ruleWords)
	if len(keys) == 0 {
		return false
	}
	operands := operandsAllowed(keys)
	// The most specific list of options applies: `git diff` before `git`.
	var spec optionSpec
	known := false
	for i := len(keys) - 1; i >= 0 && !known; i-- {
		spec, known = safeOptions()[keys[i]]
	}
	anyOption := allOptionsSafe()[keys[0]]
	var given []word // the operands, for operandsSafe
	for i := 0; i < len(extra); i++ {
		w := extra[i]
		if w.plain && w.text == "--" {
			// Everything after is an operand, for the programs where --
			// is known to end options; others (go test, cargo test, npm)
			// hand what follows to another program.
			return operands && endsOptions()[keys[0]] && operandsSafe(keys, append(given, extra[i+1:]...))
		}
		switch {
		case anyOption && (strings.HasPrefix(w.text, "-") && w.text != "-" || w.literalLen == 0):
			continue
		case !w.fixed():
			if !anyOption && !expansionSafe(w, spec, known, operands) || !operands {
				return false
			}
			given = append(given, w)
			continue
		case !strings.HasPrefix(w.text, "-") || w.text == "-":
			if !operands {
				return false
			}
			given = append(given, w)
			continue
		}
		takesValue, ok := spec.accepts(w.text)
		if !known || !ok {
			return false
		}
		if takesValue {
			// The value of a listed option is harmless, but the program
			// may not take it as one: some values are optional (git's
			// --color, make's -j), and then the word is read on its own.
			// So it must be literal and not an option, and where operands
			// pick what runs (make) a number.
			i++
			if i >= len(extra) {
				return false
			}
			v := extra[i]
			if !v.fixed() || strings.HasPrefix(v.text, "-") || !operands && !isDigits(v.text) {
				return false
			}
		}
	}
	return operandsSafe(keys, given)
}

// operandsAllowed reports whether operands may follow a prefix rule for the
// program keys name: only for programs known to read their operands
// (operandsRead) and for tools with subcommands, and never where operands
// pick what runs (operandsRun). Any other program's operands may run code
// or write files (`sqlite3 db '.shell x'`, `pytest evil_test.py`), so its
// rules are exact.
func operandsAllowed(keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	if _, tool := subcommandPrograms()[keys[0]]; !tool && !operandsRead[keys[0]] {
		return false
	}
	for _, k := range keys {
		if operandsRun()[k] {
			return false
		}
	}
	return true
}

// endsOptions are the programs known to read every word after `--` as an
// operand.
var endsOptions = sync.OnceValue(func() map[string]bool {
	return set("git", "sort", "uniq", "du", "df", "tree", "ls", "cat", "grep", "head", "tail", "wc")
})

// operandsSafe checks a command's operands against what its program makes
// of them (operandChecks), for every key the program is known by.
func operandsSafe(keys []string, operands []word) bool {
	for _, k := range keys {
		if check := operandChecks()[k]; check != nil && !check(operands) {
			return false
		}
	}
	return true
}

// expansionSafe reports whether a word that expands at run time is
// harmless: an operand whose literal start is not an option nor a glob or
// brace that could expand to one, or a listed valued option whose name is
// literal (--format=$F).
func expansionSafe(w word, spec optionSpec, known, operands bool) bool {
	lit := w.text[:w.literalLen]
	switch {
	case lit == "" || strings.ContainsRune("*?[{~", rune(lit[0])):
		return false
	case lit[0] != '-':
		return operands
	}
	eq := strings.IndexByte(lit, '=')
	return known && eq > 0 && spec.valued[lit[:eq]]
}

// accepts reports whether opt is a safe option, and whether the next word
// is its value.
func (s optionSpec) accepts(opt string) (takesValue, ok bool) {
	switch {
	case s.flags[opt]:
		return false, true
	case s.valued[opt]:
		return true, true
	case s.numeric && isDigits(opt[1:]):
		return false, true
	}
	if eq := strings.IndexByte(opt, '='); eq > 0 {
		name := opt[:eq]
		return false, s.valued[name]
	}
	if strings.HasPrefix(opt, "--") || len(opt) < 3 {
		return false, false
	}
	// A group of short options, -uo or -n5: each letter must be a safe
	// flag until one that takes a value, which takes the rest of the word.
	for i := 1; i < len(opt); i++ {
		l := "-" + opt[i:i+1]
		switch {
		case s.valued[l]:
			return i == len(opt)-1, true
		case s.flags[l]:
		default:
			return false, false
		}
	}
	return false, true
}

// programKeys returns the names under which the program of a rule is known:
// its base name, then with one and two more words while those are not
// options. Privilege wrappers in front (sudo) are skipped. `python -m mod`
// is known as "python -m" and "python -m mod", whatever the interpreter's
// version.
func programKeys(ruleWords []string) []string {
	for len(ruleWords) > 1 && privileged()[ruleWords[0]] {
		ruleWords = ruleWords[1:]
	}
	if len(ruleWords) == 0 {
		return nil
	}
	base := path.Base(ruleWords[0])
	if strings.HasPrefix(base, "python") && len(ruleWords) >= 3 && ruleWords[1] == "-m" {
		return []string{base, "python -m", "python -m " + ruleWords[2]}
	}
	keys := []string{base}
	for _, w := range ruleWords[1:min(len(ruleWords), 3)] {
		if strings.HasPrefix(w, "-") {
			break
		}
		keys = append(keys, keys[len(keys)-1]+" "+w)
	}
	return keys
}
