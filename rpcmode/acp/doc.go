// Package acp is cairn's agent side of the Agent Client Protocol (ACP v1):
// JSON-RPC 2.0 messages, one per line, on stdin and stdout, through which
// editors (Zed, JetBrains IDEs, Neovim, Emacs, VS Code extensions) drive a
// coding agent. Serve adapts core sessions (core/agent.Session) to it, one
// per ACP session; nothing here runs the agent.
//
// # Methods
//
// The client calls initialize, authenticate (cairn logs in to nothing:
// without provider credentials it offers one method that says what to
// set, and session requests fail with auth_required saying it),
// session/new, session/load (replays the history as session/update
// notifications, then answers), session/resume (the same without the
// replay), session/close, session/list (the stored sessions of a
// directory, or of every directory without a cwd, in one page),
// session/prompt (answered at the end of the turn with its stop reason),
// session/cancel, session/set_mode and session/set_config_option. cairn
// calls session/update and session/request_permission.
//
// Any number of ACP sessions are open at once on one connection (an
// editor opens every thread on it), each a core session of its own with
// its own conversation, directory, model, mode, MCP servers and turn,
// running beside the others; its id is its conversation's id. The first
// session/new in the host's directory without MCP servers of the client's
// uses Host.Session; every other session is built with Host.Open as if
// cairn had been started in its directory, with the client's servers
// beside its own, and closed by session/close or when Serve returns.
// session/load and session/resume open a stored conversation (or answer
// for one open already, also one never prompted); a request naming a
// session that is not open fails with -32002 (resource not found).
// Without Host.Open, only Host.Session's directory is served, one session
// at a time, and another cwd fails with -32602. Approvals, file and
// terminal requests and cancels are each routed to their session.
//
// The MCP servers a client names in mcpServers (stdio, http, sse) are
// checked (-32602 names what is wrong) and given to Host.Open, which
// starts them beside cairn's own configuration. initialize offers http
// and sse MCP servers only with Host.Open.
//
// Slash commands (available_commands_update) are the prompt templates and
// the MCP servers' prompts (/mcp__<server>__<prompt>), listed again once
// servers still starting have started. A prompt starting with an MCP
// prompt's command sends what the server returns for it; asking the server
// does not hold up the reader, so session/cancel still ends the prompt
// ("cancelled") while it waits, and a prompt the server cannot fill is
// refused with -32602 and nothing is sent.
//
// # Mapping
//
// Text and thinking deltas become agent_message_chunk and
// agent_thought_chunk. A tool call becomes tool_call (pending, with its
// ACP kind, locations and, for edit and write, diff content {path, oldText,
// newText}), then tool_call_update: in_progress when it starts to run
// (core.ToolExecutionRunning) or is approved, once, completed or failed at
// its end; updates in between carry content only. When the turn ends, a
// call still open is closed as failed before the prompt is answered.
// usage_update reports the context window's use at the end of each turn;
// each retry of a failed request and each automatic compaction is told
// as a thought. The model's checklist (the todo_write tool,
// tools.TodoWrite, which every mode offers) is sent as a plan update each
// time it changes, with no tool card beside it (a call that fails is one
// failed card), and replayed by session/load, which also replays edit
// cards with their diffs.
//
// Approvals are the core approval gate's questions, asked with
// session/request_permission, the tool card keeping its own title. Its
// options: allow_once; one allow_always, the rule for this session, named
// for what it allows; reject_once; and reject_always, after which the
// gate denies the tool for the rest of the session without asking
// (approval.Gate.DenyTool).
//
// Modes are the approval modes default, auto_edit, plan and yolo, offered both
// as session modes (session/set_mode, current_mode_update) and as the
// config option "mode"; the model ("model", values "provider/id") and the
// thinking level ("thought_level") are config options too.
//
// # The wire
//
// Frames are checked before anything else: invalid JSON gets -32700, a
// message that is not a JSON-RPC 2.0 request, notification or response
// gets -32600, an unknown method -32601, missing or mistyped params
// -32602; the process stays up. A frame longer than MaxFrameBytes is
// skipped without being held in memory and answered with -32600. Only
// frames reach the output. When the input ends, Serve cancels what runs,
// waits for the session to settle and returns; the caller then closes the
// session, which writes its file.
//
// # The client's files and terminals
//
// When the client offers them in initialize (clientCapabilities.fs,
// clientCapabilities.terminal), the built-in tools work through it
// (Host.Workspace): read and edit read text with fs/read_text_file (the
// editor's unsaved buffer included; directories and images are still
// read locally), edit and write write with fs/write_text_file, and bash
// runs `shell -c command` with terminal/create, adds the terminal to its
// tool call (terminal content), waits with terminal/wait_for_exit (killed
// with terminal/kill on cancel or timeout), reads terminal/output and
// releases it. A capability not offered stays local; grep, find and ls
// are always local. Each request is answered within ClientCallLimit or
// withdrawn with $/cancel_request, and the call fails with a message
// naming the method; wait_for_exit lasts as long as the command.
package acp
