// subagents.mjs - pi 0.87.1's own RpcClient drives `cairn --mode rpc` through
// one answer with two task calls (subagents): each child's progress comes as
// tool_execution_update of its task call, with the child's own events in
// pi's shape under details.event; both children run at once; the parent
// gets both answers; get_session_stats counts the children's tokens; and
// get_messages links each result to the child's transcript. One line per
// check; exits 1 if any failed. cairn only (pi has no task tool).
//
//   CAIRN_BIN=/path/to/cairn node subagents.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RpcClient } from "./node_modules/@earendil-works/pi-coding-agent/dist/modes/rpc/rpc-client.js";
import { startTarget } from "./target.mjs";

const A = "Child one found the answer in a.go, line 12.";
const B = "Child two found the answer in b.go, line 34.";
const task = (id, type, description, prompt) => ({ type: "toolCall", id, name: "task", arguments: { description, prompt, subagent_type: type } });
const script = {
  chunkSize: 4,
  tokensPerSecond: 100, // each child's answer streams for ~0.1 s, so the two overlap
  responses: [
    { content: [task("call_t1", "explore", "find a", "Find A."), task("call_t2", "general-purpose", "find b", "Find B.")] },
    { text: A },
    { text: B },
    { text: "Both children answered." },
  ],
};

let failures = 0;
function check(name, cond, detail) {
  if (cond) console.log(`ok   ${name}`);
  else {
    failures++;
    console.log(`FAIL ${name}${detail === undefined ? "" : ": " + (typeof detail === "string" ? detail : JSON.stringify(detail).slice(0, 600))}`);
  }
}
const textOf = (m) => (m?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
const watchdog = setTimeout(() => {
  console.log("FAIL watchdog: the run took longer than 60 s");
  process.exit(1);
}, 60_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-subagents-"));
let client = null;
async function main() {
  const target = await startTarget(work, script, {});
  client = new RpcClient(target.options);
  await client.start();
  const events = await client.promptAndWait("Find A and B with two subagents", undefined, 30_000);
  const starts = events.filter((e) => e.type === "tool_execution_start" && e.toolName === "task");
  check("two task calls start", starts.length === 2, starts.map((e) => e.toolCallId));
  const updates = events.filter((e) => e.type === "tool_execution_update" && e.toolName === "task");
  const ends = events.filter((e) => e.type === "tool_execution_end" && e.toolName === "task");
  const idx = (pred) => events.findIndex(pred);
  const firstUpdate = (id) => idx((e) => e.type === "tool_execution_update" && e.toolCallId === id);
  const end = (id) => idx((e) => e.type === "tool_execution_end" && e.toolCallId === id);
  check("both children run at once (each one's first update before the other's end)",
    firstUpdate("call_t1") >= 0 && firstUpdate("call_t2") >= 0 && firstUpdate("call_t1") < end("call_t2") && firstUpdate("call_t2") < end("call_t1"));
  const d = updates.map((e) => e.partialResult.details);
  check("updates carry the subagent's progress in details",
    d.every((x) => typeof x?.subagentId === "number" && typeof x?.agent === "string" && typeof x?.status === "string"),
    d.slice(0, 2));
  check("updates say the agent and task", updates.some((e) => e.toolCallId === "call_t1" && e.partialResult.details.agent === "explore" && e.partialResult.details.task === "find a"));
  const childEvents = d.filter((x) => x.event).map((x) => x.event.type);
  check("the child's own events, in pi's shape, under details.event",
    childEvents.includes("turn_start") && childEvents.includes("message_end") &&
      d.some((x) => x.event?.type === "message_end" && x.event.message?.role === "assistant" && [A, B].includes(textOf(x.event.message))),
    childEvents);
  check("progress reads as text too", updates.every((e) => typeof textOf(e.partialResult) === "string" && textOf(e.partialResult).length > 0));
  const answers = ends.map((e) => textOf(e.result)).sort();
  check("the parent gets both children's answers", JSON.stringify(answers) === JSON.stringify([A, B].sort()) && ends.every((e) => e.isError === false), answers);
  const last = events.findLast((e) => e.type === "message_end" && e.message.role === "assistant")?.message;
  check("the parent answers after both", textOf(last) === "Both children answered.", textOf(last));

  const stats = await client.getSessionStats();
  const msgs = await client.getMessages();
  const own = msgs.filter((m) => m.role === "assistant").reduce((n, m) => n + (m.usage?.totalTokens ?? 0), 0);
  const childTokens = msgs.filter((m) => m.role === "toolResult" && m.toolName === "task").reduce((n, m) => n + (m.details?.usage?.totalTokens ?? 0), 0);
  check("get_session_stats counts the children's tokens", childTokens > 0 && stats.tokens?.total === own + childTokens, { stats: stats.tokens, own, childTokens });
  const results = msgs.filter((m) => m.role === "toolResult" && m.toolName === "task");
  check("get_messages: each task result links its child's transcript",
    results.length === 2 && results.every((m) => typeof m.details?.transcript === "string" && fs.existsSync(m.details.transcript)),
    results.map((m) => m.details?.transcript));
  const lines = fs.readFileSync(results[0].details.transcript, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  check("a transcript is a session file (header, then the child's messages)",
    lines[0].type === "session" && lines.slice(1).some((l) => l.type === "message" && l.message.role === "assistant"), lines.map((l) => l.type));
}

main()
  .catch((err) => {
    failures++;
    console.log(`FAIL ${err?.stack ?? err}`);
  })
  .finally(async () => {
    clearTimeout(watchdog);
    try {
      await client?.stop();
    } catch {}
    if (!process.env.CAIRN_KEEP_TMP) fs.rmSync(work, { recursive: true, force: true });
    process.exit(failures ? 1 : 0);
  });
