package main

import (
	"context"
	"fmt"
	"io"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/ccperm"
	"github.com/cairn-dev/cairn/core/hook"
)

// claudePermissions reads the permission rules of the person's own Claude
// Code settings (~/.claude/settings.json), unless their cairn settings turn
// reading that file off, and prints what cannot be applied as warnings.
func claudePermissions(stderr io.Writer, env environment) ccperm.Permissions {
	file := claudeUserSettings(env)
	if file == "" || !readClaudeUserHooks(env) {
		return ccperm.Permissions{}
	}
	perms, warnings := ccperm.LoadFiles(env.lookup("HOME"), file)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "cairn: warning: %s\n", w)
	}
	return perms
}

// permissionInterceptor applies the deny and ask rules of perms before
// every tool call, in every approval mode (yolo included, as Claude Code
// applies deny rules in bypassPermissions): a call a deny rule matches is
// refused, one an ask rule matches is asked about. nil when there are
// none.
func permissionInterceptor(perms ccperm.Permissions, dir, home string) []agent.Interceptor {
	if len(perms.Deny) == 0 && len(perms.Ask) == 0 {
		return nil
	}
	return []agent.Interceptor{{Name: "Claude Code permissions", ToolCall: func(_ context.Context, e agent.ToolCallEvent) (agent.ToolCallResult, error) {
		t := hook.ToolCall(e.Call.Name, e.Call.Arguments, dir)
		for _, r := range perms.Deny {
			if r.Match(t.Names, t.Input, dir, home) {
				return agent.ToolCallResult{Decision: agent.CallBlock,
					Reason: fmt.Sprintf("The person's Claude Code settings (%s) deny %s.", perms.Origin[r.String()], r)}, nil
			}
		}
		for _, r := range perms.Ask {
			if r.Match(t.Names, t.Input, dir, home) {
				return agent.ToolCallResult{Decision: agent.CallAsk,
					Reason: fmt.Sprintf("your Claude Code settings (%s) ask about %s", perms.Origin[r.String()], r)}, nil
			}
		}
		return agent.ToolCallResult{}, nil
	}}}
}
