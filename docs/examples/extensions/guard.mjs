#!/usr/bin/env node
// An example cairn extension in Node (standard library only): a
// permission gate on tool_call, like pi's permission-gate example. A bash
// command that looks dangerous (rm -rf, sudo, a write to /dev/sd*) is
// blocked unless the person allows it; with no UI (cairn -p) it is
// blocked at once. Put this file, executable, in ~/.cairn/extensions/.
import { createInterface } from "node:readline";

const dangerous = [/\brm\s+(-\w*r\w*f|-\w*f\w*r)\b/, /\bsudo\b/, />\s*\/dev\/sd/];
let hasUI = false;
let nextId = 0;
const pending = new Map();

function send(msg) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
}

function call(method, params) {
  const id = ++nextId;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

async function onToolCall(ev) {
  if (ev.toolName !== "bash") return null;
  const command = String(ev.input?.command ?? "");
  if (!dangerous.some((re) => re.test(command))) return null;
  if (!hasUI) return { block: true, reason: "Dangerous command blocked (no UI to ask)" };
  try {
    const r = await call("ui", { method: "select", title: `Allow dangerous command?\n\n  ${command}`, options: ["Allow", "Block"], timeout: 30000 });
    if (r.value === "Allow") return null;
    return { block: true, reason: "Blocked by user" };
  } catch (err) {
    // No UI after all, or the dialog could not be shown: block.
    return { block: true, reason: `Dangerous command blocked (${err.message})` };
  }
}

async function serve(msg) {
  const { id, method, params } = msg;
  try {
    let result = null;
    if (method === "initialize") {
      hasUI = params.hasUI;
      result = { protocolVersion: 1, name: "guard", events: ["tool_call"] };
    } else if (method === "event" && params.type === "tool_call") {
      result = await onToolCall(params);
    } else {
      send({ id, error: { code: -32601, message: `no method ${method}` } });
      return;
    }
    send({ id, result });
  } catch (err) {
    send({ id, error: { code: -32000, message: String(err?.message ?? err) } });
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.method === undefined) {
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (p) msg.error ? p.reject(new Error(msg.error.message)) : p.resolve(msg.result);
  } else if (msg.id !== undefined) {
    serve(msg);
  }
});
