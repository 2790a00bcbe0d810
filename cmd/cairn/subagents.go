package main

import (
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/subagent"
)

// taskTool is the task tool of a session in cwd: the agent definitions of
// the person's directories and, when the project is trusted, the
// project's, with the settings' limits. Definitions that cannot be read
// are reported on stderr and left out.
func taskTool(streams IOStreams, env environment, eff settings.Settings, cwd string, trusted projectTrust) *subagent.Tool {
	places := subagent.Places{Home: env.getenv("HOME"), CairnDir: env.dir, Project: trusted.project.Root,
		Trusted: trusted.trusted(), Others: eff.OtherAgentDirs}
	if places.Project == "" {
		places.Project = cwd
	}
	defs, problems := subagent.Load(places.Dirs())
	// The agents of the person's plugins come after the person's and the
	// project's, named plugin:agent as Claude Code names them.
	plugins, _ := installedPlugins(env, cwd, trusted.trusted())
	pdefs, pproblems := pluginAgents(plugins)
	defs, problems = append(defs, pdefs...), append(problems, pproblems...)
	for _, p := range problems {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", p)
	}
	set := subagent.NewSet(defs...)
	for _, d := range set.Hidden {
		where := d.Path
		if where == "" {
			where = "built in"
		}
		fmt.Fprintf(streams.Err, "cairn: warning: agent %q (%s) is hidden by another of the same name\n", d.Name, where)
	}
	lim := eff.Subagents
	return subagent.New(subagent.Options{Definitions: set, MaxParallel: lim.MaxParallel, Timeout: lim.Timeout(),
		MaxTurns: lim.MaxTurns, Cwd: cwd})
}

// recoverSubagents closes the last answer of a resumed session when cairn
// stopped while its calls ran: each call gets a result (a task call's
// says what its subagent had completed, from its transcript), appended to
// the file, so every front end shows it and the model knows.
func recoverSubagents(streams IOStreams, file *session.File, history session.Context) session.Context {
	results := subagent.Interrupted(history.Messages, file.FilePath(), time.Now().UnixMilli())
	for _, r := range results {
		id, err := file.AppendMessage(r)
		if err != nil {
			fmt.Fprintf(streams.Err, "cairn: warning: session %s: cannot record the interrupted call %s: %v\n", file.FilePath(), r.ToolCallID, err)
			return history
		}
		history.Messages = append(history.Messages, r)
		history.EntryIDs = append(history.EntryIDs, id)
	}
	return history
}
