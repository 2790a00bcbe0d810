// Package regfile is where cairn opens the files it reads for itself:
// settings, rules, trust, prompts, context files, MCP and model
// configuration, key bindings, themes, ignore files, history.
//
// Any of them can come with a cloned repository or sit where a hostile
// one can plant something else under its name. A named pipe blocks a
// plain open until someone writes to it (start-up hangs and no signal
// helps, since the process is stuck in the kernel), a device never ends,
// and a huge file turns into a huge prompt. So every such read goes
// through this package: the path must lead to a regular file, it is
// opened without blocking and checked again on the open descriptor (a
// swap between the check and the open does not help), and it is read up
// to a limit the caller chooses.
package regfile
