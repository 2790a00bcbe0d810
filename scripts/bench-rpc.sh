#!/usr/bin/env bash
# bench-rpc.sh - cairn --mode rpc side by side with pi --mode rpc (npm
# @earendil-works/pi-coding-agent 0.87.1), same fake LLM, same machine, one run.
#
#   make bench-rpc                 # or: RUNS=9 scripts/bench-rpc.sh
#
# Measures, as medians over RUNS runs (default 5, after one discarded warm-up
# run per agent and section; cairn and pi runs alternate):
#   startup  spawn -> first stdout line, with get_state written at spawn, and
#            the peak RSS and CPU of that run (the agent exits on stdin EOF)
#   stream   one prompt answered by N chunks of "tok " (N = 2000 and 4000):
#            CPU seconds of the whole process and of the stream alone (read
#            from /proc when the prompt is written and when agent_end is
#            read), peak RSS, stdout bytes, prompt written -> agent_end read;
#            both answers are checked to be the same text; both write pi
#            0.87's delta-only message_update frames
#   growth   cairn only: stdout bytes for N = 1000..8000, to show they grow
#            linearly
# and prints markdown tables with cairn/pi ratios. The fake LLM is
# ../shared/tools/fakellm.js (CAIRN_SHARED names another shared/); the agents
# are driven as ../shared/tools/rpc-drive.js does (the pi baseline's driver),
# by a small driver below that also reads the agent's CPU time from /proc
# mid-run; whole-run CPU and peak RSS come from /usr/bin/time -v. pi, and the
# Node 22 it needs, are installed by ../shared/tools/pi-install.sh into
# ${PI_CACHE:-~/.cache/cairn-pi} the first time. fakellm,
# the driver and the agent share the machine's CPUs, as in the recorded pi
# baseline (../shared/conformance/pi/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

RUNS=${RUNS:-5}
PI_VERSION=0.87.1
SHARED=${CAIRN_SHARED:-$repo/../shared}
TOOLS=$SHARED/tools
STREAM_NS=(2000 4000)
GROWTH_NS=(1000 2000 4000 8000)

say() { printf '%s\n' "$*" >&2; }
die() { say "bench-rpc: $*"; exit 1; }

[ "$RUNS" -ge 1 ] 2>/dev/null || die "RUNS must be a positive number"
[ -f "$TOOLS/fakellm.js" ] && [ -x "$TOOLS/pi-install.sh" ] ||
  die "need $TOOLS/fakellm.js and $TOOLS/pi-install.sh (set CAIRN_SHARED to the shared/ directory)"
[ -r /proc/self/stat ] || die "need Linux /proc"
command -v node >/dev/null && command -v npm >/dev/null || die "need node and npm"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || die "need go"

# /usr/bin/time -v for peak RSS and CPU.
if ! /usr/bin/time -v true >/dev/null 2>&1; then
  say "installing GNU time (apt)"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq time >/dev/null
fi

# pi and its Node 22, once (npm); PI is a wrapper that puts that Node first
# on PATH and execs pi.
say "pi $PI_VERSION: $TOOLS/pi-install.sh"
PI=$(PI_VERSION=$PI_VERSION "$TOOLS/pi-install.sh") || die "pi-install.sh failed"
[ -x "$PI" ] || die "pi is not at $PI"
[ "$("$PI" --version 2>/dev/null)" = "$PI_VERSION" ] || die "$PI --version is not $PI_VERSION"

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench-rpc.XXXXXX")
fake_pid=""
cleanup() {
  if [ -n "$fake_pid" ]; then kill "$fake_pid" 2>/dev/null || true; wait "$fake_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

say "building cairn"
CAIRN=$work/cairn
# As make build does: bin/cairn is the headless build (what editors spawn).
CGO_ENABLED=${CGO:-0} go build -tags headless -trimpath -ldflags '-s -w' -o "$CAIRN" ./cmd/cairn

# The fake LLM, for the whole run; each section posts its own script.
node "$TOOLS/fakellm.js" --port 0 --port-file "$work/port" --loop >"$work/fakellm.log" 2>&1 &
fake_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || die "fakellm did not start: $(cat "$work/fakellm.log")"
PORT=$(cat "$work/port")
set_script() { # JSON
  node -e 'fetch(process.argv[1], {method: "POST", body: process.argv[2]}).then((r) => { if (!r.ok) process.exit(1) })' \
    "http://127.0.0.1:$PORT/_fake/script" "$1"
}

# The same models.json (pi's schema) for both agents.
models='{"providers":{"fake-openai":{"baseUrl":"http://127.0.0.1:'$PORT'/v1","api":"openai-completions","apiKey":"fake-key",
  "models":[{"id":"fake-gpt","name":"Fake GPT","reasoning":false,"input":["text"],"contextWindow":128000,"maxTokens":16384,
  "cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}'
mkdir -p "$work/pi-home/.pi/agent" "$work/cairn-dir" "$work/cwd"
printf '%s\n' "$models" >"$work/pi-home/.pi/agent/models.json"
printf '%s\n' "$models" >"$work/cairn-dir/models.json"

# The driver: spawns CMD under /usr/bin/time -v, writes get_state at once
# (startup: spawn -> first stdout line), and for a stream writes the prompt
# once get_state is answered, then waits for agent_end (pi 0.87 writes
# agent_settled after it; closing stdin then is an orderly shutdown for both
# agents, so that line may or may not be written). Like rpc-drive.js it
# only looks at the start of message_update lines. It reads the agent's
# utime+stime (the child of time, 10 ms ticks) when it writes the prompt and
# when it reads agent_end, then closes stdin and waits for the exit.
cat >"$work/drive.js" <<'DRIVE'
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const [mode, outFile, summaryFile, ...cmd] = process.argv.slice(2);
const t0 = process.hrtime.bigint();
const now = () => Number(process.hrtime.bigint() - t0) / 1e6;
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const out = outFile === "-" ? null : fs.openSync(outFile, "w");
const cpu = () => {
  try {
    const kids = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/);
    const f = fs.readFileSync(`/proc/${kids[0]}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in ticks (fields 14, 15)
  } catch { return null; }
};
const r = { firstLineMs: null, promptMs: null, firstUpdateMs: null, endMs: null, cpuAtPrompt: null, cpuAtEnd: null, stdoutBytes: 0, lines: 0 };
const send = (o) => child.stdin.write(JSON.stringify(o) + "\n");
let buf = "";
let done = false;
const timer = setTimeout(() => { console.error("drive: timeout"); child.kill("SIGKILL"); process.exit(1); }, 120000);
send({ id: "s", type: "get_state" });
child.stdout.on("data", (c) => {
  r.stdoutBytes += c.length;
  if (out !== null) fs.writeSync(out, c);
  buf += c.toString("latin1"); // only ASCII prefixes are looked at
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const head = buf.slice(0, Math.min(i, 64));
    buf = buf.slice(i + 1);
    const t = now();
    r.lines++;
    if (r.firstLineMs === null) r.firstLineMs = t;
    if (done) continue;
    if (head.startsWith('{"id":"s","type":"response"')) {
      if (mode === "startup") { done = true; child.stdin.end(); continue; }
      r.cpuAtPrompt = cpu();
      r.promptMs = now();
      send({ id: "p", type: "prompt", message: "Say tok many times." });
    } else if (r.firstUpdateMs === null && head.startsWith('{"type":"message_update"')) {
      r.firstUpdateMs = t;
    } else if (head.startsWith('{"type":"agent_end"')) {
      r.cpuAtEnd = cpu();
      r.endMs = t;
      done = true;
      child.stdin.end();
    }
  }
});
child.stdin.on("error", () => {});
child.on("exit", (code, signal) => {
  clearTimeout(timer);
  if (out !== null) fs.closeSync(out);
  fs.writeFileSync(summaryFile, JSON.stringify({ ...r, exitCode: code, signal, done }));
  process.exit(done && code === 0 ? 0 : 1);
});
DRIVE

results=$work/results.jsonl
: >"$results"

# run AGENT SECTION N RUN [OUT]: one driven run; RUN 0 is the warm-up and is
# not recorded. OUT keeps stdout (for the answer check). SECTION is startup,
# stream or growth.
run() {
  local agent=$1 section=$2 n=$3 i=$4 out=${5:--}
  local sum=$work/summary.json tv=$work/time.txt
  local -a cmd
  if [ "$agent" = cairn ]; then
    cmd=(env "CAIRN_DIR=$work/cairn-dir" "$CAIRN" --mode rpc --no-session --provider fake-openai --model fake-gpt)
  else
    cmd=(env "HOME=$work/pi-home" "$PI" --mode rpc --no-session --offline --provider fake-openai --model fake-gpt)
  fi
  (cd "$work/cwd" && node "$work/drive.js" "$section" "$out" "$sum" /usr/bin/time -v -o "$tv" "${cmd[@]}" 2>"$work/stderr.txt") ||
    die "$agent $section N=$n run $i failed: $(cat "$work/stderr.txt" "$sum" 2>/dev/null)"
  [ "$i" -eq 0 ] && return 0
  node -e '
    const fs = require("fs");
    const [sumFile, tvFile, agent, section, n, run, results] = process.argv.slice(1);
    const s = JSON.parse(fs.readFileSync(sumFile, "utf8"));
    const tv = fs.readFileSync(tvFile, "utf8");
    const num = (re) => { const m = re.exec(tv); if (!m) throw new Error("no " + re + " in time output"); return parseFloat(m[1]); };
    const stream = section !== "startup";
    if (stream && (s.cpuAtPrompt === null || s.cpuAtEnd === null)) throw new Error("could not read the agent CPU time from /proc");
    const row = { agent, section, n: +n, run: +run, firstLineMs: s.firstLineMs,
      promptToEndMs: stream ? s.endMs - s.promptMs : null,
      promptToFirstUpdateMs: stream ? s.firstUpdateMs - s.promptMs : null,
      cpuS: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
      streamCpuS: stream ? s.cpuAtEnd - s.cpuAtPrompt : null,
      rssKiB: num(/Maximum resident set size \(kbytes\): (\d+)/), stdoutBytes: s.stdoutBytes, lines: s.lines };
    fs.appendFileSync(results, JSON.stringify(row) + "\n");
  ' "$sum" "$tv" "$agent" "$section" "$n" "$i" "$results"
}

# answer FILE N: the last assistant text in agent_end is "tok " x N.
check_answer() {
  node -e '
    const fs = require("fs"), readline = require("readline");
    const [file, n, who] = process.argv.slice(1);
    let text = null;
    const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
    rl.on("line", (l) => {
      if (!l.startsWith("{\"type\":\"agent_end\"")) return;
      const m = JSON.parse(l).messages.filter((m) => m.role === "assistant").at(-1);
      text = m.content.filter((c) => c.type === "text").map((c) => c.text).join("");
    });
    rl.on("close", () => {
      const want = "tok ".repeat(+n);
      if (text !== want) { console.error(`bench-rpc: ${who}: answer is not "tok " x ${n} (${text === null ? "no agent_end" : text.length + " chars"})`); process.exit(1); }
    });
  ' "$1" "$2" "$3"
}

say "startup: $RUNS runs each (+1 warm-up)"
for i in $(seq 0 "$RUNS"); do
  run cairn startup 0 "$i"
  run pi startup 0 "$i"
done

for n in "${STREAM_NS[@]}"; do
  say "stream of $n chunks: $RUNS runs each (+1 warm-up)"
  set_script '{"loop":true,"turns":[{"chunkText":"tok ","chunks":'"$n"'}]}'
  for i in $(seq 0 "$RUNS"); do
    if [ "$i" -eq 1 ]; then
      run cairn stream "$n" "$i" "$work/out.jsonl"
      check_answer "$work/out.jsonl" "$n" "cairn"
      run pi stream "$n" "$i" "$work/out.jsonl"
      check_answer "$work/out.jsonl" "$n" "pi"
      rm -f "$work/out.jsonl"
      say "  both answered the same text: \"tok \" x $n"
    else
      run cairn stream "$n" "$i"
      run pi stream "$n" "$i"
    fi
  done
done

say "cairn, stdout growth: $RUNS runs per size"
for n in "${GROWTH_NS[@]}"; do
  set_script '{"loop":true,"turns":[{"chunkText":"tok ","chunks":'"$n"'}]}'
  [ "$n" = "${GROWTH_NS[0]}" ] && run cairn growth "$n" 0
  for i in $(seq 1 "$RUNS"); do
    if [ "$i" -eq 1 ]; then
      run cairn growth "$n" "$i" "$work/out.jsonl"
      check_answer "$work/out.jsonl" "$n" "cairn (growth)"
      rm -f "$work/out.jsonl"
    else
      run cairn growth "$n" "$i"
    fi
  done
done

node - "$results" "$RUNS" "$PI_VERSION" "$(nproc)" <<'EOF'
const fs = require("fs");
const [file, runs, piVersion, cpus] = process.argv.slice(2);
const rows = fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const med = (agent, section, n, key) => median(rows.filter((r) => r.agent === agent && r.section === section && r.n === n).map((r) => r[key]));
const mib = (kib) => kib / 1024;
const fmt = (v, d) => v.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const ratio = (c, p) => {
  if (!(p > 0)) return "";
  if (c === 0) return "~0 (below the 10 ms resolution of time -v)";
  const r = c / p;
  return r >= 0.5 ? fmt(r, 2) : `${fmt(r, r < 0.1 ? 3 : 2)} (1/${fmt(p / c, 1)})`;
};
const out = [];
out.push(`cairn --mode rpc vs pi ${piVersion} --mode rpc: medians of ${runs} runs, ${cpus} CPUs, fake LLM (openai-completions), answers of "tok " x N.`);
out.push("");
out.push("| measure | cairn | pi | cairn/pi | target | met |");
out.push("|---|---|---|---|---|---|");
const line = (name, c, p, d, target, ok) => out.push(`| ${name} | ${fmt(c, d)} | ${fmt(p, d)} | ${ratio(c, p)} | ${target} | ${ok === undefined ? "" : ok ? "yes" : "no"} |`);
const c0 = med("cairn", "startup", 0, "firstLineMs"), p0 = med("pi", "startup", 0, "firstLineMs");
line("spawn -> first get_state response, ms", c0, p0, 1, "cairn/pi <= 1/30", c0 / p0 <= 1 / 30);
const cr = mib(med("cairn", "startup", 0, "rssKiB")), pr = mib(med("pi", "startup", 0, "rssKiB"));
line("startup run: peak RSS, MiB", cr, pr, 1, "cairn <= 20 MiB", cr <= 20);
line("startup run: CPU user+sys, s", med("cairn", "startup", 0, "cpuS"), med("pi", "startup", 0, "cpuS"), 2, "");
for (const n of [...new Set(rows.filter((r) => r.section === "stream").map((r) => r.n))]) {
  const g = (a, k) => med(a, "stream", n, k);
  const cc = g("cairn", "cpuS"), pc = g("pi", "cpuS");
  line(`${n} chunks: CPU user+sys, whole run, s`, cc, pc, 2, "");
  const cs = g("cairn", "streamCpuS"), ps = g("pi", "streamCpuS");
  line(`${n} chunks: CPU user+sys, prompt -> agent_end, s`, cs, ps, 2, "cairn/pi <= 1/5", cs / ps <= 0.2);
  line(`${n} chunks: prompt -> first message_update, ms`, g("cairn", "promptToFirstUpdateMs"), g("pi", "promptToFirstUpdateMs"), 1, "");
  const rc = mib(g("cairn", "rssKiB")), rp = mib(g("pi", "rssKiB"));
  line(`${n} chunks: peak RSS, MiB`, rc, rp, 1, "cairn <= 20 MiB", rc <= 20);
  line(`${n} chunks: stdout bytes (delta-only message_update)`, g("cairn", "stdoutBytes"), g("pi", "stdoutBytes"), 0, "pi-compatible");
  line(`${n} chunks: prompt -> agent_end, ms`, g("cairn", "promptToEndMs"), g("pi", "promptToEndMs"), 1, "");
}
out.push("");
out.push(`cairn's stdout as the answer grows (medians of ${runs} runs):`);
out.push("");
out.push("| N chunks | stdout bytes | bytes per chunk | lines | CPU s, whole run | CPU s, stream | peak RSS MiB | prompt -> agent_end ms |");
out.push("|---|---|---|---|---|---|---|---|");
for (const n of [...new Set(rows.filter((r) => r.section === "growth").map((r) => r.n))]) {
  const g = (k) => med("cairn", "growth", n, k);
  out.push(`| ${n} | ${fmt(g("stdoutBytes"), 0)} | ${fmt(g("stdoutBytes") / n, 1)} | ${fmt(g("lines"), 0)} | ${fmt(g("cpuS"), 2)} | ${fmt(g("streamCpuS"), 2)} | ${fmt(mib(g("rssKiB")), 1)} | ${fmt(g("promptToEndMs"), 1)} |`);
}
console.log(out.join("\n"));
EOF
