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
// and .git/config, and the directories in Config.ProtectedDirs (the user's
// cairn directory). The question's message and the Decision's Warning say
// why, such as "writes .cairn/approvals.json, a file that controls cairn".
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
// For exec tools a rule is a command prefix in shell syntax, such as
// `git status`: it covers `git status` and `git status --short`, not `git
// push`. The words a command adds beyond a prefix rule's must be harmless
// for the program (see extras.go): operands, unless they pick what runs
// (make targets and variables, `npm run` arguments, `go run` files, `git
// bisect run`), and options on the program's list of safe options; a
// program without a list takes no extra options, except read-only tools
// such as ls, cat and grep. So `git diff` covers `git diff --stat HEAD -- x`
// but not `git diff --output=f` or `git diff --ext-diff`, `make lint` covers
// `make lint -j4` but not `make lint install` or `make lint --eval=...`, and
// `go test` covers `go test -race ./core/...` but not `go test -exec x`.
// Words that expand at run time (`$F`, `*`) count as options unless their
// literal start shows otherwise, and xargs, which appends words no one can
// check, is covered by no prefix rule. Options in front of the subcommand
// (`git -c k=v diff`, `make -f x lint`) never match, since the rule's words
// come first. Rule.String says what a rule covers. Command lines are parsed with mvdan.cc/sh/v3/syntax, and a line is
// covered only when every simple command it runs is covered by some rule:
// through pipes, &&, ||, ;, ( ), { }, if/for/while/case, $( ), backticks,
// process substitution and here-documents. So a rule for `git status` never
// lets `git status && rm -rf ~` through.
//
// Wrappers are looked through: env (with NAME=value), xargs, nice, time,
// nohup, timeout, command, exec, stdbuf, ionice, setsid; and `sh -c
// 'script'` (bash, zsh, ...) whose script is parsed in turn; a wrapper's
// own options must be known harmless. A command under xargs gets words at
// run time, so no rule covers it. sudo and doas are not transparent: they
// stay part of the command a rule names. Programs that run what they are
// given (strace, gdb -ex, valgrind, taskset, chrt, perf, vim -c, tmux,
// ssh, `docker run`, `kubectl exec`) are not looked through: the inner
// command's rule does not cover them, and their own rules are exact.
//
// Some lines are never covered, whatever the rules: lines that do not
// parse; function declarations; eval, trap, alias, builtin, hash and the
// like; command names that are not literals (`$CMD x`); output redirected to
// a file (other than /dev/null); variables that change which program runs
// or what it loads (PATH, LD_*, HOME, GIT_*, PAGER, GOFLAGS, NODE_OPTIONS,
// ...); interpreters reading code from standard input (`curl x | sh`); and
// arithmetic or [[ -v ]] on variables, which bash can make run code.
// Assignments, and true, false and :, need no rule, though a line must run
// some program for a rule to cover it.
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
//   - Any other program: its name alone (`ls`, `grep`, `cat`).
//   - Programs that run a command or open an editor or terminal (strace,
//     gdb, valgrind, taskset, chrt, perf, vim, tmux, screen, ...) and
//     subcommands that run code they are given (`go run`, `go generate`,
//     `docker run`, `docker exec`, `kubectl exec`, `git bisect run`, `git
//     submodule foreach`, `git filter-branch`): the whole command, exactly.
//   - A command adding words its prefix rule would not cover (`git diff
//     --output=f`, `npm run build -- --watch`): the whole command, exactly.
//   - sudo and doas stay in front: `sudo apt-get install`.
//
// Remembering is offered only when the rules it would create cover the line;
// a line with a part no rule can cover (`$(make_cmd)`, `rm *.o`) is asked
// about each time.
package approval
