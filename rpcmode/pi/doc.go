// Package pi speaks pi's wire formats: the JSON event lines of `--mode json`
// (AppendEvent) and, with `--mode rpc`, pi's newline-delimited JSON protocol
// (Serve): commands on stdin; responses, events and extension UI requests on
// stdout. Hosts written for pi 0.73 (and oh-my-pi) drive cairn unchanged.
//
// # Wiring
//
// Build the UI first (NewUI) and give it to the approval gate, so tool
// approvals travel as extension_ui_request "select" frames; build the
// session; then call Serve with a Host holding the session, the model
// catalog, the settings store, the session files (NewMemorySessions for
// --no-session, whose Store must be the session's store) and the UI. Serve
// returns when stdin ends.
//
// # Commands
//
// Every command of pi 0.73: prompt, steer, follow_up, abort, new_session,
// get_state, set_model, cycle_model, get_available_models,
// set_thinking_level, cycle_thinking_level, set_steering_mode,
// set_follow_up_mode, compact, set_auto_compaction, set_auto_retry,
// abort_retry, bash, abort_bash, get_session_stats, export_html,
// switch_session, fork, get_fork_messages, get_last_assistant_text,
// set_session_name, get_messages and get_commands; the ones pi added
// since, up to 1.5: clear_queue, get_available_thinking_levels, clone,
// get_entries and get_tree, and the disposition ("started" or "queued") in
// the responses of prompt, steer and follow_up; and oh-my-pi's
// set_interrupt_mode, branch and get_branch_messages (fork and
// get_fork_messages by their omp names), abort_and_prompt (abort, wait for
// the prompt to settle, send a new one) and set_event_filter; and cairn's
// own set_approval_mode and get_mcp_servers (Host.MCP's servers, their
// state, tools and prompts):
//
//	{"type":"set_event_filter","events":["message_update","agent_end"],"messageUpdates":"delta"}
//
// events lists the event types written (null: all; responses and extension
// UI requests are always written); messageUpdates "delta" leaves the
// partial message out of message_update frames, so a long answer costs
// bytes linear in its length instead of quadratic.
//
// Host.Prompts are the prompt templates: get_commands lists them, and a
// prompt, steer or follow_up message starting with a template's /name is
// sent as the template's text, its arguments filled in. The MCP servers'
// prompts (Host.MCPPrompts) work the same way as /mcp__<server>__<prompt>
// (source "mcp" in get_commands, which pi does not have): the words after
// the name fill the prompt's arguments, in order or as name=value, and a
// missing required argument is the command's error. The server is asked
// before the next command is dispatched, so the messages keep their order;
// a server still starting, or slow to answer, holds the commands after it
// for up to its timeout, except that an abort ends the wait at once (the
// prompt is refused "aborted"; frames are read one ahead of dispatch for
// this).
//
// # Persisting settings
//
// The setters (set_model, cycle_model, set_thinking_level,
// cycle_thinking_level, set_steering_mode, set_follow_up_mode,
// set_interrupt_mode, set_auto_compaction, set_auto_retry) change the
// running session only. pi also writes every change to the global settings
// file; cairn does that only when the command says so with "persist":true:
//
//	{"id":"1","type":"set_model","provider":"anthropic","modelId":"claude-sonnet-4-5","persist":true}
//
// # Where cairn differs from pi on purpose
//
//   - Every command gets exactly one response, and it echoes the command's
//     id: also for an unknown command, a missing or ill-typed field, a
//     handler's failure (pi answers those as command "parse" without an id)
//     and a refused prompt (pi may answer twice). A line that is not one
//     JSON object (null, 42, [], two objects) gets a "parse" error with the
//     id when one can be read, and the process carries on (null kills pi).
//   - A missing or ill-typed field is named in the error (`field "message"
//     is required: a string`) instead of leaking an internal exception; an
//     invalid thinking level is an error, not silently ignored.
//   - Blank lines are skipped (pi answers each with a parse error).
//   - Lines longer than 64 MiB are answered with an error and skipped up to
//     the next newline.
//   - get_state also reports oh-my-pi's interruptMode, and cairn's own
//     approvalMode when the session has an approval gate.
//   - agent_settled follows the last agent_end of each prompt, retries and
//     compactions included, so hosts know when a prompt is really done; it
//     carries pi 1.5's aborted and cairn's own error (set on an abort too).
//   - Tool approvals: cairn's command line starts --mode rpc in approval
//     mode auto (pi asks nothing; auto still asks before an edit of a
//     protected file), and every question carries a timeout after which
//     it is denied, so a host that never answers is never kept waiting.
//   - Setters persist only when asked (above).
//   - When stdin ends, a running prompt is aborted and its last events (its
//     agent_end among them) are written before Serve returns; pi exits at
//     once without them.
//   - Store failures reach the host as notify requests.
//   - export_html answers with the absolute path of the page it wrote (pi
//     echoes a relative outputPath as given), named
//     cairn-session-<session file name>.html by default.
package pi
