// Attaches to a session that runs in another cairn (its TUI) with the
// official ACP TypeScript SDK, through `cairn acp --attach`, as an editor
// would. Run by e2e's TestAttachToTUI:
//   node attach.mjs <cairn binary> <project dir> <expected history text>
// with CAIRN_RUNTIME_DIR set. It checks that the history arrives, prints
// "ATTACHED <sessionId>" and waits for a line on stdin; then it prompts,
// answers the permission request (allow once), and prints one JSON line of
// what it saw. Exits 1 with the reason on failure.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [bin, project, history] = process.argv.slice(2);
const cairn = spawn(bin, ["acp", "--attach"], { cwd: project, stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => cairn.on("exit", (code) => resolve(code)));

function check(cond, what) {
  if (!cond) throw new Error(what);
}

const updates = [];
const permissions = [];
let wake = () => {};
const app = acp
  .client({ name: "cairn-attach-test" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params.update);
    wake();
  })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    permissions.push(params);
    const opt = params.options.find((o) => o.kind === "allow_once");
    check(opt, `no allow_once option in ${JSON.stringify(params.options)}`);
    return { outcome: { outcome: "selected", optionId: opt.optionId } };
  });
const conn = app.connect(acp.ndJsonStream(Writable.toWeb(cairn.stdin), Readable.toWeb(cairn.stdout)));
const agent = conn.agent;

// until waits for an update that ok accepts, at most 30 s.
function until(ok, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; saw ${JSON.stringify(updates)}`)), 30000);
    const look = () => {
      if (updates.some(ok)) {
        clearTimeout(timer);
        wake = () => {};
        resolve();
      }
    };
    wake = look;
    look();
  });
}

const text = (kind) => updates.filter((u) => u.sessionUpdate === kind).map((u) => u.content.text).join("");
const lines = createInterface({ input: process.stdin });
const nextLine = () => new Promise((resolve) => lines.once("line", resolve));

try {
  const init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    clientInfo: { name: "cairn-attach-test", version: "0" },
  });
  check(init.agentCapabilities.loadSession === true, "loadSession is not true");
  const listed = await agent.request(acp.methods.agent.session.list, {});
  check(listed.sessions.length === 1, `session/list: ${JSON.stringify(listed)}`);
  const created = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  const sid = created.sessionId;
  check(sid === listed.sessions[0].sessionId, `attached to ${sid}, listed ${listed.sessions[0].sessionId}`);
  await until((u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.includes(history), "the history");
  const seen = { sessionId: sid, historyUser: text("user_message_chunk"), historyAgent: text("agent_message_chunk") };
  console.log(`ATTACHED ${sid}`);
  const promptText = await nextLine();
  const before = updates.length;
  const res = await agent.request(acp.methods.agent.session.prompt, { sessionId: sid, prompt: [{ type: "text", text: promptText }] });
  seen.stopReason = res.stopReason;
  seen.answer = updates
    .slice(before)
    .filter((u) => u.sessionUpdate === "agent_message_chunk")
    .map((u) => u.content.text)
    .join("");
  seen.permissions = permissions.map((p) => p.toolCall.title ?? "");
  seen.toolStatuses = updates.slice(before).filter((u) => u.sessionUpdate === "tool_call_update").map((u) => u.status ?? "");
  cairn.stdin.end();
  seen.exitCode = await exited;
  conn.close?.();
  console.log(JSON.stringify(seen));
  process.exit(0);
} catch (e) {
  console.error("attach client:", e?.stack ?? e);
  cairn.kill();
  process.exit(1);
}
