package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/extension"
)

// extensionFlag reads the flag at args[i], one cairn does not know, the
// way pi's command line keeps such flags for its extensions: "--name=value",
// "--name value" when the next word starts with neither "-" nor "@", else a
// bare "--name". used is how many words after args[i] it took. A short
// flag ("-x") is refused at once, as pi refuses it.
func extensionFlag(args []string, i int) (f extension.Flag, used int, err error) {
	arg := args[i]
	if !strings.HasPrefix(arg, "--") || len(arg) == 2 {
		name, _, _ := strings.Cut(arg, "=")
		return f, 0, fmt.Errorf("unknown flag %s (see cairn --help)", name)
	}
	name, value, hasValue := strings.Cut(arg[2:], "=")
	if name == "" {
		return f, 0, fmt.Errorf("unknown flag %s (see cairn --help)", arg)
	}
	f = extension.Flag{Name: name, Value: value, HasValue: hasValue}
	if !hasValue && i+1 < len(args) {
		next := args[i+1]
		if !strings.HasPrefix(next, "-") && !strings.HasPrefix(next, "@") {
			f.Value, f.HasValue, f.Taken = next, true, true
			used = 1
		}
	}
	return f, used, nil
}

// extFlagsWithoutSession refuses at once the flags only extensions may
// know when this run starts none (--no-extensions) or no session at all
// (--help, --version, --list-models, --export): nothing would read them.
func extFlagsWithoutSession(opts *Options) error {
	if len(opts.ExtFlags) == 0 {
		return nil
	}
	name := opts.ExtFlags[0].Name
	switch {
	case opts.NoExtensions:
		return fmt.Errorf("unknown flag --%s (see cairn --help); extensions' flags are not read with --no-extensions", name)
	case opts.Help || opts.Version || opts.ListModels || opts.Export != "":
		return fmt.Errorf("unknown flag --%s (see cairn --help): this command starts no session, so no extension could take it", name)
	}
	return nil
}

// extensionFlagWait bounds how long the session waits for its extensions
// to start when the command line has flags only they may know: the
// extensions' own start limit is shorter, so this is a backstop.
const extensionFlagWait = time.Minute

// claimFlags refuses, once the extensions have started, any flag of the
// command line that none of them registered (or that is given the wrong
// way). With no such flag it returns at once: a start without extension
// flags waits for nothing.
func claimFlags(opts *Options, exts *extension.Manager) error {
	if len(opts.ExtFlags) == 0 {
		return nil
	}
	if err := extFlagsWithoutSession(opts); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), extensionFlagWait)
	defer cancel()
	exts.WaitInitialized(ctx)
	return exts.CheckFlags(opts.ExtFlags)
}

// usageError is a command-line mistake found only once the session is
// being built (a flag no extension claims): cairn exits with exitUsage
// for it, as for a flag it refuses at once.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// buildExit is the exit code for a session that could not be built.
func buildExit(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFailure
}
