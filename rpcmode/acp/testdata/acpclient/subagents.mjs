// Drives `cairn --mode acp` with the official ACP TypeScript SDK through
// subagents (the task tool). Run by rpcmode/acp's TestOfficialClientSubagents:
//   node subagents.mjs <cairn binary> <project dir>
// with CAIRN_DIR and CAIRN_FAUX_SCRIPT set. Prints one JSON line with what
// it saw; exits 1 with the reason on failure.
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect, runFlows, startCairn } from "./harness.mjs";

const [bin, project] = process.argv.slice(2);
const cairn = startCairn(bin, project, ["--provider", "priced", "--model", "faux-priced"]);

function check(cond, what) {
  if (!cond) throw new Error(what);
}

const updates = [];
const permissions = [];
const app = acp
  .client({ name: "cairn-test" })
  .onNotification(acp.methods.client.session.update, ({ params }) => updates.push(params))
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    permissions.push(params);
    const opt = params.options.find((o) => o.kind === "allow_once");
    return { outcome: { outcome: "selected", optionId: opt.optionId } };
  });
const conn = connect(app, cairn);
const agent = conn.agent;
const since = (n, sid) => updates.slice(n).filter((u) => u.sessionId === sid).map((u) => u.update);
const prompt = (sessionId, text) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
const textOf = (content) => (content ?? []).filter((c) => c.type === "content" && c.content.type === "text").map((c) => c.content.text).join("");

await runFlows(cairn, conn, async (seen) => {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "cairn-test", version: "0" },
  });
  const { sessionId: sid } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });

  // Two explore children in one answer.
  let n = updates.length;
  let res = await prompt(sid, "explore twice");
  check(res.stopReason === "end_turn", `two tasks: ${res.stopReason}`);
  const u1 = since(n, sid);
  seen.taskKinds = u1.filter((u) => u.sessionUpdate === "tool_call").map((u) => `${u.toolCallId}:${u.kind}`);
  seen.liveContent = ["t1", "t2"].map((id) =>
    u1.some((u) => u.toolCallId === id && u.sessionUpdate === "tool_call_update" && (u.status === undefined || u.status === "in_progress") && textOf(u.content).includes("explore")));
  seen.answers = ["t1", "t2"].map((id) => textOf(u1.find((u) => u.toolCallId === id && u.status === "completed")?.content));
  const usage = u1.filter((u) => u.sessionUpdate === "usage_update").at(-1);
  seen.usageCost = usage?.cost ? { currency: usage.cost.currency, positive: usage.cost.amount > 0 } : null;

  // A general-purpose child whose write asks through the session.
  n = updates.length;
  res = await prompt(sid, "delegate a write");
  check(res.stopReason === "end_turn", `write task: ${res.stopReason}`);
  check(permissions.length === 1, `${permissions.length} permission requests`);
  const p = permissions[0];
  seen.permission = {
    toolCallId: p.toolCall.toolCallId,
    labelled: p.toolCall.title.includes("subagent general-purpose") && p.toolCall.title.includes("write the notes") && p.toolCall.title.includes("notes.txt"),
    rejectAlways: p.options.some((o) => o.kind === "reject_always"),
  };
  seen.written = existsSync(join(project, "notes.txt")) ? readFileSync(join(project, "notes.txt"), "utf8") : null;
  seen.writeAnswer = textOf(since(n, sid).find((u) => u.toolCallId === "t3" && u.status === "completed")?.content);
});
