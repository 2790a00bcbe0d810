// piext-roundtrip.mjs - one run of the tool round-trip benchmark of
// bench-piext.sh: spawns an agent in `--mode rpc` (cairn or pi, with pi's
// hello.ts example), sends one prompt whose fake model calls the hello tool
// CALLS times, one call a turn, and prints, as JSON, the median and the
// 90th percentile of the time from each tool_execution_start line to its
// tool_execution_end line as read on the agent's stdout: the round trip of
// one extension tool call, framing included, as a host sees it.
//
//   node piext-roundtrip.mjs CALLS AGENT ARGS...
import { spawn } from "node:child_process";

const [calls, ...cmd] = process.argv.slice(2);
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const started = new Map();
const took = [];
let buf = "";
const timer = setTimeout(() => {
  console.error("piext-roundtrip: no agent_end within 120 s");
  child.kill("SIGKILL");
  process.exit(1);
}, 120000);
child.stdin.write(JSON.stringify({ id: "p", type: "prompt", message: "greet" }) + "\n");
child.stdout.on("data", (c) => {
  const t = performance.now();
  buf += c.toString();
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.startsWith('{"type":"tool_execution_start"')) started.set(JSON.parse(line).toolCallId, t);
    else if (line.startsWith('{"type":"tool_execution_end"')) {
      const e = JSON.parse(line);
      if (e.isError) {
        console.error(`piext-roundtrip: the tool failed: ${line.slice(0, 300)}`);
        process.exit(1);
      }
      took.push(t - started.get(e.toolCallId));
    } else if (line.startsWith('{"type":"agent_end"')) {
      clearTimeout(timer);
      child.stdin.end();
      if (took.length !== Number(calls)) {
        console.error(`piext-roundtrip: ${took.length} tool calls, want ${calls}`);
        process.exit(1);
      }
      took.sort((a, b) => a - b);
      const q = (p) => took[Math.min(took.length - 1, Math.floor(p * took.length))];
      console.log(JSON.stringify({ calls: took.length, medianMs: q(0.5), p90Ms: q(0.9) }));
    }
  }
});
