// Package shell is the one place cairn starts shell commands: the model's
// bash tool, rpc mode's bash command and a person's `!cmd` in the TUI
// (which asks for a pseudo-terminal) all run through Start.
//
// It promises:
//   - Every command runs as `shell -c line` in a session, and so a process
//     group, of its own. Stopping it (its context ends, or its Timeout
//     passes) stops everything it started: the group gets SIGTERM (SIGHUP
//     first on a terminal, as when a terminal closes), then SIGKILL after
//     Command.Grace.
//   - Nothing a command started outlives it. On Linux, in a program that
//     calls RunIfReaper (cairn, and the tests that start commands), each
//     command runs under a reaper: cairn's own executable re-executed
//     (`cairn __shell-reaper <pid> -- shell -c line`; for a sandboxed
//     command, the sandboxed child becomes the reaper once it has
//     restricted itself). The reaper is the child subreaper of the command
//     (PR_SET_CHILD_SUBREAPER), so whatever leaves the process group
//     (setsid, nohup, a daemon's double fork) is re-parented to it; when
//     the shell exits, is stopped, or cairn dies (the reaper's parent-death
//     signal, kill -9 included), it kills every process under it, then
//     exits as the shell did. Elsewhere the process group is killed when
//     the shell exits, and what left the group is beyond reach. A process
//     started outside the command's tree (by a daemon the command talks
//     to: systemd-run, at, a tmux server) and one that kills its reaper
//     first escape. Background commands (package background) are commands
//     whose shell lives as long as they do.
//   - A command dies with cairn, even with kill -9: a reaper as above;
//     without one, on Linux the shell gets SIGKILL from the kernel when
//     cairn goes (a parent-death signal), and on every Unix a small guard
//     process outside the group kills the whole group once cairn's end of
//     a pipe closes while the shell still runs.
//   - A command starts without cairn's secrets: a Command without Env gets
//     DefaultEnv (cairn's environment less what child.Secret judges a
//     credential); cairn's wiring passes the "shellEnvironment" setting's
//     environment, which also drops the catalog's key variables.
//   - Without a terminal, a command has no controlling terminal: a program
//     that asks for a password on /dev/tty fails at once instead of hanging.
//   - A Command with a Sandbox runs in the OS sandbox (package sandbox):
//     started through cairn's own executable, which restricts itself and
//     then executes the shell; process group, timeouts and parent-death
//     work as for any command.
//   - Output keeps a command's output with bounded memory: a tail in memory,
//     and all of it in a temporary file once it outgrows the limits, with a
//     callback for live output.
//   - Clean turns terminal output into text for a model: no escape
//     sequences, carriage-return redraws collapsed to their last state, no
//     control characters, valid UTF-8. Output's tail is always clean.
//
// Screen emulation, keys and resizing belong to the terminal front end
// (bashmode); this package imports no terminal library.
package shell
