// Drives `cairn --mode acp --approval yolo` with the official ACP
// TypeScript SDK as an editor that offers its files and terminals: cairn's
// reads and writes must go through fs/*, its commands through terminal/*.
// Run by rpcmode/acp's TestOfficialClientDelegation:
//   node delegate.mjs <cairn binary> <project dir>
// with CAIRN_DIR and CAIRN_FAUX_SCRIPT set. The editor's buffers start with
// a.txt holding text the disk does not. Prints one JSON line with what it
// saw; exits 1 with the reason on failure.
import { spawn } from "node:child_process";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect, runFlows, startCairn } from "./harness.mjs";

const [bin, project] = process.argv.slice(2);
const cairn = startCairn(bin, project, ["--approval", "yolo"]);

const buffers = new Map([[join(project, "a.txt"), "one\nunsaved\n"]]);
const calls = [];
const terminals = new Map();
let nextTerminal = 1;
const updates = [];

const app = acp
  .client({ name: "cairn-delegation-test" })
  .onNotification(acp.methods.client.session.update, ({ params }) => updates.push(params.update))
  .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
    calls.push(`read ${params.path}`);
    if (!buffers.has(params.path)) throw acp.RequestError.resourceNotFound(params.path);
    return { content: buffers.get(params.path) };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
    calls.push(`write ${params.path}`);
    buffers.set(params.path, params.content);
    return {};
  })
  .onRequest(acp.methods.client.terminal.create, async ({ params }) => {
    calls.push(`terminal ${params.command} ${params.args.join(" ")}`);
    const id = `term-${nextTerminal++}`;
    const proc = spawn(params.command, params.args, { cwd: params.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const t = { output: "", truncated: false, limit: params.outputByteLimit, proc };
    const keep = (chunk) => {
      t.output += chunk.toString();
      if (t.limit && Buffer.byteLength(t.output) > t.limit) {
        t.output = t.output.slice(-t.limit);
        t.truncated = true;
      }
    };
    proc.stdout.on("data", keep);
    proc.stderr.on("data", keep);
    t.exit = new Promise((resolve) => proc.on("exit", (code, signal) => resolve({ exitCode: code, signal })));
    terminals.set(id, t);
    return { terminalId: id };
  })
  .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => terminals.get(params.terminalId).exit)
  .onRequest(acp.methods.client.terminal.output, async ({ params }) => {
    const t = terminals.get(params.terminalId);
    return { output: t.output, truncated: t.truncated };
  })
  .onRequest(acp.methods.client.terminal.kill, async ({ params }) => {
    terminals.get(params.terminalId).proc.kill();
    return {};
  })
  .onRequest(acp.methods.client.terminal.release, async ({ params }) => {
    calls.push(`release ${params.terminalId}`);
    terminals.delete(params.terminalId);
    return {};
  });

const conn = connect(app, cairn);
const agent = conn.agent;
await runFlows(cairn, conn, async (seen) => {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    clientInfo: { name: "cairn-delegation-test", version: "0" },
  });
  const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  const res = await agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "edit, write and run" }],
  });
  seen.stopReason = res.stopReason;
  seen.calls = calls;
  seen.buffers = Object.fromEntries(buffers);
  seen.terminalContent = updates
    .filter((u) => u.toolCallId === "call_3" && u.content)
    .flatMap((u) => u.content.filter((c) => c.type === "terminal").map((c) => c.terminalId));
  seen.finalStatus = updates.filter((u) => u.toolCallId === "call_3" && u.status).map((u) => u.status).pop();
});
