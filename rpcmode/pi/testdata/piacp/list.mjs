// Drives pi-acp (the ACP adapter written for pi, from npm) as an editor
// does, with PI_ACP_PI_COMMAND naming cairn: a new session, one prompt,
// then session/list for the project, which pi-acp answers by reading pi's
// session directory itself. Run by rpcmode/pi's TestPiACPListsCairnSessions:
//   node list.mjs <project dir>
// with HOME (holding pi's ~/.pi/agent) and PI_ACP_PI_COMMAND set. Prints
// one JSON line with the new session's id, the prompt's stop reason and
// the list; exits 1 with the reason on failure.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [project] = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));
const adapter = join(here, "node_modules", "pi-acp", "dist", "index.js");

// Every wait is bounded: a hung adapter fails the test, not the run.
setTimeout(() => {
  console.error("list.mjs: no answer within 90 s");
  process.exit(1);
}, 90_000).unref();

const child = spawn(process.execPath, [adapter], { cwd: project, stdio: ["pipe", "pipe", "inherit"], env: process.env });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const conn = new acp.ClientSideConnection(
  () => ({
    sessionUpdate: async () => {},
    requestPermission: async () => ({ outcome: { outcome: "cancelled" } }),
  }),
  stream,
);

try {
  await conn.initialize({ protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const session = await conn.newSession({ cwd: project, mcpServers: [] });
  const answer = await conn.prompt({ sessionId: session.sessionId, prompt: [{ type: "text", text: "Remember the bird: heron." }] });
  const list = await conn.listSessions({ cwd: project });
  console.log(JSON.stringify({ sessionId: session.sessionId, stopReason: answer.stopReason, sessions: list.sessions }));
  child.kill();
  process.exit(0);
} catch (err) {
  console.error(`list.mjs: ${err?.stack ?? JSON.stringify(err)}`);
  child.kill();
  process.exit(1);
}
