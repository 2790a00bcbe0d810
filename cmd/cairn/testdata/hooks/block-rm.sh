#!/bin/sh
# A Claude Code PreToolUse hook, as people write them: refuse rm.
# Only shell builtins, so it runs with the bare environment hooks get.
IFS= read -r input || true
case "$input" in
*'"tool_name":"Bash"'*'"command":"rm '*)
	echo "Blocked: rm is not allowed in this project" >&2
	exit 2
	;;
esac
exit 0
