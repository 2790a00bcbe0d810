package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/settings"
)

// openCheckpoints opens the checkpoint store of the project in cwd, or
// returns nil (with a warning when something failed) when checkpoints are
// off: by the settings, or because cwd is the home or root directory,
// which are not projects.
func openCheckpoints(streams IOStreams, env environment, cwd string, cs settings.CheckpointSettings) *checkpoint.Store {
	if !cs.Enabled || env.dir == "" || notAProject(env, cwd) {
		return nil
	}
	st, err := checkpoint.Open(checkpointOptions(env, cwd, cs))
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: checkpoints are off for this session: %v\n", err)
		return nil
	}
	return st
}

func checkpointOptions(env environment, cwd string, cs settings.CheckpointSettings) checkpoint.Options {
	return checkpoint.Options{
		Project:   cwd,
		Dir:       checkpoint.DirFor(env.dir, cwd),
		Limits:    checkpoint.Limits{MaxFileBytes: cs.MaxFileBytes, MaxTotalBytes: cs.MaxTotalBytes},
		Retention: checkpoint.Retention{Keep: cs.Keep, MaxBytes: cs.MaxStoreBytes},
	}
}

// notAProject reports whether cwd is the home directory, the file system
// root or cairn's own directory, where scanning every file before each
// prompt would cost more than it is worth.
func notAProject(env environment, cwd string) bool {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return true
	}
	home, _ := os.UserHomeDir()
	if h := env.getenv("HOME"); h != "" {
		home = h
	}
	return abs == string(filepath.Separator) || home != "" && abs == filepath.Clean(home) || abs == filepath.Clean(env.dir)
}

const checkpointsUsage = `usage: cairn checkpoints list   list this project's checkpoints, oldest first
       cairn checkpoints gc     apply the retention policy (settings "checkpoints":
                                keep, maxStoreBytes) and delete unreferenced objects
Checkpoints live in ~/.cairn/checkpoints/<project>/ (CAIRN_DIR replaces ~/.cairn).
`

// checkpointsCommand is `cairn checkpoints list|gc`.
func checkpointsCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(streams.Out, checkpointsUsage)
		return exitOK
	}
	if len(args) != 1 || args[0] != "list" && args[0] != "gc" {
		fmt.Fprint(streams.Err, checkpointsUsage)
		return exitUsage
	}
	env := newEnvironment(getenv)
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: find the working directory: %v\n", err)
		return exitFailure
	}
	// Only the global settings: a project's files count once it is
	// trusted, and retention needs no project setting to be safe.
	st, err := settings.Load(settings.GlobalFile(env.dir), "")
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	dir := checkpoint.DirFor(env.dir, cwd)
	if _, err := os.Stat(dir); err != nil {
		fmt.Fprintf(streams.Out, "No checkpoints for %s.\n", cwd)
		return exitOK
	}
	store, err := checkpoint.Open(checkpointOptions(env, cwd, st.Effective().Checkpoints))
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	if args[0] == "gc" {
		res, err := store.GC(nil, checkpoint.ObjectGrace)
		if err != nil {
			fmt.Fprintf(streams.Err, "cairn: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(streams.Out, "Removed %d checkpoints and %d objects (%d bytes); %d checkpoints kept, %d bytes of objects.\n",
			len(res.Removed), res.Objects, res.Bytes, res.Kept, res.StoreBytes)
		return exitOK
	}
	list, errs := store.List()
	for _, err := range errs {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	w := tabwriter.NewWriter(streams.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tTIME\tPHASE\tADDED\tUNKEPT\tLABEL")
	for _, cp := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%s\n", cp.ID, cp.Time.Local().Format("2006-01-02 15:04:05"), cp.Phase, cp.Added, cp.UnkeptCount, cp.Label)
	}
	_ = w.Flush()
	return exitOK
}
