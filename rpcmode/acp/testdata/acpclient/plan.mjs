// Drives `cairn --mode acp` with the official ACP TypeScript SDK through
// plan mode: session/set_mode "plan", a write the model proposes (refused
// without a permission request), the plan it presents (a permission
// request whose allow_always option goes on in auto_edit), and a write in
// the next turn (not asked about). Run by rpcmode/acp's
// TestOfficialClientPlanMode:
//   node plan.mjs <cairn binary> <project dir>
// with CAIRN_DIR and CAIRN_FAUX_SCRIPT set. Prints one JSON line.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect, runFlows, startCairn } from "./harness.mjs";

const [bin, project] = process.argv.slice(2);
const cairn = startCairn(bin, project);

function check(cond, what) {
  if (!cond) throw new Error(what);
}

const updates = [];
const permissions = [];

const app = acp
  .client({ name: "cairn-test" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params);
  })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    permissions.push(params);
    const opt = params.options.find((o) => o.kind === "allow_always");
    check(opt, `no allow_always option in ${JSON.stringify(params.options)}`);
    return { outcome: { outcome: "selected", optionId: opt.optionId } };
  });

const conn = connect(app, cairn);
const agent = conn.agent;

function since(n, sessionId) {
  return updates.slice(n).filter((u) => u.sessionId === sessionId).map((u) => u.update);
}

async function prompt(sessionId, text) {
  return agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
}

await runFlows(cairn, conn, async (seen) => {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "cairn-test", version: "0" },
  });
  const created = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  const sid = created.sessionId;
  seen.modes = created.modes.availableModes.map((m) => m.id);

  let n = updates.length;
  await agent.request(acp.methods.agent.session.setMode, { sessionId: sid, modeId: "plan" });
  seen.entered = since(n, sid).find((u) => u.sessionUpdate === "current_mode_update")?.currentModeId;

  n = updates.length;
  let res = await prompt(sid, "plan the file");
  check(res.stopReason === "end_turn", `planning turn ${res.stopReason}`);
  seen.writeInPlan = since(n, sid)
    .filter((u) => u.toolCallId === "call_w1")
    .map((u) => u.status);
  seen.fileAfterPlan = existsSync(join(project, "new.txt"));
  seen.askedAbout = permissions.map((p) => p.toolCall.toolCallId);
  seen.planOptions = permissions[0]?.options.map((o) => o.kind);
  seen.planShown = permissions[0]?.toolCall.content?.[0]?.content?.text;
  seen.left = since(n, sid).find((u) => u.sessionUpdate === "current_mode_update")?.currentModeId;

  n = updates.length;
  res = await prompt(sid, "do it");
  check(res.stopReason === "end_turn", `working turn ${res.stopReason}`);
  seen.askedAfter = permissions.length - seen.askedAbout.length;
  seen.file = readFileSync(join(project, "new.txt"), "utf8");
});
