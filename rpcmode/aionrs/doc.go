// Package aionrs serves aionrs's `--json-stream` host protocol, the one
// AionUi speaks to its bundled agent: newline-delimited JSON commands on
// stdin (message, stop, tool_approve, tool_deny, init_history, set_mode,
// set_config, ping, add_mcp_server, and cairn's rewind) and events on
// stdout (ready, stream_start, text_delta, thinking, tool_request,
// tool_running, tool_result, tool_cancelled, stream_end, config_changed,
// mcp_ready, pong, info, error, and cairn's rewind_result and
// rewind_preview).
//
// It is a thin adapter over one core agent.Session: prompts go to
// Session.Prompt, approvals arrive as the core gate's questions and are
// answered with Session.Answer, and every frame is a translation of a core
// event. Serve implements the published specification, including where
// aionrs itself differs from it:
//
//   - scope "always" on tool_approve remembers, for the rest of the process,
//     the rule the approval gate proposes for that call: a command's root
//     command (`echo` for `echo first`, never every command), an edit's
//     file, an MCP tool. Later calls the rule covers skip tool_request.
//     Calls the gate will not let anyone remember (edits of protected
//     files such as .cairn/ or .git/hooks) are allowed once and ask again.
//   - stop cancels the turn (the model request and running tools), emits
//     the turn's stream_end, and the process keeps serving.
//   - init_history counts only before the first message of a conversation
//     that has none yet; it is given to the model with that first message.
//     Later ones (AionUi sends one just before stop) are ignored, so history
//     is never duplicated.
//   - set_mode takes effect at once, also for a tool_request already waiting
//     whose category the new mode allows, and is confirmed by config_changed.
//   - a malformed line, an unknown command type or a command that does not
//     fit the state gets error{code:"protocol_error"}; the process stays up.
//   - edits, and writes that replace a file, report their change as
//     output_type "diff" (a unified diff) with metadata.file_path; a
//     tool_request's arguments name the file file_path, aionrs's name,
//     which AionUi's confirmation reads.
//   - set_config{model?, thinking?, thinking_budget?, effort?} applies at
//     once (after the stream_end of a message in flight, which an info
//     says), then info "config updated: ..." and config_changed. A model
//     id cairn does not list keeps the current server under the new id;
//     thinking, budget and effort set cairn's one thinking level;
//     image_input and compaction are reported unchanged.
//   - while a tool runs, tool_running is sent again every
//     KeepAliveInterval: AionUi ends a turn after 15 s without a frame.
//   - cairn adds one command of its own, rewind{steps?, restore?, redo?,
//     preview?}, read and done by the core as in every adapter: it stops
//     a message in flight (its stream_end comes first), then answers
//     rewind_result (what was restored and what could not be) or
//     rewind_preview; capabilities.rewind reports what a rewind can reach
//     when checkpoints are on. Hosts that never send it see none of this.
//
// Every message accepted gets exactly one stream_start and, whatever
// happens, exactly one stream_end; a message sent while another is in
// flight is refused with an error carrying its msg_id. Lines longer than
// MaxFrameBytes are refused without being held in memory.
package aionrs
