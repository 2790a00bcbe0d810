// Drives `cairn --mode acp` with the official ACP TypeScript SDK (stable v1
// entry point, its client app API) through the flows of cairn's acceptance
// list. Run by rpcmode/acp's TestOfficialClient:
//   node client.mjs <cairn binary> <project dir>
// with CAIRN_DIR and CAIRN_FAUX_SCRIPT set. Prints one JSON line with what
// it saw on success; exits 1 with the reason on failure.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect, runFlows, startCairn } from "./harness.mjs";

const [bin, project] = process.argv.slice(2);
const cairn = startCairn(bin, project);

function check(cond, what) {
  if (!cond) throw new Error(what);
}

// Every update, in order; permission requests answered from a queue.
const updates = [];
const permissions = [];
const decisions = [];
let onUpdate = () => {};

const app = acp
  .client({ name: "cairn-test" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params);
    onUpdate(params);
  })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params, agent }) => {
    permissions.push(params);
    const choice = decisions.shift();
    if (choice === "cancel") {
      // The person cancels the turn while it waits: the client cancels
      // the session and answers its pending request "cancelled".
      await agent.notify(acp.methods.agent.session.cancel, { sessionId: params.sessionId });
      return { outcome: { outcome: "cancelled" } };
    }
    const opt = params.options.find((o) => o.kind === choice);
    check(opt, `no ${choice} option in ${JSON.stringify(params.options)}`);
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
  const init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "cairn-test", version: "0" },
  });
  check(init.protocolVersion === 1, `protocolVersion ${init.protocolVersion}`);
  check(init.agentCapabilities.loadSession === true, "loadSession is not true");
  seen.agentName = init.agentInfo?.name;

  const created = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  const sid = created.sessionId;
  check(created.modes.currentModeId === "default", `mode ${created.modes.currentModeId}`);
  seen.modes = created.modes.availableModes.map((m) => m.id);
  seen.configOptions = created.configOptions.map((o) => o.id);

  // A text turn.
  let n = updates.length;
  let res = await prompt(sid, "hello");
  check(res.stopReason === "end_turn", `text turn ${res.stopReason}`);
  seen.text = since(n, sid)
    .filter((u) => u.sessionUpdate === "agent_message_chunk")
    .map((u) => u.content.text)
    .join("");

  // An edit allowed once.
  decisions.push("allow_once");
  n = updates.length;
  res = await prompt(sid, "edit once");
  check(res.stopReason === "end_turn", `allow once ${res.stopReason}`);
  seen.allowOnce = since(n, sid)
    .filter((u) => u.toolCallId === "call_1")
    .map((u) => u.status);
  const done = since(n, sid).find((u) => u.toolCallId === "call_1" && u.status === "completed");
  check(done && done.content[0].type === "diff", "no diff on the completed edit");
  seen.diff = done.content[0];
  seen.afterAllow = readFileSync(join(project, "a.txt"), "utf8");

  // An edit rejected once.
  decisions.push("reject_once");
  n = updates.length;
  res = await prompt(sid, "edit rejected");
  check(res.stopReason === "end_turn", `reject once ${res.stopReason}`);
  seen.rejectOnce = since(n, sid)
    .filter((u) => u.toolCallId === "call_2")
    .map((u) => u.status);
  seen.afterReject = readFileSync(join(project, "a.txt"), "utf8");

  // Allowed always: the second call of the same kind is not asked about.
  decisions.push("allow_always");
  const asked = permissions.length;
  res = await prompt(sid, "edit always");
  check(res.stopReason === "end_turn", `allow always ${res.stopReason}`);
  res = await prompt(sid, "edit again");
  check(res.stopReason === "end_turn", `allow always, again ${res.stopReason}`);
  seen.askedForAlways = permissions.slice(asked).map((p) => p.toolCall.toolCallId);
  seen.afterAlways = readFileSync(join(project, "a.txt"), "utf8");

  // Cancelled while a permission request waits.
  decisions.push("cancel");
  n = updates.length;
  res = await prompt(sid, "edit b");
  seen.cancelPermissionStop = res.stopReason;
  seen.cancelPermissionStatuses = since(n, sid)
    .filter((u) => u.toolCallId === "call_6")
    .map((u) => u.status);
  seen.afterCancelPermission = readFileSync(join(project, "b.txt"), "utf8");

  // Mode change.
  n = updates.length;
  await agent.request(acp.methods.agent.session.setMode, { sessionId: sid, modeId: "yolo" });
  seen.modeUpdate = since(n, sid).find((u) => u.sessionUpdate === "current_mode_update")?.currentModeId;

  // Cancel while a tool runs.
  n = updates.length;
  const running = new Promise((resolve) => {
    onUpdate = (p) => {
      if (p.update.toolCallId === "call_5" && p.update.status === "in_progress") resolve();
    };
  });
  const cancelled = prompt(sid, "run something slow");
  await running;
  onUpdate = () => {};
  await agent.notify(acp.methods.agent.session.cancel, { sessionId: sid });
  res = await cancelled;
  seen.cancelStop = res.stopReason;
  seen.cancelStatuses = since(n, sid)
    .filter((u) => u.toolCallId === "call_5")
    .map((u) => u.status);

  // Load the first session from another one: its history is replayed
  // before the response.
  const other = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  check(other.sessionId !== sid, "session/new reused the session id");
  n = updates.length;
  await agent.request(acp.methods.agent.session.load, { sessionId: sid, cwd: project, mcpServers: [] });
  const replay = since(n, sid);
  seen.replayKinds = [...new Set(replay.map((u) => u.sessionUpdate))].sort();
  seen.replayUser = replay.filter((u) => u.sessionUpdate === "user_message_chunk").map((u) => u.content.text);

  // An unknown session id.
  try {
    await agent.request(acp.methods.agent.session.load, { sessionId: "no-such", cwd: project, mcpServers: [] });
    seen.unknownLoad = "no error";
  } catch (e) {
    seen.unknownLoad = e.code;
  }
});
