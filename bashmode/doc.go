// Package bashmode runs the commands a person types as `!cmd` (and
// `!!cmd`) in the TUI: each in a real pseudo-terminal, in a session and
// process group of its own, so colours and progress bars work and Cancel
// stops everything the command started. bashmode opens the terminal and
// owns the screen, keys and size; core/shell starts and stops the command.
//
// Start returns a Run. One goroutine reads the terminal into a Term, a
// small terminal line model that keeps what a terminal would show (carriage
// returns overwrite, SGR colours kept, other escape sequences dropped) in a
// bounded ring of rows. The TUI watches Updates, draws Snapshot or Tail,
// forwards Resize and Cancel, passes on what the person types and pastes
// (Send and Paste, which never block; Modes says which bytes a key should
// become), and when Done is closed turns Result into the conversation's
// bash execution message with Result.Message. Full
// output beyond what is kept goes to a log file named in the result.
//
// Full-screen programs (editors, pagers, monitors; see Interactive) should
// get the real terminal instead; Command builds their shell invocation.
package bashmode
