package shell

// Pid returns the process id of the command's shell, which is also the id
// of its process group where there are groups.
func (p *Process) Pid() int { return p.cmd.Process.Pid }
