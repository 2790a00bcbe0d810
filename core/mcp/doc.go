// Package mcp connects cairn to Model Context Protocol servers and offers
// their tools to the agent as core tools named mcp__<server>__<tool>.
//
// It reads the common {"mcpServers": {...}} configuration from the person's
// ~/.cairn/mcp.json and, in a trusted project, from .cairn/mcp.json and the
// project's .mcp.json (Config, LoadFiles). A Manager starts every server in
// the background, in parallel, and keeps it running: a server that dies is
// restarted with growing delays, its stderr goes to a log file under the
// cairn directory, and a server that cannot start is reported once, with its
// command and the last lines of its stderr.
//
// Tool wraps one server tool as a core tool. Source offers the servers'
// tools to a session's live registry (core/toolset), read afresh for every
// request: the tools of each ready server while their specs fit a budget,
// mcp_tool_search and mcp_call for the rest, and the resource tools
// (ResourceTools); it also says which servers are still starting and which
// failed, for the registry's bounded wait. A call of a tool of a server
// that is not ready waits for it, or fails at once with the start error
// when its start failed. WithHints makes the approval gate show a tool's
// readOnlyHint and destructiveHint and judge mcp_call as the tool it names.
// Manager.Connect adds a server to a running session (aionrs's
// add_mcp_server). ToolCache keeps each server's tools between runs, for
// listings only: it never decides what a session declares. Which project
// files may be read is the caller's decision (cairn: project trust, which
// fingerprints them).
//
// The front ends share the rest: a server's prompts are the slash commands
// /mcp__<server>__<prompt> (Manager.PromptCommands, expanded by
// Manager.ExpandPrompt with arguments read by PromptArgs), a message's
// @server:uri references attach resources (Manager.AttachResources), and
// Manager.Reconnect restarts a server on request.
//
// The official Go SDK (github.com/modelcontextprotocol/go-sdk) speaks the
// protocol; it is kept behind the small Conn interface (sdk.go), so the rest
// of the package, and cairn, never see its types. Stdio and streamable HTTP
// are supported, with the older HTTP+SSE transport tried when a server
// refuses streamable HTTP.
package mcp
