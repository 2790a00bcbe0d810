// client.mjs - pi 0.87.1's own RpcClient (npm @earendil-works/pi-coding-agent)
// drives `cairn --mode rpc` through the same 41 checks as ../rpcclient
// (0.73.1): prompt and streaming events, a bash tool call, the bash command,
// abort during a stream, get_state, compaction and new_session. One line per
// check ("ok" or "FAIL"); exits 1 if any failed.
//
//   CAIRN_BIN=/path/to/cairn node client.mjs
//   RPCCLIENT_TARGET=pi PI_NODE=/path/to/node22 node client.mjs   # pi itself
//
// The model is scripted (see target.mjs): cairn's faux provider, or for pi
// the Go test's fake model. Everything lives in a temporary directory,
// removed at the end (kept when CAIRN_KEEP_TMP is set).
//
// Where a check differs from 0.73.1's, a comment marked "0.87:" says what
// changed in pi's RpcClient or its documented protocol
// (../shared/reference/pi-docs/0.87.1: rpc.md, rpc-commands.md, json.md,
// message-types.md, session-format.md). In short:
//   - RpcClient.collectEvents, promptAndWait and waitForIdle now resolve on
//     agent_settled, which follows agent_end; agent_end carries willRetry.
//   - message_update on the wire is delta-only: {type, usage,
//     assistantMessageEvent}, without the cumulative message and without
//     assistantMessageEvent.partial; text_end carries the block's content.
//   - The first request of a session starts with a system message (the
//     prompt sections and tool declarations); it is an agent message like any
//     other: message_start/end, agent_end.messages, get_messages, and the
//     leading message of the context after compaction.
//   - The bash command streams bash_execution_update events carrying the
//     command's id.
//   - get_last_assistant_text: the docs now say text is null when there is
//     no assistant text; pi 0.87.1 itself still leaves it out. Either passes.
//
// RpcClient is imported from its own module in the package rather than from
// the package index, as in ../rpcclient: the index also loads pi's TUI and
// runtime, and the package declares Node >= 22.19, while rpc-client.js needs
// only node:child_process and node:string_decoder, so the client runs on
// Node 20 (and 18). It is the same class the index exports.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient } from "./node_modules/@earendil-works/pi-coding-agent/dist/modes/rpc/rpc-client.js";
import { startTarget } from "./target.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const PI_VERSION = "0.87.1";

// --- the scripted model: each LLM request takes the next response ----------
const TEXT1 = "Hello from cairn, streamed through pi's RpcClient.";
const TOOL_CMD = "echo tool-ok";
const TEXT2 = "The command printed tool-ok.";
const LONG = "This answer is long so that it can be aborted mid-stream. ".repeat(60);
const SUMMARY = "## Goal\nExercise cairn through pi's RpcClient.\n\n## Progress\nHello, a bash tool call, an aborted essay.";
const TEXT3 = "A fresh session answers.";
const script = {
  chunkSize: 4,
  tokensPerSecond: 100, // 10 ms per 4-character delta: short answers take ~0.2 s, LONG ~9 s
  responses: [
    { text: TEXT1 },
    { content: [{ type: "toolCall", id: "call_rpc_1", name: "bash", arguments: { command: TOOL_CMD } }] },
    { text: TEXT2 },
    { text: SUMMARY, summarize: true },
    { text: LONG },
    { text: TEXT3 },
  ],
};

// --- checks ----------------------------------------------------------------
let failures = 0;
let checks = 0;
function check(name, cond, detail) {
  checks++;
  if (cond) console.log(`ok   ${name}`);
  else {
    failures++;
    console.log(`FAIL ${name}${detail === undefined ? "" : ": " + (typeof detail === "string" ? detail : JSON.stringify(detail))}`);
  }
  return cond;
}
const short = (v) => {
  const s = JSON.stringify(v);
  return s && s.length > 300 ? s.slice(0, 300) + "..." : s;
};

const watchdog = setTimeout(() => {
  console.log("FAIL watchdog: the run took longer than 90 s");
  process.exit(1);
}, 90_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-rpcclient087-"));
let target = null;
let client = null;

// waitEvent resolves with the first event matching pred.
function waitEvent(pred, label, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timeout waiting for ${label}`));
    }, timeoutMs);
    const off = client.onEvent((e) => {
      if (pred(e)) {
        clearTimeout(timer);
        off();
        resolve(e);
      }
    });
  });
}

const textOf = (m) => (m?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
const lastAssistant = (events) => [...events].reverse().find((e) => e.type === "message_end" && e.message.role === "assistant")?.message;
// 0.87: the agent messages of a conversation, without the system messages
// that declare its prompt and tools.
const spoken = (messages) => messages.filter((m) => m.role !== "system");

async function main() {
  const piPkg = JSON.parse(fs.readFileSync(path.join(here, "node_modules/@earendil-works/pi-coding-agent/package.json"), "utf8"));
  check(`pi's RpcClient from @earendil-works/pi-coding-agent ${PI_VERSION} (node ${process.version})`, piPkg.version === PI_VERSION, `installed ${piPkg.version}; run npm ci`);
  // pi compacts even a short conversation; cairn only compacts what lies
  // beyond keepRecentTokens (default 20,000), so keep almost nothing here: the
  // last message (a `bash` command, which starts a turn) is kept, the rest is
  // summarised in one LLM call.
  target = await startTarget(work, script, { compaction: { keepRecentTokens: 1 } });
  const project = target.project;
  client = new RpcClient(target.options);
  await client.start();
  let exitCode = null;
  client.process.on("exit", (code) => (exitCode = code));

  // get_state before anything happened
  const s0 = await client.getState();
  check(`get_state: ${target.model.provider} model`, s0.model?.provider === target.model.provider && s0.model?.id === target.model.id, short(s0.model));
  check("get_state: idle and empty", s0.isStreaming === false && s0.messageCount === 0, short(s0));
  check("get_state: sessionId", typeof s0.sessionId === "string" && s0.sessionId.length > 0, short(s0.sessionId));
  // 0.87: rpc-commands.md: "The `text` value is `null` if no assistant text
  // exists"; pi 0.87.1 sends {} (undefined), as 0.73.1 did.
  const noText = await client.getLastAssistantText();
  check("get_last_assistant_text before a prompt is null or undefined", noText === null || noText === undefined, short(noText));

  // prompt and streaming events
  const ev1 = await client.promptAndWait("Say hello", undefined, 30_000);
  const types = ev1.filter((e) => e.type !== "message_update").map((e) => e.type + (e.message ? `(${e.message.role})` : ""));
  // 0.87: the session's first request declares its prompt and tools in a
  // system message, ahead of the user's; agent_settled follows agent_end.
  const want = ["agent_start", "turn_start", "message_start(system)", "message_end(system)", "message_start(user)", "message_end(user)",
    "message_start(assistant)", "message_end(assistant)", "turn_end(assistant)", "agent_end", "agent_settled"];
  check("prompt: event sequence", JSON.stringify(types) === JSON.stringify(want), types.join(","));
  const updates = ev1.filter((e) => e.type === "message_update");
  const deltas = updates.filter((e) => e.assistantMessageEvent.type === "text_delta");
  check("prompt: streamed in several text_delta updates", deltas.length >= 5, `${deltas.length} deltas`);
  check("prompt: deltas add up to the answer", deltas.map((e) => e.assistantMessageEvent.delta).join("") === TEXT1);
  check("prompt: text_start ... text_end around the deltas",
    updates[0]?.assistantMessageEvent.type === "text_start" && updates.at(-1)?.assistantMessageEvent.type === "text_end",
    updates.map((e) => e.assistantMessageEvent.type).filter((t, i, a) => t !== a[i - 1]).join(","));
  // 0.87: json.md, "Reconstruct streaming messages": wire message_update is
  // delta-only, {type, usage, assistantMessageEvent}, with no cumulative
  // message and no assistantMessageEvent.partial; text_end carries the
  // block's authoritative content. (0.73.1: type, assistantMessageEvent,
  // message, with partial.)
  const badUpdate = updates.find((e) => Object.keys(e).join() !== "type,usage,assistantMessageEvent" || "partial" in e.assistantMessageEvent ||
    typeof e.usage?.totalTokens !== "number");
  const textEnd = updates.find((e) => e.assistantMessageEvent.type === "text_end")?.assistantMessageEvent;
  check("prompt: delta-only message_update (type, usage, assistantMessageEvent; no message, no partial)",
    badUpdate === undefined && textEnd?.content === TEXT1 && textEnd?.contentIndex === 0,
    short(badUpdate ?? textEnd));
  const a1 = lastAssistant(ev1);
  check("prompt: final assistant message", textOf(a1) === TEXT1 && a1.stopReason === "stop", short(a1));
  // 0.87: agent_end lists the system message too (it is one of the run's
  // messages), and says willRetry.
  const end1 = ev1.findLast((e) => e.type === "agent_end");
  check("prompt: agent_end holds this run's messages",
    JSON.stringify(end1?.messages?.map((m) => m.role)) === '["system","user","assistant"]' && end1.willRetry === false,
    short({ roles: end1?.messages?.map((m) => m.role), willRetry: end1?.willRetry }));
  check("get_last_assistant_text", (await client.getLastAssistantText()) === TEXT1);

  // a bash tool call (cairn: approvals off with --approval yolo)
  const ev2 = await client.promptAndWait("Run echo through the bash tool", undefined, 30_000);
  const tStart = ev2.find((e) => e.type === "tool_execution_start");
  const tEnd = ev2.find((e) => e.type === "tool_execution_end");
  check("tool: tool_execution_start bash", tStart?.toolName === "bash" && tStart?.args?.command === TOOL_CMD && tStart?.toolCallId === "call_rpc_1", short(tStart));
  check("tool: tool_execution_end ok", tEnd?.isError === false && textOf(tEnd?.result).includes("tool-ok"), short(tEnd));
  const toolResult = ev2.find((e) => e.type === "message_end" && e.message.role === "toolResult")?.message;
  check("tool: toolResult message", toolResult?.toolCallId === "call_rpc_1" && textOf(toolResult).includes("tool-ok"), short(toolResult));
  check("tool: the model answers after the result", textOf(lastAssistant(ev2)) === TEXT2, short(lastAssistant(ev2)));
  check("tool: one agent run, two turns", ev2.filter((e) => e.type === "turn_start").length === 2 && ev2.filter((e) => e.type === "agent_start").length === 1);

  // the bash command (runs in the session's cwd, no LLM call)
  // 0.87: json.md, "RPC-only events": the output also streams as
  // bash_execution_update events that repeat the command's id (RpcClient
  // numbers its requests req_1, req_2, ...).
  const bashUpdates = [];
  const offBash = client.onEvent((e) => e.type === "bash_execution_update" && bashUpdates.push(e));
  const b1 = await client.bash("echo hello && pwd");
  offBash();
  const streamed = bashUpdates.map((e) => e.delta).join("");
  const ids = [...new Set(bashUpdates.map((e) => e.id))];
  check("bash: output and exit code, streamed as bash_execution_update",
    b1.output === `hello\n${fs.realpathSync(project)}\n` && b1.exitCode === 0 && b1.cancelled === false && b1.truncated === false &&
      streamed === b1.output && ids.length === 1 && /^req_\d+$/.test(ids[0]),
    short({ b1, updates: bashUpdates }));
  const b2 = await client.bash("echo oops >&2; exit 3");
  check("bash: stderr merged, non-zero exit", b2.output.includes("oops") && b2.exitCode === 3 && b2.cancelled === false, short(b2));

  // get_state and the session file so far
  const s1 = await client.getState();
  const msgs = await client.getMessages();
  const roles = msgs.map((m) => m.role);
  check("get_state: idle", s1.isStreaming === false && s1.pendingMessageCount === 0 && s1.isCompacting === false, short(s1));
  // 0.87: 8 messages as in 0.73.1, plus the leading system message.
  check("get_state: messageCount matches get_messages", s1.messageCount === msgs.length && roles[0] === "system" && spoken(msgs).length === 8,
    `${s1.messageCount} vs ${roles.join(",")}`);
  check("get_messages: bash commands stored as bashExecution", roles.filter((r) => r === "bashExecution").length === 2, roles.join(","));
  check("get_state: session file on disk", typeof s1.sessionFile === "string" && fs.existsSync(s1.sessionFile), short(s1.sessionFile));
  const stats = await client.getSessionStats();
  check("get_session_stats", stats.sessionId === s1.sessionId && stats.userMessages === 2 && stats.assistantMessages === 3 && stats.toolCalls === 1, short(stats));

  // compaction
  const compEvents = [];
  const offComp = client.onEvent((e) => e.type.startsWith("compaction_") && compEvents.push(e));
  const comp = await client.compact();
  offComp();
  check("compact: summary", comp.summary?.includes("Exercise cairn through pi's RpcClient."), short(comp));
  check("compact: tokensBefore and firstKeptEntryId", comp.tokensBefore > 0 && typeof comp.firstKeptEntryId === "string", short(comp));
  // 0.87: json.md: compaction_end also carries the reason and the result.
  check("compact: compaction_start/end before the response",
    compEvents.map((e) => e.type).join() === "compaction_start,compaction_end" && compEvents[0].reason === "manual" &&
      compEvents[1].reason === "manual" && compEvents[1].aborted === false && compEvents[1].result?.summary === comp.summary,
    short(compEvents));
  const entries = fs.readFileSync(s1.sessionFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  check("compact: one compaction entry in the session file", entries[0].type === "session" && entries.filter((e) => e.type === "compaction").length === 1,
    entries.map((e) => e.type).join(","));
  // 0.87: session-format.md: the compaction's system checkpoint becomes the
  // leading system message of the compacted context.
  const afterComp = await client.getMessages();
  const keptRoles = afterComp.map((m) => m.role);
  check("compact: the system checkpoint, the summary, then the kept bash message",
    keptRoles.join() === "system,compactionSummary,bashExecution" && afterComp[1].summary === comp.summary, keptRoles.join());

  // abort during a stream; get_state is answered while streaming
  const ev3p = client.collectEvents(30_000);
  const firstDelta = waitEvent((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta", "first text_delta");
  await client.prompt("Write a long essay");
  await firstDelta;
  const sStreaming = await client.getState();
  check("get_state while streaming: isStreaming", sStreaming.isStreaming === true, short(sStreaming));
  const t0 = Date.now();
  await client.abort();
  const abortMs = Date.now() - t0;
  const ev3 = await ev3p;
  check("abort: answered promptly", abortMs < 3000, `${abortMs} ms`);
  const a3 = lastAssistant(ev3);
  check("abort: message_end stopReason aborted", a3?.stopReason === "aborted", short(a3 && { stopReason: a3.stopReason, errorMessage: a3.errorMessage }));
  check("abort: the stream was cut short", textOf(a3).length > 0 && textOf(a3).length < LONG.length && LONG.startsWith(textOf(a3)), `${textOf(a3).length} of ${LONG.length} chars`);
  // 0.87: agent_settled closes the run, after agent_end.
  check("abort: turn_end, agent_end and agent_settled follow",
    ev3.map((e) => e.type).slice(-2).join() === "agent_end,agent_settled" && ev3.some((e) => e.type === "turn_end"),
    ev3.map((e) => e.type).filter((t) => t !== "message_update").join());
  const s4 = await client.getState();
  const afterAbort = await client.getMessages();
  check("get_state: idle after abort, aborted message kept", s4.isStreaming === false && spoken(afterAbort).length === 4 && s4.messageCount === afterAbort.length,
    short({ s4, roles: afterAbort.map((m) => m.role) }));

  // new_session
  const ns = await client.newSession();
  check("new_session: not cancelled", ns.cancelled === false, short(ns));
  const s2 = await client.getState();
  check("new_session: empty, new id", s2.messageCount === 0 && s2.sessionId !== s1.sessionId && s2.isStreaming === false, short(s2));
  const ev4 = await client.promptAndWait("Are you there?", undefined, 30_000);
  check("new_session: the next prompt is answered", textOf(lastAssistant(ev4)) === TEXT3, short(lastAssistant(ev4)));
  const s3 = await client.getState();
  // 0.87: a new session's first request declares the prompt again: system,
  // user, assistant.
  check("new_session: a new session file, the old one kept",
    s3.messageCount === 3 && s3.sessionFile && s3.sessionFile !== s1.sessionFile && fs.existsSync(s3.sessionFile) && fs.existsSync(s1.sessionFile),
    short({ count: s3.messageCount, old: s1.sessionFile, new: s3.sessionFile }));

  // stop: SIGTERM (through cairn.mjs for cairn); the agent flushes and exits
  // (cairn with 0; pi 0.87.1 disposes its runtime and exits 143).
  await client.stop();
  check(`stop: ${target.name} exits ${target.sigtermExit} on SIGTERM`, exitCode === target.sigtermExit, `exit ${exitCode}`);
}

let crashed = null;
try {
  await main();
} catch (e) {
  crashed = e;
  console.log(`FAIL ${e?.stack ?? e}`);
  checks++;
  failures++;
} finally {
  clearTimeout(watchdog);
  if (crashed && client) await client.stop().catch(() => {});
  if (target) await target.stop();
  if (!process.env.CAIRN_KEEP_TMP) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
console.log(failures ? `${failures} of ${checks} checks failed` : `all ${checks} checks passed`);
process.exit(failures ? 1 : 0);
