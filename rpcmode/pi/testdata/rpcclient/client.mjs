// client.mjs - pi's own RpcClient (npm @mariozechner/pi-coding-agent 0.73.1)
// drives `cairn --mode rpc` through prompt and streaming events, a bash tool
// call, the bash command, abort during a stream, get_state, compaction and
// new_session. One line per check ("ok" or "FAIL"); exits 1 if any failed.
//
//   CAIRN_BIN=/path/to/cairn node client.mjs
//
// The model is cairn's faux provider (a scripted stand-in, no network): the
// script below is written to a temporary CAIRN_DIR, which is removed at the
// end (kept when CAIRN_KEEP_TMP is set).
//
// RpcClient is imported from its own module in the package rather than from
// the package index: the index also loads pi's TUI, which needs Node 20
// (regular expressions with the v flag), while the client needs nothing
// beyond node:child_process, so this runs on Debian's Node 18 as well. It is
// the same class the index exports.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient } from "./node_modules/@mariozechner/pi-coding-agent/dist/modes/rpc/rpc-client.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const PI_VERSION = "0.73.1";
const bin = process.env.CAIRN_BIN;
if (!bin || !fs.existsSync(bin)) {
  console.log(`FAIL setup: CAIRN_BIN must name the cairn binary (got ${JSON.stringify(bin)})`);
  process.exit(2);
}

// --- the faux script: each LLM request takes the next response -------------
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
    { text: SUMMARY },
    { text: LONG },
    { text: TEXT3 },
  ],
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-rpcclient-"));
const cairnDir = path.join(work, "cairn");
const project = path.join(work, "project");
fs.mkdirSync(cairnDir);
fs.mkdirSync(project);
const scriptPath = path.join(work, "faux.json");
fs.writeFileSync(scriptPath, JSON.stringify(script));
// pi compacts even a short conversation; cairn only compacts what lies
// beyond keepRecentTokens (default 20,000), so keep almost nothing here: the
// last message (a `bash` command, which starts a turn) is kept, the rest is
// summarised in one LLM call.
fs.writeFileSync(path.join(cairnDir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 1 } }));

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

const client = new RpcClient({
  cliPath: path.join(here, "cairn.mjs"),
  cwd: project,
  env: { CAIRN_BIN: bin, CAIRN_DIR: cairnDir, CAIRN_FAUX_SCRIPT: scriptPath },
  provider: "faux",
  args: ["--approval", "yolo", "--rpc-compat", "0.73"], // pi 0.73 hosts opt in to its event shapes
});

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

async function main() {
  const piPkg = JSON.parse(fs.readFileSync(path.join(here, "node_modules/@mariozechner/pi-coding-agent/package.json"), "utf8"));
  check(`pi's RpcClient from @mariozechner/pi-coding-agent ${PI_VERSION} (node ${process.version})`, piPkg.version === PI_VERSION, `installed ${piPkg.version}; run npm ci`);
  await client.start();
  let exitCode = null;
  client.process.on("exit", (code) => (exitCode = code));

  // get_state before anything happened
  const s0 = await client.getState();
  check("get_state: faux model", s0.model?.provider === "faux" && s0.model?.id === "faux-1", short(s0.model));
  check("get_state: idle and empty", s0.isStreaming === false && s0.messageCount === 0, short(s0));
  check("get_state: sessionId", typeof s0.sessionId === "string" && s0.sessionId.length > 0, short(s0.sessionId));
  check("get_last_assistant_text before a prompt is undefined", (await client.getLastAssistantText()) === undefined);

  // prompt and streaming events
  const ev1 = await client.promptAndWait("Say hello", undefined, 30_000);
  const types = ev1.filter((e) => e.type !== "message_update").map((e) => e.type + (e.message ? `(${e.message.role})` : ""));
  const want = ["agent_start", "turn_start", "message_start(user)", "message_end(user)", "message_start(assistant)",
    "message_end(assistant)", "turn_end(assistant)", "agent_end"];
  check("prompt: event sequence", JSON.stringify(types) === JSON.stringify(want), types.join(","));
  const updates = ev1.filter((e) => e.type === "message_update");
  const deltas = updates.filter((e) => e.assistantMessageEvent.type === "text_delta");
  check("prompt: streamed in several text_delta updates", deltas.length >= 5, `${deltas.length} deltas`);
  check("prompt: deltas add up to the answer", deltas.map((e) => e.assistantMessageEvent.delta).join("") === TEXT1);
  check("prompt: text_start ... text_end around the deltas",
    updates[0]?.assistantMessageEvent.type === "text_start" && updates.at(-1)?.assistantMessageEvent.type === "text_end",
    updates.map((e) => e.assistantMessageEvent.type).filter((t, i, a) => t !== a[i - 1]).join(","));
  check("prompt: message_update keys in pi's order", updates.every((e) => Object.keys(e).join() === "type,assistantMessageEvent,message"),
    Object.keys(updates[0] ?? {}).join());
  const a1 = lastAssistant(ev1);
  check("prompt: final assistant message", textOf(a1) === TEXT1 && a1.stopReason === "stop", short(a1));
  const end1 = ev1.at(-1);
  check("prompt: agent_end holds this run's messages", end1.messages?.length === 2 && end1.messages[0].role === "user", short(end1.messages?.map((m) => m.role)));
  check("get_last_assistant_text", (await client.getLastAssistantText()) === TEXT1);

  // a bash tool call (approvals off: --approval yolo)
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
  const b1 = await client.bash("echo hello && pwd");
  check("bash: output and exit code", b1.output === `hello\n${fs.realpathSync(project)}\n` && b1.exitCode === 0 && b1.cancelled === false && b1.truncated === false, short(b1));
  const b2 = await client.bash("echo oops >&2; exit 3");
  check("bash: stderr merged, non-zero exit", b2.output.includes("oops") && b2.exitCode === 3 && b2.cancelled === false, short(b2));

  // get_state and the session file so far
  const s1 = await client.getState();
  const msgs = await client.getMessages();
  const roles = msgs.map((m) => m.role);
  check("get_state: idle", s1.isStreaming === false && s1.pendingMessageCount === 0 && s1.isCompacting === false, short(s1));
  check("get_state: messageCount matches get_messages", s1.messageCount === msgs.length && msgs.length === 8, `${s1.messageCount} vs ${roles.join(",")}`);
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
  check("compact: compaction_start/end before the response",
    compEvents.map((e) => e.type).join() === "compaction_start,compaction_end" && compEvents[0].reason === "manual" && compEvents[1].aborted === false,
    short(compEvents));
  const entries = fs.readFileSync(s1.sessionFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  check("compact: one compaction entry in the session file", entries[0].type === "session" && entries.filter((e) => e.type === "compaction").length === 1,
    entries.map((e) => e.type).join(","));
  const afterComp = await client.getMessages();
  check("compact: the summary, then the kept bash message", afterComp.length === 2 && afterComp[0]?.role === "compactionSummary" &&
    afterComp[0].summary === comp.summary && afterComp[1]?.role === "bashExecution", short(afterComp.map((m) => m.role)));

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
  check("abort: turn_end and agent_end follow", ev3.at(-1).type === "agent_end" && ev3.some((e) => e.type === "turn_end"));
  const s4 = await client.getState();
  check("get_state: idle after abort, aborted message kept", s4.isStreaming === false && s4.messageCount === 4, short(s4));

  // new_session
  const ns = await client.newSession();
  check("new_session: not cancelled", ns.cancelled === false, short(ns));
  const s2 = await client.getState();
  check("new_session: empty, new id", s2.messageCount === 0 && s2.sessionId !== s1.sessionId && s2.isStreaming === false, short(s2));
  const ev4 = await client.promptAndWait("Are you there?", undefined, 30_000);
  check("new_session: the next prompt is answered", textOf(lastAssistant(ev4)) === TEXT3, short(lastAssistant(ev4)));
  const s3 = await client.getState();
  check("new_session: a new session file, the old one kept",
    s3.messageCount === 2 && s3.sessionFile && s3.sessionFile !== s1.sessionFile && fs.existsSync(s3.sessionFile) && fs.existsSync(s1.sessionFile),
    short({ old: s1.sessionFile, new: s3.sessionFile, count: s3.messageCount }));

  // stop: SIGTERM through the wrapper; cairn flushes and exits 0
  await client.stop();
  check("stop: cairn exits 0 on SIGTERM", exitCode === 0, `exit ${exitCode}`);
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
  if (crashed) await client.stop().catch(() => {});
  if (!process.env.CAIRN_KEEP_TMP) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
console.log(failures ? `${failures} of ${checks} checks failed` : `all ${checks} checks passed`);
process.exit(failures ? 1 : 0);
