package shell

// Pid returns the process id of the command's reaper, or of its shell when
// it runs without one; either is the id of its process group where there
// are groups. Signalling the group (kill -- -pid) reaches the shell and
// what it started in the group; a reaper passes SIGTERM and SIGHUP on to
// what left the group.
func (p *Process) Pid() int { return p.cmd.Process.Pid }
