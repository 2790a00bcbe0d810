#!/usr/bin/env bash
# bench-soak.sh - a day-long session in one run: cairn's full-screen TUI
# under tmux at 120x40 against a fake model (scripts/tuibench soak) that
# answers one prompt with SOAK_TURNS turns (default 2,000), each ~2 KB of
# markdown streamed at full speed and one bash call that prints a 50 KB
# file, then a final answer.
#
#   make bench-soak                      # or: scripts/bench-soak.sh
#   SOAK_TURNS=300 SOAK_AT=100,200,300 scripts/bench-soak.sh   # a short one
#   SOAK_HEAP=dir scripts/bench-soak.sh  # keep heap profiles (dir/heap.turnN)
#   CAIRN_BIN=bin/cairn scripts/bench-soak.sh   # a cairn built beforehand
#
# Reports VmRSS (/proc/<pid>/status) as the request after turns 100, 500,
# 1,000 and 2,000 arrives, and, once the final answer is on screen, CPU per
# keystroke over 50 typed keys (/proc/<pid>/task/*/schedstat, as
# bench-tui.sh measures it) and the median key's echo. With SOAK_HEAP the
# agent runs with CAIRN_HEAPPROFILE and is sent SIGUSR1 at each of those
# turns; `go tool pprof -top dir/heap.turn2000` reads a profile.
# Goals: RSS flat within 10 MiB after turn 100, keystroke CPU <= 1 ms.
# Needs Linux /proc, tmux and go; takes some minutes (every request carries
# the whole conversation, 100 MB by turn 2,000).
set -euo pipefail
cd "$(dirname "$0")/.."

TURNS=${SOAK_TURNS:-2000}
AT=${SOAK_AT:-100,500,1000,2000}
KEYS=50

say() { printf '%s\n' "$*" >&2; }
die() { say "bench-soak: $*"; exit 1; }

[ -r /proc/self/stat ] || die "need Linux /proc"
command -v tmux >/dev/null || die "need tmux (apt-get install tmux)"
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || die "need go"

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench-soak.XXXXXX")
work=$(cd "$work" && pwd -P)
trap 'rm -rf "$work"' EXIT

say "building cairn and the driver"
CAIRN=${CAIRN_BIN:-$work/cairn}
# As make build does: the headless cairn hands the TUI over to cairn-tui.
[ -n "${CAIRN_BIN:-}" ] || { CGO_ENABLED=${CGO:-0} go build -trimpath -ldflags '-s -w' -o "$work/cairn-tui" ./cmd/cairn &&
  CGO_ENABLED=${CGO:-0} go build -tags headless -trimpath -ldflags '-s -w' -o "$CAIRN" ./cmd/cairn; }
go build -o "$work/tuibench" ./scripts/tuibench

mkdir -p "$work/home/.cairn" "$work/cwd"
heap=()
env=(env "HOME=$work/home" "CAIRN_DIR=$work/home/.cairn")
if [ -n "${SOAK_HEAP:-}" ]; then
  mkdir -p "$SOAK_HEAP"
  dir=$(cd "$SOAK_HEAP" && pwd -P)
  heap=(-heap "$dir/heap")
  env+=("CAIRN_HEAPPROFILE=$dir/heap")
fi
say "soak: $TURNS turns (RSS after turns $AT)"
"$work/tuibench" soak -work "$work" -cwd "$work/cwd" -models "$work/home/.cairn/models.json" \
  -turns "$TURNS" -at "$AT" -keys "$KEYS" -out "$work/result.json" "${heap[@]}" \
  -- "${env[@]}" "$CAIRN" --provider fake-openai --model fake-gpt --approval yolo
"$work/tuibench" soak-report "$work/result.json"
