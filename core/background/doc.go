// Package background keeps a session's background commands: the ones the
// model starts with the bash tool's run_in_background and reads with
// bash_output, and that front ends list (/ps, rpc list_processes).
//
// A Table is the one owner of them. It promises:
//   - Each command runs through core/shell in a process group of its own,
//     so stopping it stops everything it started, and it dies with cairn,
//     kill -9 included (shell's parent-death signal and guard). When the
//     command's shell exits on its own, what it left in its group is killed
//     too: nothing a background command started outlives its entry.
//   - Output is kept with bounded memory: the last RingBytes bytes in
//     memory, and all of it, as written, in a spill file under the system
//     temporary directory, named when the command starts.
//   - Close kills every command still running, waits for them, and removes
//     the spill files. A session closes its table when it ends.
//   - Only commands started through a table can be read or killed through
//     it: ids are the table's own, never process ids.
package background
