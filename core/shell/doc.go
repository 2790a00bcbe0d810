// Package shell is the one place cairn starts shell commands: the model's
// bash tool, rpc mode's bash command and a person's `!cmd` in the TUI
// (which asks for a pseudo-terminal) all run through Start.
//
// It promises:
//   - Every command runs as `shell -c line` in a session, and so a process
//     group, of its own. Stopping it (its context ends, or its Timeout
//     passes) stops everything it started: the group gets SIGTERM (SIGHUP
//     first on a terminal, as when a terminal closes), then SIGKILL after
//     Command.Grace, and SIGKILL again for whatever is left once the shell
//     has exited. A command that exits on its own leaves what it started in
//     the background running, unless its Command says KillGroupOnExit.
//   - A command dies with cairn, even with kill -9: on Linux the shell gets
//     SIGKILL from the kernel when cairn goes (a parent-death signal), and on
//     every Unix a small guard process outside the group kills the whole
//     group once cairn's end of a pipe closes while the shell still runs.
//     Processes that leave the group (setsid, daemons) are beyond its reach.
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
