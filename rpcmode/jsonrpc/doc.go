// Package jsonrpc serves OpenAgent-Terminal's host protocol: JSON-RPC 2.0,
// one JSON object per line, over a Unix domain socket on which cairn is the
// server (`cairn --mode jsonrpc --socket PATH`). Each client that connects
// gets an agent session of its own, built by Config.NewAgent, and keeps it
// until it disconnects; the adapter only translates.
//
// # Socket
//
// Listen creates the socket with mode 0600 without a window in which it is
// reachable with looser permissions (it is bound in a private directory
// and linked into place), refuses a path that exists and is not a stale
// socket, and its Close removes the path. DefaultSocketPath is
// $XDG_RUNTIME_DIR/cairn-<pid>.sock, or the same name in the temporary
// directory.
//
// # Methods
//
//   - initialize: must come first; answers {status:"ready", server_info,
//     capabilities, models, session_id, protocol_version}. A
//     protocol_version whose major is not 1 is refused with -32602.
//   - agent.query{message, context?, options?}: answers {query_id,
//     status:"processing"} at once; then stream.token (text deltas),
//     agent.thinking (when the model starts reasoning), stream.block
//     (fenced code in the answer, and the unified diff of every edit),
//     tool.request_approval, tool.progress, tool.complete, and exactly one
//     stream.complete{status success|error|cancelled}, preceded by
//     stream.error when the query failed. One query runs at a time per
//     connection; one sent meanwhile answers {query_id, status:"queued"}
//     and runs when those before it complete (up to 8 wait; more are
//     refused with -32000). The context's cwd,
//     shell, recent commands, recent output and open files are added to the
//     prompt; its env is not (it may hold secrets). options are accepted
//     but do not loosen approvals.
//   - agent.cancel{query_id?}: answers {cancelled, query_id}, then the
//     query ends with stream.complete{status:"cancelled"}; a queued query
//     is dropped and ends the same way.
//   - tool.approve{execution_id, approved, options{remember_choice,
//     apply_to_similar}, reason?}: answers {status approved|rejected,
//     execution_id, remembered}. remember_choice allows what the approval
//     gate would remember for the session (the command prefix, the file;
//     with apply_to_similar, every file of the project); approvals always
//     go through the session's gate.
//   - context.update (notification or request): remembered for the
//     following queries.
//   - session.save{path?}: copies the session file to the absolute path
//     (mode 0600), or reports the current file; answers {saved, path,
//     size, session_id}.
//   - session.load{path | session_id}: continues a stored session; answers
//     {loaded, session{id, path, created, messages_count, blocks_count},
//     session_id, messages[{role, content, timestamp, token_count}]}.
//   - session.list{limit?}: {sessions[{session_id, title, created_at,
//     updated_at, message_count, total_tokens}]} of this directory, newest
//     first. session.export{session_id?, format?:"markdown"}: {format,
//     content}. session.delete{session_id}: {deleted}; the session open on
//     the connection is refused with -32000.
//   - cairn.rewind{steps?, restore?, redo?, preview?}: cairn's own method,
//     under a namespace of its own, read and done by the core as in every
//     adapter. The running query is cancelled and the queued ones dropped
//     first (each ends with stream.complete "cancelled" before the
//     answer); the result says what was restored (restored, files,
//     not_restored, outside, undo_checkpoint) and the rewind state after
//     it (rewind{points, can_redo}); initialize lists the capability
//     "rewind" while checkpoints are on. Bad params are -32602, a rewind
//     that cannot be done -32000.
//
// # What the shipped terminal reads
//
// OpenAgent-Terminal's client reads the names its Python backend sends,
// not all of docs/IPC_PROTOCOL.md's, so cairn sends both: stream.token
// carries content and type:"text" beside token; stream.block carries type,
// content and language flat beside block; tool.request_approval carries
// tool_name, description, risk_level and preview (the command, diff or
// new content as a string) beside tool and risk_assessment, with the
// preview object under preview_detail. Session ids may be given whole,
// by name or by a unique prefix; timestamps are RFC 3339.
//
// # Errors
//
// -32700 for a line that is not JSON, -32600 for one that is not a
// JSON-RPC 2.0 request (or is a batch, or comes before initialize, or is
// longer than MaxMessageBytes, which is refused without being read into
// memory), -32601 for an unknown method, -32602 for bad parameters, -32603
// for a failure inside cairn (or a session that could not be built),
// -32000 for what the agent refuses (a second query, saving an empty
// session), -32001 in the stream.error of a query the model failed, and
// -32005 for a client over Config.MaxClients. A cancelled query is not an
// error: it ends with stream.complete{status:"cancelled"}. Notifications
// never get a response, not even an error. The connection stays open after
// every error, except the last two.
//
// # Disconnecting
//
// When a client goes away its query is cancelled, its session closed and
// its session file flushed. When Serve's context ends, every connection is
// closed that way and Serve returns.
package jsonrpc
