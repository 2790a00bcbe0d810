// Package extension runs cairn's extensions: programs in any language, one
// process each, that speak JSON-RPC 2.0 with cairn over their stdin and
// stdout, one message per line (docs/extensions.md is the protocol, with
// docs/extension-protocol.schema.json beside it).
//
// An extension registers tools (offered to the model through the session's
// live tool registry, core/toolset, and approved by the gate like any
// tool), `/` commands, and handlers for session events; it asks the person
// in front of the session through dialogs (select, confirm, input,
// editor), which become core.Questions every front end renders, and shows
// notices, status lines, widgets, a title or editor text as session
// events. Names and shapes are pi's wherever pi has them, so a pi
// extension's logic ports line by line.
//
// A Manager finds extensions (Discover: ~/.cairn/extensions, and the
// project's .cairn/extensions once the project is trusted, and settings),
// starts them all in parallel without delaying the session (toolset.Wait
// is the one bounded wait for them), and stops them when the session ends.
// An extension starts from cairn's child environment (core/child: never
// its API keys) plus the env its manifest gives. Its output is bounded: a
// frame over MaxFrameBytes, a flood of output or a run of unreadable lines
// cuts the extension off, never cairn. A crash fails the calls in flight
// with the last lines of its stderr and is told once.
//
// Every UI call works or fails fast: the extension learns at start which
// methods the front end renders (hasUI and the list); a dialog in a mode
// with nobody to ask (print, json) is answered at once with the NoUI
// error; every dialog ends at its timeout or when its work is aborted.
package extension
