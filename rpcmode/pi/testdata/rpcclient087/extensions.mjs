// extensions.mjs - pi 0.87.1's own RpcClient drives `cairn --mode rpc` with
// the three example extensions of docs/examples/extensions installed: the
// Python /greet command (select and confirm dialogs, a status line), the
// Node permission gate on tool_call and the Go word_count tool. The
// client answers each extension_ui_request as a pi host does, by writing
// an extension_ui_response line to the agent's stdin. One line per check;
// exits 1 if any failed.
//
//   CAIRN_BIN=/path/to/cairn WORDCOUNT_BIN=/path/to/wordcount node extensions.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient } from "./node_modules/@earendil-works/pi-coding-agent/dist/modes/rpc/rpc-client.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const examples = path.resolve(here, "../../../../docs/examples/extensions");

let failures = 0;
function check(name, cond, detail) {
  if (cond) console.log(`ok   ${name}`);
  else {
    failures++;
    console.log(`FAIL ${name}${detail === undefined ? "" : ": " + JSON.stringify(detail).slice(0, 400)}`);
  }
  return cond;
}

const watchdog = setTimeout(() => {
  console.log("FAIL watchdog: the run took longer than 60 s");
  process.exit(1);
}, 60_000);

const work = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-rpcext-"));
const agentDir = path.join(work, "agent");
const project = path.join(work, "project");
const extDir = path.join(agentDir, "extensions");
fs.mkdirSync(extDir, { recursive: true });
fs.mkdirSync(path.join(project, "victim"), { recursive: true });
fs.symlinkSync(path.join(examples, "greet.py"), path.join(extDir, "greet.py"));
fs.symlinkSync(path.join(examples, "guard.mjs"), path.join(extDir, "guard.mjs"));
fs.mkdirSync(path.join(extDir, "wordcount"));
fs.symlinkSync(process.env.WORDCOUNT_BIN, path.join(extDir, "wordcount", "wordcount"));
fs.writeFileSync(path.join(extDir, "wordcount", "extension.json"), JSON.stringify({ command: "./wordcount" }));
const scriptPath = path.join(work, "faux.json");
fs.writeFileSync(scriptPath, JSON.stringify({
  responses: [
    { content: [{ type: "toolCall", id: "call_wc", name: "word_count", arguments: { text: "one two three" } }] },
    { text: "Counted." },
    { content: [{ type: "toolCall", id: "call_rm", name: "bash", arguments: { command: "rm -rf victim" } }] },
    { text: "Blocked, fine." },
  ],
}));

const client = new RpcClient({
  cliPath: path.join(here, "cairn.mjs"),
  cwd: project,
  env: { CAIRN_BIN: process.env.CAIRN_BIN, CAIRN_DIR: agentDir, CAIRN_FAUX_SCRIPT: scriptPath, PATH: process.env.PATH, HOME: process.env.HOME },
  provider: "faux",
  args: ["--approval", "yolo"],
});

// The host's side of pi's extension UI sub-protocol: answers by method.
const uiRequests = [];
let answer = () => undefined;
client.onEvent((e) => {
  if (e.type !== "extension_ui_request") return;
  uiRequests.push(e);
  const reply = answer(e);
  if (reply) client.process.stdin.write(JSON.stringify({ type: "extension_ui_response", id: e.id, ...reply }) + "\n");
});
function waitFor(pred, label, ms = 20_000) {
  return new Promise((resolve, reject) => {
    const found = uiRequests.find(pred);
    if (found) return resolve(found);
    const timer = setTimeout(() => { off(); reject(new Error("timeout waiting for " + label)); }, ms);
    const off = client.onEvent((e) => { if (pred(e)) { clearTimeout(timer); off(); resolve(e); } });
  });
}

try {
  await client.start();
  // Extensions start in parallel with the session; get_commands lists
  // /greet once the Python extension is ready.
  let greet;
  for (let i = 0; i < 100 && !greet; i++) {
    greet = (await client.getCommands()).find((c) => c.name === "greet");
    if (!greet) await new Promise((r) => setTimeout(r, 50));
  }
  check("get_commands lists /greet with source extension", greet?.source === "extension" && greet?.description === "Pick a greeting and send it", greet);

  // /greet: a select, a confirm, then a setStatus, each pi's shape.
  answer = (e) => (e.method === "select" ? { value: "Ahoy" } : e.method === "confirm" ? { confirmed: true } : undefined);
  await client.prompt("/greet bob");
  const status = await waitFor((e) => e.method === "setStatus", "setStatus");
  const sel = uiRequests.find((e) => e.method === "select");
  const conf = uiRequests.find((e) => e.method === "confirm");
  check("select is pi's extension_ui_request", sel && sel.title === "Pick a greeting" && JSON.stringify(sel.options) === '["Hello","Good morning","Ahoy"]' && sel.timeout === 60000 && typeof sel.id === "string", sel);
  check("confirm carries title and message", conf && conf.title === "Send it?" && conf.message === "Ahoy, bob!" && conf.timeout === 60000, conf);
  check("setStatus is fire-and-forget with statusKey and statusText", status.statusKey === "greet" && status.statusText === "greeted bob with Ahoy", status);
  await client.waitForIdle?.(10_000).catch(() => {});

  // The Go tool runs for the model.
  const events = await client.promptAndWait("count these", undefined, 20_000);
  const end = events.find((e) => e.type === "tool_execution_end" && e.toolName === "word_count");
  check("word_count's result", end && JSON.stringify(end.result).includes("3 words, 1 lines") && !end.isError, end);

  // The Node gate asks about rm -rf; the host blocks it.
  answer = (e) => (e.method === "select" && e.title.startsWith("Allow dangerous command?") ? { value: "Block" } : undefined);
  const events2 = await client.promptAndWait("clean up", undefined, 30_000);
  const ask = uiRequests.find((e) => e.method === "select" && e.title.startsWith("Allow dangerous command?"));
  check("the gate asks with a select", ask && JSON.stringify(ask.options) === '["Allow","Block"]' && ask.timeout === 30000, ask);
  const rm = events2.find((e) => e.type === "tool_execution_end" && e.toolName === "bash");
  check("the blocked call's result says why", rm && rm.isError && JSON.stringify(rm.result).includes("Blocked by user"), rm);
  check("rm did not run", fs.existsSync(path.join(project, "victim")));
} catch (err) {
  check("run", false, String(err?.stack ?? err));
} finally {
  await client.stop().catch(() => {});
  clearTimeout(watchdog);
  if (!process.env.CAIRN_KEEP_TMP) fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);
