// Package hook runs hooks written for Claude Code: shell commands that the
// person configures under "hooks" in ~/.cairn/settings.json (and, for a
// trusted project, .cairn/settings.json, or with an opt-in its
// .claude/settings.json), run at fixed points of a session with Claude
// Code's JSON on stdin, answering with Claude Code's exit codes and JSON
// output. A script written for Claude Code works unchanged: matchers
// written for Claude Code's tool names (Bash, Edit, Write, Read, Grep,
// Glob, LS, mcp__server__tool) match cairn's tools, and tool_input uses
// Claude Code's field names (command, file_path, old_string, ...).
//
// The package knows the format (Parse, Matcher, Input, Decode) and runs
// commands (Hooks.Fire) through core/shell: each in a process group of its
// own, with a sanitised environment (shell.InheritedEnv, no API keys) plus
// CLAUDE_PROJECT_DIR and CAIRN_PROJECT_DIR, stopped at its time limit,
// with bounded output. Wiring the points of the agent loop to events is
// the caller's (cmd/cairn builds an agent.Interceptor from a Hooks).
//
// Where Claude Code treats a failing hook (an exit status other than 0
// and 2, a timeout, unreadable output) as a non-blocking error, cairn's
// callers fail closed for the events that can block: a PreToolUse hook
// that fails refuses the call, a UserPromptSubmit hook that fails keeps
// the prompt from being sent. See docs/hooks.md.
package hook
