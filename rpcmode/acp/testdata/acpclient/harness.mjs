// What client.mjs and delegate.mjs share: cairn started as an ACP agent
// (stderr passed through), the SDK's connection over its stdio, and the end
// of a run: the flows fill `seen`, then stdin closes, cairn's exit code is
// added, and `seen` is printed as one JSON line; a failed flow prints the
// reason and exits 1.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

export function startCairn(bin, project, args = []) {
  const child = spawn(bin, ["--mode", "acp", "--provider", "faux", ...args], {
    cwd: project,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited };
}

export function connect(app, cairn) {
  return app.connect(acp.ndJsonStream(Writable.toWeb(cairn.child.stdin), Readable.toWeb(cairn.child.stdout)));
}

export async function runFlows(cairn, conn, flows) {
  const seen = {};
  try {
    await flows(seen);
  } catch (e) {
    console.error("acp client:", e?.stack ?? e);
    cairn.child.kill();
    process.exit(1);
  }
  cairn.child.stdin.end();
  seen.exitCode = await cairn.exited;
  conn.close();
  console.log(JSON.stringify(seen));
}
