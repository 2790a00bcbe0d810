#!/usr/bin/env bash
# skill-counts.sh - how many skills (SKILL.md) and agent definitions of
# public collections pi 0.87.1 and cairn load: cairn as in this tree and as
# in a git revision (main by default). Not used by the tests.
#
#   scripts/skill-counts.sh SKILLS_DIR...                  # skills
#   AGENTS="DIR1 DIR2" scripts/skill-counts.sh             # agent definitions too
#
# Environment: BASE (git revision to compare with, default main), PI (the
# pi wrapper printed by ../shared/tools/pi-install.sh; default: run it).
# Collections come from GitHub (for example anthropics/skills,
# openclaw/skills, VoltAgent/awesome-claude-code-subagents); see
# docs/skills.md and docs/subagents.md for the figures and commits.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base=${BASE:-main}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pi=${PI:-$("$here/../shared/tools/pi-install.sh")}
pkg="$(dirname "$pi")/lib/node_modules/@earendil-works/pi-coding-agent"
node="$(grep -o '[^"]*/bin:' "$pi" | head -1 | sed 's/:$//')/node"

# cairn's counters, built from this tree and from $base (whose code the
# counters only call, so they build against it unchanged).
(cd "$here" && go build -o "$work/skillcount-now" ./scripts/skillcount && go build -o "$work/agentcount-now" ./scripts/agentcount)
mkdir "$work/base"
git -C "$here" archive "$base" | tar -x -C "$work/base"
mkdir -p "$work/base/scripts/skillcount" "$work/base/scripts/agentcount"
cp "$here/scripts/skillcount/main.go" "$work/base/scripts/skillcount/"
cp "$here/scripts/agentcount/main.go" "$work/base/scripts/agentcount/"
(cd "$work/base" && go build -o "$work/skillcount-base" ./scripts/skillcount && go build -o "$work/agentcount-base" ./scripts/agentcount)

for dir in "$@"; do
  echo "== $dir ($(find "$dir" -name SKILL.md | wc -l) SKILL.md files)"
  "$node" "$here/scripts/pi-skill-count.mjs" "$pkg" "$dir" 2>/dev/null | tail -1
  echo "cairn $base: $("$work/skillcount-base" "$dir")"
  echo "cairn now: $("$work/skillcount-now" "$dir")"
done
for dir in ${AGENTS:-}; do
  echo "== agents $dir ($(find "$dir" -name '*.md' | wc -l) .md files)"
  echo "cairn $base: $("$work/agentcount-base" "$dir")"
  echo "cairn now: $("$work/agentcount-now" "$dir")"
done
