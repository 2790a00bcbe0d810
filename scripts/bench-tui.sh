#!/usr/bin/env bash
# bench-tui.sh - cairn's full-screen TUI side by side with pi's interactive
# mode (pi 0.87.1, npm @earendil-works/pi-coding-agent, installed with the
# Node 22 it needs by ../shared/tools/pi-install.sh; PI_VERSION=0.73.1 runs
# the older @mariozechner/pi-coding-agent instead), whole processes under
# tmux at 120x40, same fake LLM, same machine, one run.
#
#   make bench-tui                 # or: RUNS=9 scripts/bench-tui.sh
#   AGENTS=cairn scripts/bench-tui.sh    # one side only (AGENTS="floor cairn pi")
#   CAIRN_BIN=bin/cairn scripts/bench-tui.sh   # a cairn built beforehand
#
# Measures, as medians over RUNS runs (default 5, after one discarded
# warm-up run per agent; cairn and pi runs alternate):
#   first frame   spawn -> the first frame showing the footer (the model
#                 name). The pane runs a tiny wrapper that writes the time
#                 and execs the agent; a tmux control-mode client
#                 timestamps every %output notification as it arrives, and
#                 after each burst the screen is captured: the frame time is
#                 that of the last output received before the capture that
#                 first shows the footer (accurate to a few ms).
#   peak RSS      VmHWM from /proc/<pid>/status, 1 s after the first frame.
#   stream CPU    utime+stime (/proc/<pid>/stat) from just before the prompt
#                 is typed to the moment the end of the answer is on screen,
#                 for 4,000 tokens ("tok ") streamed at 5 ms per token;
#                 then the same for an 8 KB markdown answer (headings,
#                 lists, tables, code: tui/testdata/stream-sample.md) in
#                 2,028 chunks at 5 ms per chunk.
#   keystroke CPU the agent resumes a 2,000-exchange session (generated in
#                 pi's session format, written where each agent looks, and
#                 resumed with --continue); once its last answer is on screen
#                 and 1 s has passed, 50 keys are typed one at a time, each
#                 waited for on screen. CPU time is the sum of
#                 /proc/<pid>/task/*/schedstat (nanoseconds; the 10 ms ticks
#                 of /proc/<pid>/stat are too coarse for this) over the 50
#                 keys, divided by 50.
#   keystroke echo  in the same run, the median over the 50 keys of the
#                 time from sending the key (tmux send-keys) to the output
#                 that put it on screen; the floor is tmux's own round trip.
#   large resume  the agent resumes (--continue) a ~135 MB session: 2,500
#                 exchanges, each with a bash call whose result holds 50 KB
#                 (10,000 messages), generated once per bench run in pi's
#                 format and copied where each agent looks before each
#                 resume. Spawn -> its last answer on screen (as the first
#                 frame is timed), then the peak RSS (VmHWM) 1 s later.
#                 BIG_RUNS (default RUNS) of the runs include it, PI_BIG_RUNS
#                 (default BIG_RUNS) for pi, which takes ~40 s a resume;
#                 BIG_RUNS=0 leaves it out, BIG_ONLY=1 runs nothing else
#                 (and no warm-up). BIG_TIMEOUT (default 600s) is how long
#                 either agent may take.
# and prints a table with cairn/pi ratios and the targets. The floor, a
# Bubble Tea v2 program with one view (scripts/floor/teaview, built from
# this module, so with the Bubble Tea go.mod names), is started the same
# way in every run, before cairn, for the first frame and the peak RSS: the
# table after the first gives cairn's distance from it (goal: floor + 15 ms,
# floor + 12 MiB).
#
# The fake LLM is ../shared/tools/fakellm.js (CAIRN_SHARED names another
# shared/) when node is installed, else a small one built into the driver.
# pi 0.87.1 comes from ../shared/tools/pi-install.sh (once, into
# ${PI_CACHE:-~/.cache/cairn-pi}); pi 0.73.1 is the copy
# rpcmode/pi/testdata/rpcclient installs (npm ci, once); with no node or
# npm, pi's column is left out and the table says why. The
# measuring driver is scripts/tuibench (standard library only), built
# below. tmux is required (apt-get install tmux).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

RUNS=${RUNS:-5}
PI_VERSION=${PI_VERSION:-0.87.1}
SHARED=${CAIRN_SHARED:-$repo/../shared}
RPCCLIENT=$repo/rpcmode/pi/testdata/rpcclient
TOKENS=4000
TOKEN_MS=5
MD_CHUNKS=2028
MD_FILE=$repo/tui/testdata/stream-sample.md
EXCHANGES=2000
KEYS=50
BIG_EXCHANGES=2500
BIG_TOOL_KB=50
BIG_RUNS=${BIG_RUNS:-$RUNS}
PI_BIG_RUNS=${PI_BIG_RUNS:-$BIG_RUNS}
BIG_TIMEOUT=${BIG_TIMEOUT:-600s}
BIG_ONLY=${BIG_ONLY:-}

say() { printf '%s\n' "$*" >&2; }
die() { say "bench-tui: $*"; exit 1; }

[ "$RUNS" -ge 1 ] 2>/dev/null || die "RUNS must be a positive number"
[ "$BIG_RUNS" -ge 0 ] 2>/dev/null || die "BIG_RUNS must be a number"
[ "$PI_BIG_RUNS" -ge 0 ] 2>/dev/null || die "PI_BIG_RUNS must be a number"
[ -r /proc/self/stat ] || die "need Linux /proc"
command -v tmux >/dev/null || die "need tmux (apt-get install tmux)"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || die "need go"

# pi, from the rpcclient test's install, when node and npm are here.
PI=""
pi_missing=""
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  pi_missing="node and npm are not installed"
elif [ "$PI_VERSION" != 0.73.1 ]; then
  if [ -x "$SHARED/tools/pi-install.sh" ]; then
    say "pi $PI_VERSION: $SHARED/tools/pi-install.sh"
    PI=$(PI_VERSION=$PI_VERSION "$SHARED/tools/pi-install.sh") || { pi_missing="pi-install.sh failed"; PI=""; }
  else
    pi_missing="$SHARED/tools/pi-install.sh is missing (set CAIRN_SHARED to the shared/ directory)"
  fi
else
  pi_pkg=$RPCCLIENT/node_modules/@mariozechner/pi-coding-agent/package.json
  if [ "$(node -p "try{require('$pi_pkg').version}catch{''}" 2>/dev/null)" != "$PI_VERSION" ]; then
    say "installing pi $PI_VERSION into $RPCCLIENT (npm ci)"
    npm ci --prefix "$RPCCLIENT" --ignore-scripts --no-audit --no-fund --silent >&2 || pi_missing="npm ci in $RPCCLIENT failed"
  fi
  if [ -z "$pi_missing" ]; then
    PI=$RPCCLIENT/node_modules/.bin/pi
    [ -x "$PI" ] || { pi_missing="pi is not at $PI"; PI=""; }
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench-tui.XXXXXX")
work=$(cd "$work" && pwd -P)
fake_pid=""
cleanup() {
  if [ -n "$fake_pid" ]; then kill "$fake_pid" 2>/dev/null || true; wait "$fake_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT


say "building cairn and the driver"
CAIRN=${CAIRN_BIN:-$work/cairn}
# As make build does: the headless cairn, which hands the TUI over to the
# cairn-tui beside it (the hand-over is part of what is measured).
[ -n "${CAIRN_BIN:-}" ] || { CGO_ENABLED=${CGO:-0} go build -trimpath -ldflags '-s -w' -o "$work/cairn-tui" ./cmd/cairn &&
  CGO_ENABLED=${CGO:-0} go build -tags headless -trimpath -ldflags '-s -w' -o "$CAIRN" ./cmd/cairn; }
go build -o "$work/tuibench" ./scripts/tuibench
CGO_ENABLED=${CGO:-0} go build -trimpath -ldflags '-s -w' -o "$work/teaview" ./scripts/floor/teaview
D=$work/tuibench

# The fake LLM, for the whole run.
if [ -f "$SHARED/tools/fakellm.js" ] && command -v node >/dev/null; then
  node "$SHARED/tools/fakellm.js" --port 0 --port-file "$work/port" --loop >"$work/fakellm.log" 2>&1 &
  fake_what="shared/tools/fakellm.js"
else
  "$D" fakellm -port-file "$work/port" >"$work/fakellm.log" 2>&1 &
  fake_what="the driver's built-in fake LLM"
fi
fake_pid=$!
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || die "the fake LLM did not start: $(cat "$work/fakellm.log")"
PORT=$(cat "$work/port")
"$D" script "http://127.0.0.1:$PORT" "$TOKENS" "$TOKEN_MS" "$MD_CHUNKS" "$MD_FILE"

# The same models.json (pi's schema) for both agents.
models='{"providers":{"fake-openai":{"baseUrl":"http://127.0.0.1:'$PORT'/v1","api":"openai-completions","apiKey":"fake-key",
  "models":[{"id":"fake-gpt","name":"Fake GPT","reasoning":false,"input":["text"],"contextWindow":128000,"maxTokens":16384,
  "cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}'
mkdir -p "$work/pi-home/.pi/agent" "$work/cairn-home/.cairn" "$work/cwd" "$work/resume-cwd"
printf '%s\n' "$models" >"$work/pi-home/.pi/agent/models.json"
printf '%s\n' "$models" >"$work/cairn-home/.cairn/models.json"
slug="--$(printf '%s' "${work#/}/resume-cwd" | tr '/\\:' '---')--"

agent_cmd() { # AGENT [FLAG...]: sets cmd to the command line that starts AGENT
  local a=$1
  shift
  if [ "$a" = cairn ]; then
    cmd=(env "HOME=$work/cairn-home" "CAIRN_DIR=$work/cairn-home/.cairn" "$CAIRN" --provider fake-openai --model fake-gpt "$@")
  else
    cmd=(env "HOME=$work/pi-home" "$PI" --offline --provider fake-openai --model fake-gpt "$@")
  fi
}

# A fresh 2,000-exchange session where AGENT looks for it.
write_session() { # AGENT
  local dir
  if [ "$1" = cairn ]; then dir=$work/cairn-home/.cairn/sessions/$slug; else dir=$work/pi-home/.pi/agent/sessions/$slug; fi
  rm -rf "$dir" && mkdir -p "$dir"
  "$D" session -dir "$dir" -cwd "$work/resume-cwd" -n "$EXCHANGES"
}

# The large session, generated once, copied before each resume (an agent
# may append to the file it resumes).
big_session() { # AGENT
  local dir
  if [ "$1" = cairn ]; then dir=$work/cairn-home/.cairn/sessions/$slug; else dir=$work/pi-home/.pi/agent/sessions/$slug; fi
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$work/big"/*.jsonl "$dir/"
}
if [ "$BIG_RUNS" -gt 0 ] || [ "$PI_BIG_RUNS" -gt 0 ]; then
  mkdir -p "$work/big"
  "$D" session -dir "$work/big" -cwd "$work/resume-cwd" -n "$BIG_EXCHANGES" -tool-kb "$BIG_TOOL_KB"
  big_mb=$(( $(du -sb "$work/big" | cut -f1) / 1000000 ))
  say "large session: $big_mb MB"
fi

results=$work/results.jsonl
: >"$results"
agents=()
for a in ${AGENTS:-floor cairn pi}; do
  case $a in
    floor) agents+=(floor) ;;
    cairn) agents+=(cairn) ;;
    pi) if [ -n "$PI" ]; then agents+=(pi); fi ;;
    *) die "AGENTS lists $a; it may name floor, cairn and pi" ;;
  esac
done
[ -z "$PI" ] || [[ " ${AGENTS:-floor cairn pi} " == *" pi "* ]] || pi_missing="AGENTS leaves it out"

for i in $(seq 0 "$RUNS"); do
  [ -n "$BIG_ONLY" ] && [ "$i" -eq 0 ] && continue
  [ "$i" -eq 0 ] && say "warm-up run" || say "run $i of $RUNS"
  : >"$results.tmp"
  for a in "${agents[@]}"; do
    if [ "$a" = floor ]; then
      # The floor's one view shows the marker; first frame and peak RSS only.
      [ -n "$BIG_ONLY" ] || "$D" run -agent floor -run "$i" -work "$work" -cwd "$work/cwd" -marker fake-gpt \
        -- "$work/teaview" "floor: one view, fake-gpt" >>"$results.tmp" || die "floor: run $i failed"
      continue
    fi
    if [ -z "$BIG_ONLY" ]; then
      agent_cmd "$a"
      "$D" run -agent "$a" -run "$i" -work "$work" -cwd "$work/cwd" -marker fake-gpt -stream \
        -- "${cmd[@]}" >>"$results.tmp" || die "$a: start and stream run $i failed"
      write_session "$a"
      agent_cmd "$a" --continue
      "$D" run -agent "$a" -run "$i" -work "$work" -cwd "$work/resume-cwd" -marker fake-gpt \
        -ready "whole story for case $EXCHANGES" -keys "$KEYS" -- "${cmd[@]}" >>"$results.tmp" ||
        die "$a: keystroke run $i failed"
    fi
    big=$BIG_RUNS
    [ "$a" = pi ] && big=$PI_BIG_RUNS
    # Not in the warm-up run: a resume of pi's takes a minute or more.
    if [ "$i" -ge 1 ] && [ "$i" -le "$big" ]; then
      big_session "$a"
      agent_cmd "$a" --continue
      "$D" run -agent "$a" -run "$i" -work "$work" -cwd "$work/resume-cwd" -marker fake-gpt -big -timeout "$BIG_TIMEOUT" \
        -ready "whole story for case $BIG_EXCHANGES" -- "${cmd[@]}" >>"$results.tmp" || {
        say "bench-tui: $a: large resume run $i failed; the table counts it as not on screen within $BIG_TIMEOUT"
        printf '{"agent":"%s","run":%d,"bigFailed":true}\n' "$a" "$i" >>"$results.tmp"
      }
      rm -rf "$work/cairn-home/.cairn/sessions/$slug" "$work/pi-home/.pi/agent/sessions/$slug"
    fi
  done
  # The warm-up run is not recorded.
  [ "$i" -gt 0 ] && cat "$results.tmp" >>"$results"
  rm -f "$results.tmp"
done

"$D" report -runs "$RUNS" -pi-version "$PI_VERSION" -pi-missing "$pi_missing" -fake "$fake_what" \
  -tokens "$TOKENS" -token-ms "$TOKEN_MS" -md-chunks "$MD_CHUNKS" -md-file "$MD_FILE" -exchanges "$EXCHANGES" -keys "$KEYS" \
  -big-exchanges "$BIG_EXCHANGES" -big-tool-kb "$BIG_TOOL_KB" -big-mb "${big_mb:-0}" -big-timeout "$BIG_TIMEOUT" "$results"
