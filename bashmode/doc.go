// Package bashmode will run the commands a person types as `!cmd` (and
// `!!cmd`): a real PTY in its own process group, resizing, a bounded ring
// buffer of output, and cancellation that kills the whole group.
package bashmode
