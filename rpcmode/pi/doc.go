// Package pi speaks pi's wire formats: the JSON event lines of `--mode json`
// and, with `--mode rpc`, pi's newline-delimited JSON protocol (commands on
// stdin, responses and events on stdout), so hosts written for pi (and
// oh-my-pi) drive cairn unchanged.
package pi
