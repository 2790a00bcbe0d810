// Package approval decides whether a tool call may run. The agent asks a
// Gate before running each call; the Gate answers from the mode, then from
// rules remembered for the session or persisted for the project, and
// otherwise asks the person through the core.Asker the session passes in:
// a core.Question with PurposeApproval whose options are Option values.
//
// # Modes
//
// ModeDefault asks before edit and exec tools (and mcp tools), ModeAutoEdit
// only before exec (and mcp) and before edits outside the project, the
// temporary directory and Config.AllowWrite, ModeYolo never. Info tools
// never ask, except to read outside the project (see Reading).
//
// # Plan mode
//
// ModePlan lets only reading run: info tools, MCP tools their server marks
// read-only, and bash for lines ReadOnlyCommand accepts (programs that
// just read their operands, with safe options, and git's looking
// subcommands, matched by the same machinery as rules). Every other call
// is refused unasked (ByPlan), its result telling the model it is in plan
// mode; what is left is judged as in the mode plan mode was entered from.
// The model presents its plan with the gate's exit_plan_mode tool
// (ExitPlanTool): Check asks the person to accept it, choosing the mode to
// go on in (OptionPlanDefault, OptionPlanAutoEdit, and the mode plan mode
// was entered from when that was auto or yolo), or to keep planning with
// feedback (OptionKeepPlanning). The switch happens when the tool runs,
// after every call of the turn was judged in plan mode. Declares is the
// filter of a declarations-only toolset view: plan mode hides what it
// refuses, and exit_plan_mode is hidden outside it.
//
// # Arguments and paths
//
// The gate judges what will run. Arguments core.CheckArguments refuses (a
// key given twice or in another case, a key the tool does not declare) are
// refused unasked (ByArguments). A path is judged as toolpath.Resolve reads
// it, as the tools do: '@' dropped, '~' expanded, symbolic links followed,
// the last one included, so a link to .git/hooks/pre-commit or ~/.bashrc is
// judged as that file. Questions name it relative to Config.Dir when inside
// it, else absolute.
//
// # Protected files
//
// Edits of files that steer cairn or run as programs ask in every mode but
// yolo, even when a rule covers them, and offer no remembering: the
// project's .cairn directory, AGENTS.md and CLAUDE.md anywhere, .git/hooks
// and .git/config, the directories in Config.ProtectedDirs (the user's
// cairn directory), and the files of Config.RunFiles, which the project's
// control files name as something to run (a hook's script, an MCP
// server's, an extension's; FilesNamed reads a hook's command line). The
// question's message and the Decision's Warning say why, such as "writes
// .cairn/approvals.json, a file that controls cairn".
//
// # Reading
//
// Info tools that declare a "path" parameter (read, grep, find, ls) read
// the project and the temporary directory unasked. Elsewhere they ask in
// every mode but yolo, offering a rule for that path; in, or above, the
// directories of Config.ProtectedDirs (where cairn keeps its keys) and /proc
// (processes' environments) they ask like a protected edit. Where nobody can
// be asked, the refusal names what would allow the call.
//
// Question titles and messages quote the model's text with its control
// characters escaped (escape.Visible).
//
// # Answers and rules
//
// A question offers "Allow once", "Allow for this session", "Always allow",
// "Deny" and "Deny with reason…" (see the Option constants). The two
// remembering answers create rules: for the session, or in the project's
// .cairn/approvals.json. A denial's DenialText is what the model is told;
// its turn goes on.
//
// For edit tools a rule names a file (relative to the project) and, when
// chosen, the whole project. For other non-exec tools a rule names the tool.
//
// # Command rules
//
// For exec tools a rule is a command in shell syntax, such as `git status`,
// with the assignments it was granted with in front (`FOO=1 make test`), and
// the directory it holds in (Rule.Dir; empty for the gate's Dir). Command
// lines are parsed with mvdan.cc/sh/v3/syntax, and a line is covered only
// when every simple command it runs is covered by some rule: through pipes,
// &&, ||, ;, ( ), { }, if/for/while/case, $( ), backticks, process
// substitution and here-documents. So a rule for `git status` never lets
// `git status && rm -rf ~` through. A rule covers a simple command when all
// of these hold:
//
//   - Program, options and operands. The command's first words are the
//     rule's. An exact rule (Rule.Exact) covers no more words; a prefix rule
//     covers more only when they are harmless for the program (extras.go,
//     operands.go): options on the program's list of safe options (a
//     program without a list takes none, except read-only tools such as ls,
//     cat and grep); operands only for programs known to just read theirs
//     (ls, cat, grep, sort, ...) and for tools with subcommands, never where
//     operands pick what runs (make targets and variables, `npm run`
//     arguments, `go run` files, `python -m` modules, test files of pytest,
//     jest and the like), and checked per program where an operand can do
//     more: uniq's second operand is a file it writes, `npm install` and
//     `pip install` take registry names and not paths, tarballs or URLs,
//     `go test` takes packages inside the module and not testdata, vendor or
//     files, `git push` no forcing or deleting refspecs. So `git diff`
//     covers `git diff --stat HEAD -- x` but not `git diff --output=f`, `make
//     lint` covers `make lint -j4` but not `make lint install`, `uniq` covers
//     `uniq -c in` but not `uniq - .git/config`. Words that expand at run
//     time (`$F`, `*`) count as options unless their literal start shows
//     otherwise, and xargs, which appends words no one can check, is covered
//     by no prefix rule. Options in front of the subcommand (`git -c k=v
//     diff`, `make -f x lint`) never match, since the rule's words come
//     first.
//   - Environment. The assignments in force for the command are exactly
//     the rule's, beside harmless ones: LANG, LANGUAGE, LC_*, TZ, TERM,
//     COLUMNS, LINES, NO_COLOR, FORCE_COLOR, CLICOLOR, CLICOLOR_FORCE,
//     CGO_ENABLED, RUST_BACKTRACE, PYTHONUNBUFFERED and
//     PYTHONDONTWRITEBYTECODE, with a short plain value, and GIT_PAGER,
//     PAGER or MANPAGER set to cat and GIT_TERMINAL_PROMPT=0. In force are the
//     assignments in front of the command or given to env, and anywhere in
//     the line (nested shells included): exports, assignments to names with
//     an upper-case letter or that programs read in lower case (the person's
//     shell may have exported them already), loop variables, the variables
//     read, getopts and printf -v set, and whatever a sourced file may set.
//     So `make lint` covers `LANG=C make lint` but not `GO='touch x; true'
//     make lint`, `export CFLAGS=...; make lint` or `TAR_OPTIONS=... tar
//     ...`, and `FOO=1 make test` covers neither `FOO=2 make test` nor
//     `make test`. Variables that change which program runs or what it
//     loads (PATH, LD_*, HOME, GIT_*, PAGER, GOFLAGS, NODE_OPTIONS, ...) are
//     never covered at all.
//   - Working directory. The command runs in the rule's directory. The line
//     is followed through cd, pushd, popd, subshells, &&, ||, pipes, loops
//     and env -C; where it cannot tell the directory (`cd "$D"`, `cd -`, a cd
//     in a loop, `cd x; make`, where the cd may have failed) no rule holds.
//     Rules for programs that read nothing from their directory (ls, cat,
//     grep, cd, ...) hold in every directory. So `make lint` does not cover
//     `cd web && make lint` or `env -C web make lint`, while the rule made
//     for `cd web && npm test` (`npm test` in web) covers both forms there.
//
// Wrappers are looked through: env (its NAME=value words count as
// assignments, -C as a directory), xargs, nice, time, nohup, timeout,
// command, exec, stdbuf, ionice, setsid; and `sh -c 'script'` (bash, zsh,
// dash, ...) whose script is parsed in turn; a wrapper's own options must be
// known harmless. Shells and the set builtin are looked through only with
// the options modelled, whose effect on the rest of the line is understood:
// -e, -u, -x, -v, -n, -f, -C, -o errexit, nounset, xtrace, verbose, noexec,
// noglob, noclobber or pipefail, and -c, -l, --login, --noprofile, --norc
// for shells. Any other option makes the line ask: under -k or -o keyword
// (`bash -k -c 'git status GIT_DIR=x'`, `set -k`) words after a command are
// assignments, under -a every variable is exported, -i and --rcfile read
// startup files; shopt -s and zsh's setopt, unsetopt and emulate ask too. A command under xargs gets words at run time, so no rule
// covers it. sudo and doas are not transparent: they stay part of the
// command a rule names. Programs that run what they are given (strace, gdb
// -ex, valgrind, taskset, chrt, perf, vim -c, tmux, ssh, `docker run`,
// `kubectl exec`) are not looked through: the inner command's rule does not
// cover them, and their own rules are exact.
//
// Some lines are never covered, whatever the rules: lines that do not
// parse; function declarations; eval, trap, alias, builtin, hash and the
// like; command names that are not literals (`$CMD x`); output redirected to
// a file (other than /dev/null); redirections to or from bash's network
// names (/dev/tcp/..., /dev/udp/...) or from a name the line does not show;
// variables that change which program runs or what it loads; shell options
// not modelled; interpreters reading code from standard input (`curl x |
// sh`); and arithmetic or [[ -v ]] on variables, which bash can make run
// code. Assignments, and true, false and :, need no rule, though a line
// must run some program for a rule to cover it.
//
// Some lines ask whatever the rules, as edits of protected files do, with
// the reason in the question and no remembering offered: a line that
// writes a protected file, through a redirection or an operand the program
// writes (tee's operands, the target of cp, mv and ln, sort -o, uniq's
// second operand, dd of=, sed -i, ...), and a line running git in a
// repository other than the project's (an embedded bare repository such as
// vendor/lib.git, a nested .git, reached by cd, env -C, git -C or
// --git-dir), whose configuration can name programs git runs
// (core.fsmonitor, core.pager).
//
// A rule never vouches for the files a command reads as it runs (a
// Makefile, package.json, the test files `go test` compiles): it holds for
// the project as it is when the command runs. Nor does it see the
// environment cairn was started with (an exported CDPATH changes where cd
// goes).
//
// # Which rule an answer creates
//
// "Allow for this session" creates one rule per distinct simple command in
// the line, as short as is useful:
//
//   - Tools with subcommands (git, go, npm, cargo, docker, kubectl, make,
//     ...): the program and its subcommand, `git status`, `go test`, `make
//     lint`. Subcommands that name a further target keep it too: `npm run
//     build`, `docker compose up`, `go mod tidy`, `gh pr view`.
//   - Programs whose arguments decide what they do to the machine (rm, mv,
//     cp, chmod, curl, ssh, find, sed, tar, interpreters, ...), and
//     configuration subcommands (`git config`, `go env`): the whole command,
//     exactly. Allowing `rm -rf build` never allows `rm -rf ~`.
//   - A subcommand tool called without one, or with an option first (`git
//     -C dir push`): the whole command, exactly.
//   - Programs known to just read their operands: the name alone (`ls`,
//     `grep`, `cat`, `sort`). Any other program without subcommands: the
//     whole command, exactly (`sqlite3 app.db 'select 1'`, `pytest tests/`).
//   - Programs that run a command or open an editor or terminal (strace,
//     gdb, valgrind, taskset, chrt, perf, vim, tmux, screen, ...) and
//     subcommands that run code they are given (`go run`, `go generate`,
//     `docker run`, `docker exec`, `kubectl exec`, `git bisect run`, `git
//     submodule foreach`, `git filter-branch`): the whole command, exactly.
//   - A command adding words its prefix rule would not cover (`git diff
//     --output=f`, `npm run build -- --watch`): the whole command, exactly.
//   - sudo and doas stay in front: `sudo apt-get install`.
//
// Each rule keeps the assignments in force for its command other than the
// harmless ones (`FOO=1 make test`) and the directory the command ran in,
// unless its program reads nothing from there (`npm test` in web).
//
// Remembering is offered only when the rules it would create cover the line;
// a line with a part no rule can cover (`$(make_cmd)`, `rm *.o`, a command
// in a directory the line does not show) is asked about each time.
package approval
