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
