#!/usr/bin/env bash
# bench-piext.sh - the cost of pi's extensions in cairn beside pi 0.87.1,
# in one run: `--mode rpc` started with 10 of pi's example extensions (-e)
# until its answer to get_commands (which waits for every extension to
# load), as medians of wall time, CPU and peak RSS over RUNS runs, paired
# A B A B by farm-bench (A: cairn, B: pi). Then cairn with no extension,
# beside the commit named by BASE (default: the merge base with main), to
# show start-up without extensions unchanged.
#
#   scripts/bench-piext.sh            # or: RUNS=11 BASE=main scripts/bench-piext.sh
#
# Both keep their caches warm (jiti's transpiled modules) after farm-bench's
# warm-up run. pi is the wrapper ../shared/tools/pi-install.sh leaves in
# ${PI_CACHE:-~/.cache/cairn-pi}; without it the comparison is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-7}
PI=${PI_CACHE:-$HOME/.cache/cairn-pi}/pi-0.87.1/pi
EX=$PWD/core/piext/testdata/pi-examples
command -v farm-bench >/dev/null || { echo "bench-piext: needs farm-bench" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench-piext.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
base=${BASE:-$(git merge-base HEAD main)}
mkdir "$work/base" && git archive "$base" | tar -x -C "$work/base"
(cd "$work/base" && go build -o "$work/cairn-base" ./cmd/cairn)

export HOME=$work/home CAIRN_DIR=$work/cairn-home PI_CODING_AGENT_DIR=$work/pi-agent CAIRN_FAUX_SCRIPT=$work/faux.json
mkdir -p "$HOME" "$CAIRN_DIR" "$PI_CODING_AGENT_DIR"
echo '{"responses": [{"text": "ok"}]}' > "$CAIRN_FAUX_SCRIPT"
args=""
for e in hello todo permission-gate protected-paths pirate status-line widget-placement send-user-message timed-confirm input-transform; do
  args="$args -e $EX/$e.ts"
done
script() { # name command...
  printf '#!/bin/sh\nprintf %s | %s\n' "'{\"type\":\"get_commands\"}\n'" "$2" > "$work/$1"
  chmod +x "$work/$1"
}
script cairn10 "$work/cairn --mode rpc --no-session --provider faux $args"
script pi10 "$PI --mode rpc --no-session $args"
script cairn0 "$work/cairn --mode rpc --no-session --provider faux"
script base0 "$work/cairn-base --mode rpc --no-session --provider faux"

if [ -x "$PI" ]; then
  echo "== 10 pi extensions: cairn (A) beside pi 0.87.1 (B)"
  farm-bench -n "$RUNS" --timeout 600 --vs "$work/pi10" -- "$work/cairn10"
else
  echo "== pi 0.87.1 is not installed ($PI): 10 pi extensions in cairn alone"
  farm-bench -n "$RUNS" --timeout 600 -- "$work/cairn10"
fi
echo "== no extensions: this cairn (A) beside $base (B)"
farm-bench -n "$RUNS" --vs "$work/base0" -- "$work/cairn0"

# A tool call's round trip: the fake model (../shared/tools/fakellm.js)
# calls hello.ts's tool CALLS times, one call a turn; each agent's
# tool_execution_start -> tool_execution_end on its stdout, median and 90th
# percentile over all calls of RUNS runs each.
SHARED=${CAIRN_SHARED:-$PWD/../shared}
if [ -x "$PI" ] && [ -f "$SHARED/tools/fakellm.js" ]; then
  CALLS=${CALLS:-40}
  turns='{"toolCalls":[{"name":"hello","arguments":{"name":"Ann"}}]}'
  script="{\"turns\":[$(for _ in $(seq "$CALLS"); do printf '%s,' "$turns"; done){\"text\":\"done\"}],\"loop\":true}"
  printf '%s\n' "$script" >"$work/llm.json"
  node "$SHARED/tools/fakellm.js" --script "$work/llm.json" --port 0 --port-file "$work/port" --loop >"$work/fakellm.log" 2>&1 &
  fake=$!
  trap 'kill $fake 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
  port=$(cat "$work/port")
  models='{"providers":{"fake":{"baseUrl":"http://127.0.0.1:'$port'/v1","api":"openai-completions","apiKey":"fake-key",
    "models":[{"id":"fake-gpt","name":"Fake","reasoning":false,"input":["text"],"contextWindow":128000,"maxTokens":16384,
    "cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}'
  printf '%s\n' "$models" >"$CAIRN_DIR/models.json"
  printf '%s\n' "$models" >"$PI_CODING_AGENT_DIR/models.json"
  echo "== a tool call's round trip (hello.ts, $CALLS calls a run, $RUNS runs each, alternating): ms"
  for i in $(seq "$RUNS"); do
    curl -s -X POST "http://127.0.0.1:$port/_fake/reset" >/dev/null
    printf 'cairn %s\n' "$(node scripts/piext-roundtrip.mjs "$CALLS" "$work/cairn" --mode rpc --no-session --model fake/fake-gpt --approval yolo -e "$EX/hello.ts")"
    curl -s -X POST "http://127.0.0.1:$port/_fake/reset" >/dev/null
    printf 'pi %s\n' "$(node scripts/piext-roundtrip.mjs "$CALLS" "$PI" --mode rpc --no-session --model fake/fake-gpt -e "$EX/hello.ts")"
  done | tee "$work/rt.txt"
  node -e '
    const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
    const by = {};
    for (const l of lines) { const [who, j] = [l.slice(0, l.indexOf(" ")), JSON.parse(l.slice(l.indexOf(" ") + 1))]; (by[who] ||= []).push(j); }
    const med = (a) => { a = [...a].sort((x, y) => x - y); return a[Math.floor(a.length / 2)]; };
    const c = med(by.cairn.map((r) => r.medianMs)), p = med(by.pi.map((r) => r.medianMs));
    const c9 = med(by.cairn.map((r) => r.p90Ms)), p9 = med(by.pi.map((r) => r.p90Ms));
    console.log(`median of the runs medians: cairn ${c.toFixed(2)} ms, pi ${p.toFixed(2)} ms (ratio ${(c / p).toFixed(2)}); p90: cairn ${c9.toFixed(2)} ms, pi ${p9.toFixed(2)} ms`);
  ' "$work/rt.txt"
else
  echo "== a tool call's round trip: skipped (needs pi at $PI and $SHARED/tools/fakellm.js)"
fi
