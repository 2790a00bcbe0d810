// Drives `cairn --mode acp` with the official ACP TypeScript SDK as an
// editor with several threads on one connection does (Zed keeps one
// connection per agent and opens every thread on it). Run by rpcmode/acp's
// TestOfficialClientThreads:
//   node threads.mjs <cairn binary> <project dir> <second project dir>
// with CAIRN_DIR and CAIRN_FAUX_SCRIPT set; every session's model runs the
// same script: `cat marker.txt` through bash (asked about), then "done"
// (so a cancelled thread's next turn is "done").
// Prints one JSON line with what it saw; exits 1 with the reason on failure.
import * as acp from "@agentclientprotocol/sdk";
import { connect, runFlows, startCairn } from "./harness.mjs";

const [bin, project, other] = process.argv.slice(2);
const cairn = startCairn(bin, project);

function check(cond, what) {
  if (!cond) throw new Error(what);
}

const updates = [];
// Permission requests wait here until the flow answers them.
const asked = new Map(); // sessionId -> {params, answer}
const askedWaiters = [];

const app = acp
  .client({ name: "cairn-threads-test" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params);
  })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    return new Promise((answer) => {
      asked.set(params.sessionId, { params, answer });
      for (const w of askedWaiters.splice(0)) w();
    });
  });

const conn = connect(app, cairn);
const agent = conn.agent;

async function permissionFor(sessionId) {
  while (!asked.has(sessionId)) {
    await new Promise((resolve) => askedWaiters.push(resolve));
  }
  const p = asked.get(sessionId);
  asked.delete(sessionId);
  return p;
}

function allowOnce(p) {
  const opt = p.params.options.find((o) => o.kind === "allow_once");
  check(opt, `no allow_once option in ${JSON.stringify(p.params.options)}`);
  p.answer({ outcome: { outcome: "selected", optionId: opt.optionId } });
}

function prompt(sessionId, text) {
  return agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
}

// The text the bash call of a session's turn ended with.
function toolOutput(sessionId) {
  const done = updates.filter(
    (u) => u.sessionId === sessionId && u.update.sessionUpdate === "tool_call_update" && u.update.status === "completed",
  );
  return done.map((u) => (u.update.content ?? []).map((c) => c.content?.text ?? "").join("")).join("|");
}

function userTexts(sessionId, from) {
  return updates
    .slice(from)
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "user_message_chunk")
    .map((u) => u.update.content.text);
}

await runFlows(cairn, conn, async (seen) => {
  const init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "cairn-threads-test", version: "0" },
  });
  seen.close = init.agentCapabilities.sessionCapabilities?.close !== undefined;

  // A third thread, run to its end and closed: stored, to be loaded later.
  const c = (await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] })).sessionId;
  let pc = prompt(c, "third thread");
  allowOnce(await permissionFor(c));
  check((await pc).stopReason === "end_turn", "third thread's turn");
  seen.cOutput = toolOutput(c);
  await agent.request(acp.methods.agent.session.close, { sessionId: c });

  // Two threads, each in its own directory, running at once.
  const a = (await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] })).sessionId;
  const b = (await agent.request(acp.methods.agent.session.new, { cwd: other, mcpServers: [] })).sessionId;
  seen.distinct = new Set([a, b, c]).size === 3;
  const pa = prompt(a, "thread a");
  const pb = prompt(b, "thread b");
  // Both wait for a permission at the same time: both turns are running.
  const qa = await permissionFor(a);
  const qb = await permissionFor(b);
  seen.bothAsked = [qa.params.sessionId === a, qb.params.sessionId === b];

  // Loading the third thread while both run.
  const from = updates.length;
  await agent.request(acp.methods.agent.session.load, { sessionId: c, cwd: project, mcpServers: [] });
  seen.loadedThird = userTexts(c, from);

  // Cancelling one leaves the other running.
  await agent.notify(acp.methods.agent.session.cancel, { sessionId: a });
  qa.answer({ outcome: { outcome: "cancelled" } });
  seen.aStop = (await pa).stopReason;
  allowOnce(qb);
  seen.bStop = (await pb).stopReason;
  seen.bOutput = toolOutput(b);

  // The cancelled thread takes another prompt (its model answers "done").
  seen.a2Stop = (await prompt(a, "thread a again")).stopReason;

  // Listing without a directory lists every directory's sessions.
  const all = await agent.request(acp.methods.agent.session.list, {});
  seen.listedCwds = [...new Set(all.sessions.filter((s) => [a, b, c].includes(s.sessionId)).map((s) => s.cwd))].sort();
});
