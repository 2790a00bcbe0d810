package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/toolset"
)

const extUsage = `Usage: cairn ext list [--trust-project] [--timeout SECONDS]

Starts every extension a session here would run (~/.cairn/extensions, the
project's .cairn/extensions once it is trusted, the "extensions" setting),
and shows each with its state and what it registered: tools (inactive ones
marked), / commands and the events it handles.
`

// extCommand runs `cairn ext ...`.
func extCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	l, code, ok := listSetup(args, extUsage, 10*time.Second, streams, getenv)
	if !ok {
		return code
	}
	env, opts, trusted, cwd, timeout := l.env, l.opts, l.trusted, l.cwd, l.timeout
	st := loadSettings(streams, env, trusted, cwd)
	configs := extensionConfigs(env, opts, trusted, st, cwd)
	if !trusted.trusted() {
		if entries, _ := os.ReadDir(extension.ProjectDir(cwd)); len(entries) > 0 {
			fmt.Fprintf(streams.Out, "This project is not trusted: its extensions (%s) do not run. Trust it, or pass --trust-project.\n\n", extension.ProjectDir(cwd))
		}
	}
	if len(configs) == 0 {
		fmt.Fprintf(streams.Out, "No extensions. Put executables, or directories with an %s, in %s.\n", extension.ManifestFile, extension.UserDir(env.dir))
		return exitOK
	}
	m := extension.New(configs, extension.Options{Cwd: cwd, Mode: "list", CairnVersion: versionString(), Getenv: env.getenv, StartTimeout: timeout, LogDir: extensionLogDir(env)})
	m.Start()
	defer m.Close()
	toolset.New(nil, toolset.Options{Limit: timeout + time.Second}, m).Wait(ctx, nil)
	code = exitOK
	for _, s := range m.Statuses() {
		if !printExtension(streams, s) {
			code = exitFailure
		}
	}
	return code
}

// printExtension shows one extension; it reports false when it is not
// ready.
func printExtension(streams IOStreams, s extension.Status) bool {
	fmt.Fprintf(streams.Out, "%s (%s, %s): %s\n", s.Config.Name, s.Config.Scope, s.Config.Path, s.State)
	if s.Err != nil {
		fmt.Fprintf(streams.Out, "%s\n", indentLines(s.Err.Error()))
	}
	for i, t := range s.Tools {
		mark := ""
		if !s.Active[i] {
			mark = " (inactive)"
		}
		fmt.Fprintf(streams.Out, "  tool %s%s: %s\n", t.Name, mark, firstLine(t.Description))
	}
	for _, c := range s.Commands {
		fmt.Fprintf(streams.Out, "  command /%s: %s\n", c.Name, c.Description)
	}
	if len(s.Events) > 0 {
		fmt.Fprintf(streams.Out, "  events: %s\n", strings.Join(s.Events, ", "))
	}
	if s.Note != "" {
		fmt.Fprintf(streams.Out, "  note: %s\n", s.Note)
	}
	return s.State == extension.Ready
}
