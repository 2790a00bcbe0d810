// Package synaps speaks the synaps rpc protocol (`cairn --mode synaps`, or
// `--mode rpc --rpc-dialect synaps`): the parent↔child channel the
// synaps-bridge daemon uses to drive one agent per conversation thread.
// It is a thin adapter over the core session (agent.Session): commands
// become session calls, session events become frames.
//
// # Wire
//
// One JSON object per line, UTF-8, '\n'-terminated, in both directions.
// Serve writes ready{session_id, model, protocol_version:1} before reading
// anything, then answers every command but shutdown with
//
//	{"type":"response","id":"<the command's id>","command":"<its type>", ...body}
//
// where the body's keys sit at the top level. Streaming output is
// message_update{event:{type: text_delta | thinking_delta | toolcall_start |
// toolcall_input_delta | toolcall_input | toolcall_result}}; a prompt ends
// with agent_end{usage} and then its response. An inbound line longer than
// MaxFrameBytes (1 MiB) is refused without being held in memory, and it, or
// a line that is not a JSON object, gets error{id:null}; serving goes on.
//
// # Commands
//
// prompt{id, message, attachments[{path, name?, mime?}]} and
// follow_up{id, message} take the same path: while a prompt is in flight
// both get error{id, "another prompt is in flight; abort first"} and the
// running turn is left alone; so does new_session. Attachment paths must be absolute and free of
// ".." segments; cairn does not read them, it prepends a note naming them
// to the message, and the model reads them with its tools.
//
// abort{id} cancels the turn; the frames come in the order agent_end,
// response(prompt, {ok:true, cancelled:true}), response(abort, {ok:true}).
// While idle abort answers {ok:true} at once.
//
// compact{id} answers response{command:"compact.disclosure"} before the
// model is asked for a summary, then response{command:"compact", summary,
// disclosure}. new_session, get_messages (messages in pi's JSON shape),
// set_model (a model id, or provider/id), get_available_models,
// get_session_stats, get_state and tools_list (its id is optional) answer
// with their data and "ok"; a command that fails answers ok:false with an
// "error". shutdown, or the end of stdin, aborts a running turn, writes its
// last frames (agent_end and its cancelled response) and returns; the
// caller then flushes the session file and exits 0.
//
// rewind{id, steps?, restore?, redo?, preview?} is cairn's own command
// (synaps leaves a response's body open to new command names, and the
// bridge never sends it): it is read and done by the core as in every
// adapter. A prompt or a compaction in flight is stopped first, ending as
// an abort ends it; then response(rewind) says what was restored
// (restored, files, not_restored, outside, undo_checkpoint) and the
// rewind state after it (rewind{enabled, points, can_redo}), which
// get_state also reports while checkpoints are on.
//
// # Approvals
//
// synaps has no approval frames, so nobody can answer a question in this
// mode. cairn therefore runs it unattended: a tool call the approval gate
// would ask about is refused at once, and the refusal (saying how to allow
// it) reaches the model as the tool's error result and the host as a
// toolcall_result. What runs without asking is what the approval mode and
// the project's rules allow: read-only tools by default, edits too with
// --approval auto_edit, everything with --approval yolo.
//
// # Where cairn differs from SynapsCLI
//
//   - A line that is valid JSON but not a usable command (no type, an
//     unknown type, a missing or ill-typed field) gets error{id, message}
//     naming the problem, with the id when one could be read; blank lines
//     are skipped.
//   - tools_list without an id is answered with "id":null.
//   - Runtime event frames and auto-turns are not sent: cairn has no
//     runtime event sources.
//
// # Subagents
//
// A task call's child (a subagent) is reported as seed 002 defines it:
// subagent_start{subagent_id, agent_name, task_preview} when it starts,
// subagent_update{subagent_id, agent_name, status} as it answers
// ("running") and calls tools ("tool_call"), and subagent_done{subagent_id,
// agent_name, result_preview, duration_secs} when it ends, before the task
// call's toolcall_result. Its usage counts in agent_end's.
package synaps
