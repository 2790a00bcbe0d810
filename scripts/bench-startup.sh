#!/usr/bin/env bash
# bench-startup.sh - how fast and how small cairn starts: `cairn --version`
# (spawn -> exit) and `cairn --mode rpc` (spawn -> the response to a
# get_state written at spawn), as medians of wall time and peak RSS over RUNS
# runs, beside the floor (scripts/floor/lineecho: a static Go program that
# reads a line and answers it, built as cairn is) and pi 0.87.1 when it is
# installed, all in the same run. The goals are against the floor: --mode
# rpc's answer within floor + 3 ms, its peak RSS at most 11 MiB.
#
#   scripts/bench-startup.sh             # or: RUNS=21 scripts/bench-startup.sh
#   CAIRN_BIN=bin/cairn scripts/bench-startup.sh   # a cairn built beforehand
#
# cairn runs the faux provider (no model is called) with CAIRN_DIR and the
# working directory in a fresh temporary directory. pi is the wrapper that
# ../shared/tools/pi-install.sh leaves in ${PI_CACHE:-~/.cache/cairn-pi};
# this script does not install it (make bench-rpc's stream benchmark does),
# and leaves pi out with a message when it is missing. pi runs with
# --offline and a models.json naming a provider nobody listens on, which
# get_state does not contact. The runs go round-robin over the cases after
# one warm-up run each (scripts/startbench does the timing: wait4's
# ru_maxrss for peak RSS). The slowest package initialisers of
# `cairn --version` (GODEBUG=inittrace=1) are listed after the table.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-11}
PI_VERSION=0.87.1
PI=${PI_CACHE:-$HOME/.cache/cairn-pi}/pi-$PI_VERSION/pi

say() { printf '%s\n' "$*" >&2; }
die() { say "bench-startup: $*"; exit 1; }

[ "$RUNS" -ge 1 ] 2>/dev/null || die "RUNS must be a positive number"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || die "need go"

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work" in *' '*) die "the temporary directory $work has a space in it; set TMPDIR" ;; esac

go build -o "$work/startbench" ./scripts/startbench
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$work/lineecho" ./scripts/floor/lineecho
if [ -n "${CAIRN_BIN:-}" ]; then
  CAIRN=$(cd "$(dirname "$CAIRN_BIN")" && pwd)/$(basename "$CAIRN_BIN")
  [ -x "$CAIRN" ] || die "CAIRN_BIN $CAIRN_BIN is not an executable"
else
  say "building cairn as make build does (the headless build, cairn-tui beside it)"
  CAIRN=$work/cairn
  CGO_ENABLED=${CGO:-0} go build -trimpath -ldflags '-s -w' -o "$work/cairn-tui" ./cmd/cairn
  CGO_ENABLED=${CGO:-0} go build -tags headless -trimpath -ldflags '-s -w' -o "$CAIRN" ./cmd/cairn
fi

mkdir -p "$work/cwd" "$work/cairn-dir" "$work/home/.pi/agent"
printf '{"responses": []}\n' >"$work/faux.json"
printf '%s\n' '{"providers":{"fake-openai":{"baseUrl":"http://127.0.0.1:9/v1","api":"openai-completions","apiKey":"fake-key",
  "models":[{"id":"fake-gpt","name":"Fake GPT","reasoning":false,"input":["text"],"contextWindow":128000,"maxTokens":16384,
  "cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}}]}}}' >"$work/home/.pi/agent/models.json"

# Five MCP servers that never answer: start-up must not wait for them (the
# wait is for a prompt's first request). Both MCP cases go through env, so
# they compare with each other, not with cairn-rpc.
mkdir -p "$work/cairn-dir-mcp0" "$work/cairn-dir-mcp5"
printf '%s\n' '{"mcpServers": {"s1": {"command": "sleep", "args": ["60"]}, "s2": {"command": "sleep", "args": ["60"]},
  "s3": {"command": "sleep", "args": ["60"]}, "s4": {"command": "sleep", "args": ["60"]}, "s5": {"command": "sleep", "args": ["60"]}}}' \
  >"$work/cairn-dir-mcp5/mcp.json"

cases=(-case "floor-exit exit $work/lineecho" -case "floor-rpc rpc $work/lineecho"
  -case "cairn-version exit $CAIRN --version"
  -case "cairn-rpc rpc $CAIRN --mode rpc --no-session --provider faux"
  -case "cairn-rpc-mcp0 rpc env CAIRN_DIR=$work/cairn-dir-mcp0 $CAIRN --mode rpc --no-session --provider faux"
  -case "cairn-rpc-mcp5 rpc env CAIRN_DIR=$work/cairn-dir-mcp5 $CAIRN --mode rpc --no-session --provider faux")
# The full build beside it (what the TUI runs), for comparison.
TUI=$(dirname "$CAIRN")/cairn-tui
[ -x "$TUI" ] && cases+=(-case "tui-version exit $TUI --version")
with_pi=0
if [ -x "$PI" ] && [ "$("$PI" --version 2>/dev/null)" = "$PI_VERSION" ]; then
  case "$PI" in *' '*) die "the pi path $PI has a space in it" ;; esac
  with_pi=1
  cases+=(-case "pi-version exit $PI --version"
    -case "pi-rpc rpc $PI --mode rpc --no-session --offline --provider fake-openai --model fake-gpt")
else
  say "bench-startup: pi $PI_VERSION is not installed at $PI (../shared/tools/pi-install.sh installs it); measuring cairn alone"
fi

say "startup: $RUNS runs of each case (+1 warm-up), round-robin"
(cd "$work/cwd" && HOME=$work/home CAIRN_DIR=$work/cairn-dir CAIRN_FAUX_SCRIPT=$work/faux.json \
  "$work/startbench" -runs "$RUNS" "${cases[@]}") >"$work/results.tsv"

# label median-ms median-MiB min-ms runs
get() { awk -F'\t' -v l="$1" -v c="$2" '$1 == l { print $c }' "$work/results.tsv"; }
row() { # name floor-label cairn-label pi-label column unit goal
  local f c p diff ratio="" pcol="—"
  f=$(get "$2" "$5")
  c=$(get "$3" "$5")
  diff=$(awk -v c="$c" -v f="$f" 'BEGIN { printf "%+.1f", c - f }')
  if [ "$with_pi" = 1 ]; then
    p=$(get "$4" "$5")
    pcol="$p $6"
    ratio=$(awk -v c="$c" -v p="$p" 'BEGIN { if (p > 0) { r = c / p; printf (r < 0.1 ? "%.3f (1/%.0f)" : "%.2f (1/%.1f)"), r, p / c } }')
  fi
  printf '| %s | %s %s | %s %s | %s | %s | %s | %s |\n' "$1" "$f" "$6" "$c" "$6" "$diff" "$pcol" "$ratio" "$7"
}
echo "cairn start-up: medians of $RUNS runs, $(nproc) CPUs, $(uname -m), load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo "The floor is scripts/floor/lineecho (a static Go program that reads a line and answers it)."
echo
echo "| measure | floor | cairn | cairn - floor | pi $PI_VERSION | cairn/pi | goal |"
echo "|---|---|---|---|---|---|---|"
row '`--version`: wall' floor-exit cairn-version pi-version 2 ms ''
row '`--version`: peak RSS' floor-exit cairn-version pi-version 3 MiB ''
row '`--mode rpc`: spawn to `get_state` response' floor-rpc cairn-rpc pi-rpc 2 ms 'floor + 3 ms'
row '`--mode rpc`: peak RSS' floor-rpc cairn-rpc pi-rpc 3 MiB '11 MiB'
echo
echo "\`--mode rpc\` spawn to \`get_state\` response with 5 MCP servers that never answer:" \
  "$(get cairn-rpc-mcp5 2) ms, against $(get cairn-rpc-mcp0 2) ms with none (both through env)."
if [ -x "$TUI" ]; then
  echo
  echo "The full build beside it (cairn-tui: the TUI and the HTML export, which cairn hands over to):" \
    "\`--version\` $(get tui-version 2) ms, $(get tui-version 3) MiB."
fi
echo
echo "The slowest package initialisers of \`cairn --version\` (GODEBUG=inittrace=1, one run):"
echo
GODEBUG=inittrace=1 "$CAIRN" --version 2>&1 >/dev/null |
  awk '/^init / { printf "%s\t%s ms\t%.1f MB\n", $2, $5, $8 / 1e6 }' | sort -t$'\t' -k2 -g -r | head -6 | sed 's/^/    /'
GODEBUG=inittrace=1 "$CAIRN" --version 2>&1 >/dev/null |
  awk '/^init / { n++; ms += $5; b += $8; a += $10 }
    END { printf "\nAll %d initialisers: %.1f ms, %d allocations, %.0f KB (cmd/cairn/startcost_test.go holds the budget).\n", n, ms, a, b / 1024 }'
